'use strict'

const assert = require('assert')
const { clamp } = require('..')

describe('clamp', () => {
  it('keeps a value inside the range', () => {
    assert.strictEqual(clamp(5, 0, 10), 5)
  })

  it('gives the upper bound for a value above the range', () => {
    assert.strictEqual(clamp(15, 0, 10), 10)
  })

  it('gives the lower bound for a value below the range (#12)', () => {
    assert.strictEqual(clamp(-5, 0, 10), 0)
  })
})
