import { strict as assert } from 'node:assert'
import { test } from 'node:test'
import { wrap } from '../src/index'

test('keeps an index inside the range', () => {
  assert.equal(wrap(3, 5), 3)
})
