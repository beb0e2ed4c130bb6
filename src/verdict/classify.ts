/** Each test's kind from its two runs, and the overall verdict. */
import { isFailure, type ClassifiedTest, type RunResult, type TestKind, type TestResult, type TestStatus, type Verdict } from '../domain.js'

const key = (test: { file: string; name: string }) => `${test.file}\u0000${test.name}`

export function classifyTests(headRun: RunResult, preFixRun: RunResult | null): ClassifiedTest[] {
  const preFix = new Map(preFixRun?.tests.map((test) => [key(test), test]))
  const preFixFileErrors = new Map(preFixRun?.fileErrors.map((error) => [error.file, error.message]))
  return headRun.tests.map((test) => {
    const before = preFix.get(key(test))
    // A file that could not even load before the fix (e.g. it imports what the fix added) fails there.
    const preFixStatus: TestStatus | 'missing' = before?.status ?? (preFixFileErrors.has(test.file) ? 'errored' : 'missing')
    const message = before?.message || preFixFileErrors.get(test.file) || test.message
    return { file: test.file, name: test.name, head: test.status, preFix: preFixStatus, kind: kindOf(test, preFixStatus), message, scenario: null }
  })
}

function kindOf(head: TestResult, preFix: TestStatus | 'missing'): TestKind {
  if (head.status === 'skipped') return 'skipped'
  if (head.status !== 'passed') return 'fails-at-head'
  if (isFailure(preFix)) return 'fail-to-pass'
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
  if (failToPass > 0) return { verdict: 'fail-to-pass', reason: null, tests }
  if (tests.length === 0) {
    const reason = headFileErrors.length
      ? `no test could run at head: ${headFileErrors.length} test file(s) could not run (${headFileErrors[0].file}: ${headFileErrors[0].message.split('\n')[0]})`
      : 'no test ran at head'
    return { verdict: 'error', reason, tests }
  }
  const passing = tests.filter((test) => test.head === 'passed')
  const reason =
    passing.length === 0
      ? 'no test passed at head'
      : passing.every((test) => test.preFix === 'missing')
        ? `the pre-fix tree did not run them: every file of the ${passing.length} test(s) passing at head also had a test failing there`
        : `none of the ${passing.length} test(s) passing at head failed on the pre-fix tree`
  return { verdict: 'no-fail-to-pass', reason, tests }
}
