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
  /** Set on twins only: 1 for the first test with this file, title and line, 2 for the next. */
  occurrence?: number
}

/**
 * For each test of `reference`, the same test in `other` (another run of the same files), or undefined
 * where it did not run there. Lines tell twins apart (whatever order a shuffled run reports them in) when
 * both runs give every test one; else their order does (a runner too old to give lines, in one tree).
 */
export function matchTests<T extends TestIdentity>(reference: readonly TestIdentity[], other: readonly T[]): Array<T | undefined> {
  const byLine = [...reference, ...other].every((test) => test.line !== undefined)
  const otherKeys = keysOf(other, byLine)
  const found = new Map(other.map((test, index) => [otherKeys[index], test]))
  return keysOf(reference, byLine).map((key) => found.get(key))
}

/** The tests, each twin with its occurrence (1, 2, … in the given order); a test without a twin as it is. */
export function withOccurrences<T extends TestIdentity>(tests: readonly T[]): Array<T & { occurrence?: number }> {
  const twinKeys = tests.map((test) => twinKey(test, true))
  const counts = new Map<string, number>()
  for (const key of twinKeys) counts.set(key, (counts.get(key) ?? 0) + 1)
  const seen = new Map<string, number>()
  return tests.map((test, index) => {
    const key = twinKeys[index]
    if (counts.get(key)! < 2) return test
    const occurrence = (seen.get(key) ?? 0) + 1
    seen.set(key, occurrence)
    return { ...test, occurrence }
  })
}

/**
 * A test's key from what it carries: file, title, line and occurrence (set on twins by withOccurrences) —
 * for results kept apart from their run's order (a report's tests, in any order).
 */
export const identityKey = (test: TestIdentity): string => `${twinKey(test, true)}\u0000${test.occurrence ?? 1}`

/** What a test shares with its twins: file, full title and, when lines count, its line. */
const twinKey = (test: TestIdentity, byLine: boolean): string => [test.file, test.name, byLine ? (test.line ?? '') : ''].join('\u0000')

/** Each test's key: what it shares with its twins, and which of them it is in this run's order. */
function keysOf(tests: readonly TestIdentity[], byLine: boolean): string[] {
  const seen = new Map<string, number>()
  return tests.map((test) => {
    const twin = twinKey(test, byLine)
    const occurrence = (seen.get(twin) ?? 0) + 1
    seen.set(twin, occurrence)
    return `${twin}\u0000${occurrence}`
  })
}
