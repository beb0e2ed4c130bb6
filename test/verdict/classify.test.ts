import type { RunResult, TestResult } from '../../src/domain.js'
import { classifyTests, decideVerdict } from '../../src/verdict/classify.js'

const result = (name: string, status: TestResult['status'], file = 't.test.ts'): TestResult => ({ file, name, status, durationMs: 1, message: status === 'passed' ? '' : `${name} broke` })
const run = (tests: TestResult[], fileErrors: RunResult['fileErrors'] = []): RunResult => ({ tests, fileErrors, exitCode: 0, timedOut: false, durationMs: 1, output: '' })

test('each test gets its kind from its two runs', () => {
  const head = run([result('a', 'passed'), result('b', 'passed'), result('c', 'failed'), result('d', 'skipped'), result('e', 'passed'), result('x', 'passed', 'other.test.ts')])
  const preFix = run([result('a', 'failed'), result('b', 'passed'), result('c', 'failed'), result('d', 'skipped')], [{ file: 'other.test.ts', message: 'Cannot find export' }])
  const kinds = classifyTests(head, preFix).map((t) => [t.name, t.kind, t.preFix])
  expect(kinds).toEqual([
    ['a', 'fail-to-pass', 'failed'],
    ['b', 'pass-to-pass', 'passed'],
    ['c', 'fails-at-head', 'failed'],
    ['d', 'skipped', 'skipped'],
    ['e', 'missing-at-pre-fix', 'missing'],
    ['x', 'fail-to-pass', 'errored']
  ])
})

test('the verdict needs one fail-to-pass test, and says why not', () => {
  expect(decideVerdict(classifyTests(run([result('a', 'passed')]), run([result('a', 'failed')]))).verdict).toBe('fail-to-pass')
  const none = decideVerdict(classifyTests(run([result('a', 'passed')]), run([result('a', 'passed')])))
  expect(none).toMatchObject({ verdict: 'no-fail-to-pass', reason: 'none of the 1 test(s) passing at head failed on the pre-fix tree' })
  expect(decideVerdict(classifyTests(run([result('a', 'failed')]), null)).reason).toBe('no test passed at head')
  // Passing tests whose files were all left out: the pre-fix tree never ran them, and the reason says so.
  expect(decideVerdict(classifyTests(run([result('a', 'passed'), result('b', 'failed')]), null)).reason).toBe(
    'the pre-fix tree did not run them: every file of the 1 test(s) passing at head also had a test failing there'
  )
  // No test could run at head: nothing was proven either way, so it is an error, not a missing proof.
  expect(decideVerdict([])).toMatchObject({ verdict: 'error', reason: 'no test ran at head' })
  expect(decideVerdict([], [{ file: 'test/a.test.js', message: 'Cannot find module ../src/a\nRequire stack:' }])).toMatchObject({
    verdict: 'error',
    reason: 'no test could run at head: 1 test file(s) could not run (test/a.test.js: Cannot find module ../src/a)'
  })
})
