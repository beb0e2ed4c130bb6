/**
 * The determinism gate: several runs of one tree, read as one. A test whose result changes between runs
 * of the same tree is flaky — it proves nothing, whichever way it went. One exception: a test that fails
 * only in the coverage run, and passes in every run without it, is changed by the instrumentation (a spy on
 * an instrumented function, a snapshot of a function's text), not flaky.
 */
import type { RunResult, TestResult, TestStatus } from '../domain.js'
import { matchTests } from '../test-identity.js'

export const FLAKY = 'flaky:'

export interface GateRuns {
  /** The runs as they are (the first one first), and shuffled where the runner can. */
  plain: RunResult[]
  /** The run that collected coverage, if any. */
  coverage?: RunResult
}

export interface CombinedRun {
  /** The first plain run's results; a flaky test fails, with its result in every run and why. */
  run: RunResult
  /** Tests that failed only with coverage collected: judged on the plain runs. */
  coverageSensitive: string[]
}

export function combineRuns({ plain, coverage }: GateRuns, where: 'at head' | 'on the pre-fix tree'): CombinedRun {
  const [first, ...others] = plain
  // Each run's result of the same test: twins (one title twice in a file) stay apart (test-identity.ts).
  const matched = others.map((run) => matchTests(first.tests, run.tests))
  const matchedWithCoverage = coverage && matchTests(first.tests, coverage.tests)
  const coverageSensitive: string[] = []
  const tests = first.tests.map((test, index): TestResult => {
    const plainResults = [test, ...matched.map((results) => results[index] ?? null)]
    const statuses: Array<TestStatus | 'missing'> = plainResults.map((result) => result?.status ?? 'missing')
    const withCoverage: TestStatus | 'missing' | null = matchedWithCoverage ? (matchedWithCoverage[index]?.status ?? 'missing') : null
    const plainAgree = statuses.every((status) => status === statuses[0])
    if (plainAgree && (withCoverage === null || withCoverage === statuses[0])) return test
    if (plainAgree && statuses[0] === 'passed') {
      coverageSensitive.push(test.name)
      return test
    }
    // In the order the runs were made: the first, the coverage run, then the others.
    const all = withCoverage === null ? statuses : [statuses[0], withCoverage, ...statuses.slice(1)]
    const runs = withCoverage === null ? plainResults : [test, matchedWithCoverage![index] ?? null, ...plainResults.slice(1)]
    return { ...test, status: 'failed', runs: all, message: flakyMessage(all, runs, where) }
  })
  return { run: { ...first, tests }, coverageSensitive }
}

/** `flaky: passed, then on run 2 at head failed: <its message>`. */
function flakyMessage(statuses: Array<TestStatus | 'missing'>, runs: Array<TestResult | null>, where: string): string {
  const changed = statuses.findIndex((status) => status !== statuses[0])
  const how = runs[changed]?.message || (statuses[changed] === 'missing' ? 'did not run' : '')
  return `${FLAKY} ${statuses[0]}, then on run ${changed + 1} ${where} ${statuses[changed]}${how ? `: ${how}` : ''}`
}

export const isFlaky = (test: TestResult) => test.runs !== undefined
