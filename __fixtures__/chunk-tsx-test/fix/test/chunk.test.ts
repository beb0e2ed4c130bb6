import assert from 'node:assert/strict'
import { describe, it } from 'node:test'
import { chunk } from '../src/chunk.ts'

describe('chunk', () => {
  it('splits evenly', () => {
    const chunks: number[][] = chunk([1, 2, 3, 4], 2)
    assert.deepEqual(chunks, [[1, 2], [3, 4]])
  })

  it('keeps the last, shorter chunk (#14)', () => {
    assert.deepEqual(chunk([1, 2, 3, 4, 5], 2), [[1, 2], [3, 4], [5]])
  })

  it('refuses a size of 0', () => {
    assert.throws(() => chunk([1], 0), RangeError)
  })
})
