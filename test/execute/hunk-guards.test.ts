/** One hunk taken out of a fixed file, the others left fixed. */
import { withHunkReverted } from '../../src/execute/hunk-guards.js'

const base = ['a', 'b', 'c', 'd', 'e', 'f', 'g', 'h', ''].join('\n')

test('a changed line goes back to the base; the rest of the head stays', () => {
  const head = ['a', 'B', 'c', 'd', 'e', 'f', 'G', 'h', ''].join('\n')
  // Two hunks in git's terms: -2,1 +2,1 and -7,1 +7,1.
  expect(withHunkReverted(head, base, '@@ -2,1 +2,1 @@')).toBe(['a', 'b', 'c', 'd', 'e', 'f', 'G', 'h', ''].join('\n'))
  expect(withHunkReverted(head, base, '@@ -7 +7 @@ function x')).toBe(['a', 'B', 'c', 'd', 'e', 'f', 'g', 'h', ''].join('\n'))
})

test('a pure addition is removed, a pure deletion restored (a count of 0 sits after the line it names)', () => {
  const added = ['a', 'b', 'new 1', 'new 2', 'c', 'd', 'e', 'f', 'g', 'h', ''].join('\n')
  expect(withHunkReverted(added, base, '@@ -2,0 +3,2 @@')).toBe(base)
  const deleted = ['a', 'b', 'e', 'f', 'g', 'h', ''].join('\n')
  expect(withHunkReverted(deleted, base, '@@ -3,2 +2,0 @@')).toBe(base)
})

test('an added file taken out is empty; anything but a hunk header is refused', () => {
  expect(withHunkReverted('x\ny\n', '', '@@ -0,0 +1,2 @@')).toBe('')
  expect(() => withHunkReverted('x', 'y', 'not a header')).toThrow('not a hunk header')
})
