import { strict as assert } from 'node:assert'
import { test } from 'node:test'
import { wrap } from '../src/index'

test('keeps an index inside the range', () => {
  assert.equal(wrap(3, 5), 3)
})

test('wraps an index one past the end to 0 (#7)', () => {
  assert.equal(wrap(5, 5), 0)
})
