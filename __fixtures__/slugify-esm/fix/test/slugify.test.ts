import { describe, expect, it } from 'vitest'
import { slugify } from '../src/slugify.js'

describe('slugify', () => {
  it('joins lower-case words with hyphens', () => {
    expect(slugify('Hello, World!')).toBe('hello-world')
  })

  it('drops accents and spells out the letters Unicode does not decompose', () => {
    expect(slugify('Crème brûlée & Smørrebrød')).toBe('creme-brulee-and-smorrebrod')
    expect(slugify('Straße')).toBe('strasse')
  })

  it('takes a separator and can keep the case', () => {
    expect(slugify('Release Notes 2.0', { separator: '_', lowercase: false })).toBe('Release_Notes_2_0')
  })

  it('gives an empty slug for a title without letters or digits', () => {
    expect(slugify('¿?!')).toBe('')
  })

  describe('maxLength', () => {
    it('cuts a longer slug at the last word that fits', () => {
      expect(slugify('The quick brown fox', { maxLength: 12 })).toBe('the-quick')
    })

    it('keeps a shorter slug whole', () => {
      expect(slugify('The quick brown fox', { maxLength: 40 })).toBe('the-quick-brown-fox')
    })

    it('keeps a slug of exactly maxLength characters whole (#212)', () => {
      expect(slugify('Hello World', { maxLength: 11 })).toBe('hello-world')
    })

    it('cuts a single long word hard', () => {
      expect(slugify('Supercalifragilistic', { maxLength: 5 })).toBe('super')
    })

    it('rejects a maxLength below 1', () => {
      expect(() => slugify('x', { maxLength: 0 })).toThrow(RangeError)
    })
  })
})
