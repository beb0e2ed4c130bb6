import t from 'tap'
import { pageCount, pageOf } from '../src/index.js'

t.test('pageCount', async (t) => {
  t.test('an exact multiple fills whole pages', async (t) => {
    t.equal(pageCount(20, 10), 2)
  })
  t.test('no items make no pages', async (t) => {
    t.equal(pageCount(0, 10), 0)
  })
  t.test('perPage must be positive', async (t) => {
    t.throws(() => pageCount(5, 0), RangeError)
  })
})

t.test('pageOf gives the items of a page', async (t) => {
  t.same(pageOf([1, 2, 3, 4, 5], 2, 2), [3, 4])
})
