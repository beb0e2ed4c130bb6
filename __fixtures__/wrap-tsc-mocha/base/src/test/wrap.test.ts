import { strict as assert } from 'node:assert'
import { wrap } from '../index'

describe('wrap', () => {
  it('keeps an index inside the range', () => {
    assert.equal(wrap(3, 5), 3)
  })
})
