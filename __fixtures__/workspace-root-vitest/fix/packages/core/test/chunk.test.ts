import { chunk } from '@acme/core'

describe('chunk', () => {
  it('splits items into groups of the size', () => {
    expect(chunk([1, 2, 3, 4], 2)).toEqual([[1, 2], [3, 4]])
  })

  it('gives no group for no items', () => {
    expect(chunk([], 3)).toEqual([])
  })

  it('keeps the last, shorter group (#31)', () => {
    expect(chunk([1, 2, 3, 4, 5], 2)).toEqual([[1, 2], [3, 4], [5]])
  })
})
