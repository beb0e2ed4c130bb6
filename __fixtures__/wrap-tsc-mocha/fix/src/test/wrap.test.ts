import { strict as assert } from 'node:assert'
import { wrap } from '../index'

describe('wrap', () => {
  it('keeps an index inside the range', () => {
    assert.equal(wrap(3, 5), 3)
  })

  it('wraps an index one past the end to 0 (#7)', () => {
    assert.equal(wrap(5, 5), 0)
  })
})
