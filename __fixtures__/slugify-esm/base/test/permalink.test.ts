import { describe, expect, it } from 'vitest'
import { permalink } from '../src/permalink.js'

const published = new Date('2024-05-02T09:30:00Z')

describe('permalink', () => {
  it('is /<year>/<month>/<slug of the title>', () => {
    expect(permalink({ title: 'Hello, World!', published })).toBe('/2024/05/hello-world')
  })

  it('prefers an explicit slug', () => {
    expect(permalink({ title: 'Hello, World!', published, slug: 'hi' })).toBe('/2024/05/hi')
  })

  it('shortens a long title at a word boundary', () => {
    const title = 'Everything I wish I had known before migrating a large codebase to ES modules'
    expect(permalink({ title, published })).toBe('/2024/05/everything-i-wish-i-had-known-before-migrating-a-large')
  })

  it('refuses a title that gives no slug', () => {
    expect(() => permalink({ title: '???', published })).toThrow('has no slug')
  })
})
