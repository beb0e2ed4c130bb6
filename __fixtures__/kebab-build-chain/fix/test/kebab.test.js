import assert from 'node:assert/strict'
// The built module, as published: the test script builds it first.
import { kebabCase } from '../lib/kebab.esm.js'

describe('kebabCase', () => {
  it('splits camelCase', () => {
    assert.equal(kebabCase('fooBar'), 'foo-bar')
  })

  it('joins words split by spaces and underscores', () => {
    assert.equal(kebabCase('foo bar_baz'), 'foo-bar-baz')
  })

  it('keeps an acronym one word (#5)', () => {
    assert.equal(kebabCase('parseJSONData'), 'parse-json-data')
  })
})
