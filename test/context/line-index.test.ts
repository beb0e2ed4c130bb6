import { LineIndex, MinTree } from '../../src/context/line-index.js'

/** Deterministic pseudo-random integers below `bound`. */
function randoms(seed: number) {
  let state = seed
  return (bound: number) => {
    state = (state * 1_103_515_245 + 12_345) % 2_147_483_648
    return state % bound
  }
}

test('MinTree finds the first index from a point, and the last up to one, whose value is at most a limit', () => {
  const random = randoms(42)
  for (let round = 0; round < 200; round++) {
    const values = Array.from({ length: 1 + random(70) }, () => random(20) - 10)
    const tree = new MinTree(values)
    const at = random(values.length + 2) - 1
    const limit = random(24) - 12
    const first = values.findIndex((value, i) => i >= at && value <= limit)
    const last = values.reduce((found, value, i) => (i <= at && value <= limit ? i : found), -1)
    expect([tree.firstAtMost(at, limit), tree.lastAtMost(at, limit)]).toEqual([first, last])
  }
})

test('the innermost block around a line: braces, indentation, and none outside any declaration', () => {
  const index = new LineIndex(['const a = 1', 'function outer() {', '  function inner() {', '    return 1', '  }', '  return inner', '}', 'def py(x):', '    return x', '', 'done = 1'].join('\n'))
  expect(index.enclosing(3)).toEqual({ name: 'inner', start: 2, end: 4 })
  expect(index.enclosing(5)).toEqual({ name: 'outer', start: 1, end: 6 })
  expect(index.enclosing(8)).toEqual({ name: 'py', start: 7, end: 8 })
  expect(index.enclosing(0)).toBeNull()
  expect(index.enclosing(10)).toBeNull()
})

test("a range's size counts its characters and the line breaks between them", () => {
  const index = new LineIndex('ab\ncde\n\nf')
  expect([index.size(0, 0), index.size(0, 1), index.size(1, 3), index.size(2, 1)]).toEqual([2, 6, 6, 0])
  expect(index.size(0, 3)).toBe('ab\ncde\n\nf'.length)
})
