/**
 * Which test a result is: its file, its full title, its line where the reporter gives one, and its
 * occurrence — the n-th test with that file, title (and line) in the reporter's order. A file may define two
 * tests with the same full title (copied `describe` blocks, a loop): they are two tests, never one, so a
 * twin's pass cannot hide a failure. The one place that says when two results are the same test.
 */

export interface TestIdentity {
  file: string
  name: string
  /** The line that defines the test, where the reporter gives it (jest, vitest). */
  line?: number
  /** 1 for the first test with this file, title and line; 2 for its twin; absent: 1. */
  occurrence?: number
}

export const testKey = (test: TestIdentity): string => [twinKey(test), test.occurrence ?? 1].join('\u0000')

/** What a test shares with its twins: file, full title and line. */
const twinKey = (test: TestIdentity): string => [test.file, test.name, test.line ?? ''].join('\u0000')

/**
 * The tests, each twin with its occurrence (1, 2, … in the given order: the reporter's); a test without a
 * twin is left as it is (occurrence 1).
 */
export function withOccurrences<T extends TestIdentity>(tests: readonly T[]): Array<T & { occurrence?: number }> {
  const counts = new Map<string, number>()
  for (const test of tests) counts.set(twinKey(test), (counts.get(twinKey(test)) ?? 0) + 1)
  const seen = new Map<string, number>()
  return tests.map((test) => {
    if (counts.get(twinKey(test))! < 2) return test
    const occurrence = (seen.get(twinKey(test)) ?? 0) + 1
    seen.set(twinKey(test), occurrence)
    return { ...test, occurrence }
  })
}

/** One run's tests by key, twins apart. */
export function byTestKey<T extends TestIdentity>(tests: readonly T[]): Map<string, T> {
  return new Map(withOccurrences(tests).map((test) => [testKey(test), test]))
}
