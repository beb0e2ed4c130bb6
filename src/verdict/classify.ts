/** Each test's kind from its two runs, and the overall verdict. */
import { isFailure, type ClassifiedTest, type RunResult, type TestKind, type TestResult, type TestStatus, type Verdict } from '../domain.js'
import { onlyLoadFailures, preFixFailureOf, type PreFixFailure } from './failure-kind.js'
import { matchTests, withOccurrences } from '../test-identity.js'

export function classifyTests(headRun: RunResult, preFixRun: RunResult | null): ClassifiedTest[] {
  // Each test's own result before the fix: a same-titled twin's never stands in for it (test-identity.ts).
  const preFix = matchTests(headRun.tests, preFixRun?.tests ?? [])
  const preFixFileErrors = new Map(preFixRun?.fileErrors.map((error) => [error.file, error.message]))
  return withOccurrences(headRun.tests).map((test, index) => {
    const before = preFix[index]
    // A file that could not even load before the fix (e.g. it imports what the fix added) fails there.
    const preFixStatus: TestStatus | 'missing' = before?.status ?? (preFixFileErrors.has(test.file) ? 'errored' : 'missing')
    const message = before?.message || preFixFileErrors.get(test.file) || test.message
    // How it failed there: a test a hook kept from running proves nothing (kindOf).
    const failure = preFixFailureOf(before, preFixFileErrors.get(test.file))
    const flaky = test.runs !== undefined || before?.runs !== undefined
    const kind = flaky ? 'flaky' : kindOf(test, preFixStatus, failure)
    const explained = kind === 'fail-to-pass' || (kind === 'missing-at-pre-fix' && failure?.kind === 'not-run')
    const preFixFailure = kind === 'fail-to-pass' && failure && failure.kind !== 'not-run' ? failure.kind : null
    const shown = flaky && before?.runs ? before.message : message
    const identity = { ...(test.line !== undefined && { line: test.line }), ...(test.occurrence !== undefined && { occurrence: test.occurrence }) }
    return { file: test.file, name: test.name, ...identity, head: test.status, preFix: preFixStatus, kind, flaky, message: shown, scenario: null, preFixFailure, preFixFailureLine: explained ? (failure?.line ?? null) : null }
  })
}

function kindOf(head: TestResult, preFix: TestStatus | 'missing', failure: PreFixFailure | null): TestKind {
  if (head.status === 'skipped') return 'skipped'
  if (head.status !== 'passed') return 'fails-at-head'
  // Not run before the fix (a hook or a test before it failed): no result there, so never the proof.
  if (isFailure(preFix)) return failure?.kind === 'not-run' ? 'missing-at-pre-fix' : 'fail-to-pass'
  if (preFix === 'passed') return 'pass-to-pass'
  if (preFix === 'skipped') return 'skipped'
  return 'missing-at-pre-fix'
}

/**
 * fail-to-pass: a test passes at head and fails before the fix. no-fail-to-pass: tests ran at head, and
 * none that passed there failed before the fix. error: no test could run at head at all — nothing was
 * proven either way, and the reason says why.
 */
export function decideVerdict(tests: ClassifiedTest[], headFileErrors: RunResult['fileErrors'] = []): Verdict {
  const failToPass = tests.filter((test) => test.kind === 'fail-to-pass').length
  if (failToPass > 0) return { verdict: 'fail-to-pass', reason: onlyLoadFailures(tests) ? weakProof(tests) : null, tests }
  if (tests.length === 0) {
    const reason = headFileErrors.length
      ? `no test could run at head: ${headFileErrors.length} test file(s) could not run (${headFileErrors[0].file}: ${headFileErrors[0].message.split('\n')[0]})`
      : 'no test ran at head'
    return { verdict: 'error', reason, tests }
  }
  const passing = tests.filter((test) => test.head === 'passed')
  const flaky = tests.filter((test) => test.flaky)
  const andFlaky = flaky.length ? `; ${flaky.length} flaky test(s) changed their result between runs of one tree (${flaky[0].name})` : ''
  // Passing tests that a failed hook (or a test before them) kept from running on the pre-fix tree.
  const notRun = passing.filter((test) => test.kind === 'missing-at-pre-fix' && test.preFix !== 'missing')
  const reason =
    passing.length === 0
      ? 'no test passed at head'
      : passing.every((test) => test.preFix === 'missing')
        ? `the pre-fix tree did not run them: every file of the ${passing.length} test(s) passing at head also had a test failing there`
        : notRun.length > 0
          ? `none of the ${passing.length} test(s) passing at head failed on the pre-fix tree; ${notRun.length} did not run there, a hook or a test before them failing first (${notRun[0].file}: ${notRun[0].preFixFailureLine})`
          : `none of the ${passing.length} test(s) passing at head failed on the pre-fix tree`
  return { verdict: 'no-fail-to-pass', reason: reason + andFlaky, tests }
}

/** The reason of a fail-to-pass verdict resting only on files that could not load before the fix. */
function weakProof(tests: ClassifiedTest[]): string {
  const first = tests.find((test) => test.kind === 'fail-to-pass')!
  return `weak proof: every fail-to-pass test failed before the fix only because its file could not load (${first.file}: ${first.preFixFailureLine}); no test shows the fixed behaviour failing by an assertion or an exception`
}
