/**
 * List helpers that never spread a list into a call's arguments: `Math.min(...lines)` or `push(...items)`
 * with a long list (a generated file's 200,000 changed lines) overflows the call stack.
 */

/** Appends every item to the target, in order; returns the target. */
export function appendAll<T>(target: T[], items: readonly T[]): T[] {
  for (const item of items) target.push(item)
  return target
}

/** The smallest and largest of a non-empty list of numbers. */
export function extent(numbers: readonly number[]): { min: number; max: number } {
  let min = Infinity
  let max = -Infinity
  for (const value of numbers) {
    if (value < min) min = value
    if (value > max) max = value
  }
  return { min, max }
}
