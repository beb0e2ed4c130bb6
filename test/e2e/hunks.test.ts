/**
 * Which test guards which hunk: a fix of two source hunks, one the fix's test needs (range counting down)
 * and one it does not (a refactor of `last`). Each hunk is taken out alone in a tree of its own, where the
 * fail-to-pass tests run again.
 */
import { runCliOnFixture } from '../support/cli-run.js'

const RANGE = `/** The numbers from start up to (not including) end, step apart, like Python's range. */
function range(start, end, step = 1) {
  if (step === 0) throw new RangeError('step must not be 0')
  const numbers = []
  for (let value = start; value < end; value += step) numbers.push(value)
  return numbers
}

/** The first number of the range, or undefined when it is empty. */
function first(start, end, step = 1) {
  return range(start, end, step)[0]
}

/** The last number of the range, or undefined when it is empty. */
function last(start, end, step = 1) {
  const numbers = range(start, end, step)
  return numbers[numbers.length - 1]
}

module.exports = { range, first, last }
`
const FIXED = RANGE.replace(
  '  for (let value = start; value < end; value += step) numbers.push(value)',
  '  const before = step > 0 ? (value) => value < end : (value) => value > end\n  for (let value = start; before(value); value += step) numbers.push(value)'
).replace('  const numbers = range(start, end, step)\n  return numbers[numbers.length - 1]', '  const numbers = range(start, end, step)\n  return numbers.length > 0 ? numbers[numbers.length - 1] : undefined')

test('verify: one hunk is guarded by the fix\'s test, the other by none', async () => {
  const run = await runCliOnFixture({ fixture: 'range-wrapper', fixtureOptions: { baseChanges: { 'src/range.js': RANGE }, headChanges: { 'src/range.js': FIXED } } })
  expect(run.report.verdict).toBe('fail-to-pass')
  expect(run.report.hunks).toEqual([
    { file: 'src/range.js', startLine: 5, endLine: 6, guardedBy: ['range › counts down with a negative step (#7)'] },
    { file: 'src/range.js', startLine: 18, endLine: 18, guardedBy: [] }
  ])
  expect(run.log).toContain('warning: No test fails with 1 hunk(s) of the fix taken out alone: src/range.js:18-18')
  expect(run.log.some((line) => /^Run \d+ with hunk 1 of 2 taken out \(src\/range\.js:5-6\): 3 passed, 1 failed/.test(line))).toBe(true)
  expect(run.markdown).toMatch(/## Which test guards which hunk/)
})
