import { describe, it } from 'node:test'
import assert from 'node:assert/strict'
import { parseLine } from '../src/parse-line.js'

describe('parseLine', () => {
  it('splits plain fields', () => {
    assert.deepEqual(parseLine('id,name,city'), ['id', 'name', 'city'])
  })

  it('keeps empty fields between delimiters', () => {
    assert.deepEqual(parseLine('a,,c'), ['a', '', 'c'])
  })

  it('gives an empty line no fields', () => {
    assert.deepEqual(parseLine(''), [])
  })

  describe('quoted fields', () => {
    it('keeps the delimiter inside quotes', () => {
      assert.deepEqual(parseLine('1,"Smith, Jo",Leeds'), ['1', 'Smith, Jo', 'Leeds'])
    })

    it('reads a doubled quote as one quote', () => {
      assert.deepEqual(parseLine('"says ""hi""",x'), ['says "hi"', 'x'])
    })

    it('keeps an empty quoted field', () => {
      assert.deepEqual(parseLine('a,""'), ['a', ''])
    })

    it('rejects an unterminated quote', () => {
      assert.throws(() => parseLine('a,"open'), { name: 'SyntaxError', message: /unterminated quoted field/ })
    })
  })

  it('splits on a custom delimiter', () => {
    assert.deepEqual(parseLine('a;b,c;d', { delimiter: ';' }), ['a', 'b,c', 'd'])
  })
})
