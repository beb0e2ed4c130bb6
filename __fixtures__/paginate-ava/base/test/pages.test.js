import test from 'ava'
import { pageCount, pageOf } from '../src/index.js'

test('an exact multiple fills whole pages', (t) => {
  t.is(pageCount(20, 10), 2)
})

test('no items make no pages', (t) => {
  t.is(pageCount(0, 10), 0)
})

test('perPage must be positive', (t) => {
  t.throws(() => pageCount(5, 0), { instanceOf: RangeError })
})

test('pageOf gives the items of a page', (t) => {
  t.deepEqual(pageOf([1, 2, 3, 4, 5], 2, 2), [3, 4])
})
