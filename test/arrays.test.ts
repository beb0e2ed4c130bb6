import { appendAll, extent } from '../src/arrays.js'

// Far past what a call's arguments can hold: spreading a list this long overflows the stack.
const LONG = 500_000

test('extent: the smallest and largest of a list too long to spread into Math.min', () => {
  const lines = Array.from({ length: LONG }, (_, index) => LONG - index)
  expect(() => Math.min(...lines)).toThrow(RangeError)
  expect(extent(lines)).toEqual({ min: 1, max: LONG })
  expect(extent([7])).toEqual({ min: 7, max: 7 })
})

test('appendAll: appends a list too long to spread into push, in order', () => {
  const target = ['first']
  const items = Array.from({ length: LONG }, (_, index) => `item ${index}`)
  expect(() => [].push(...(items as never[]))).toThrow(RangeError)
  expect(appendAll(target, items)).toBe(target)
  expect(target).toHaveLength(LONG + 1)
  expect([target[0], target[1], target[LONG]]).toEqual(['first', 'item 0', `item ${LONG - 1}`])
})
