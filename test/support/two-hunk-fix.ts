/**
 * A fix of two source hunks on the range-wrapper fixture: one the fix's test needs (range counting down),
 * one it does not (a refactor of `last`). For the hunk-guard tests and the bench.
 */
import type { FixtureOptions } from './fixture-repo.js'

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

export const TWO_HUNK_FIX: FixtureOptions = { baseChanges: { 'src/range.js': RANGE }, headChanges: { 'src/range.js': FIXED } }
