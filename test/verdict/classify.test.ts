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

describe('how each test failed before the fix', () => {
  const failing = (name: string, status: TestResult['status'], message: string, file = 't.test.ts'): TestResult => ({ file, name, status, durationMs: 1, message })

  it('gives a fail-to-pass test its pre-fix failure and first line; a test a hook kept from running is never fail-to-pass', () => {
    const head = run(['expects', 'throws', 'hooked', 'loads', 'passes', 'broken at head'].map((name) => result(name, name === 'broken at head' ? 'failed' : 'passed')).concat(result('imports', 'passed', 'new.test.ts')))
    const preFix = run(
      [
        failing('expects', 'failed', 'AssertionError: expected 3 to be 4 // Object.is equality\n    at test/t.test.ts:5:20'),
        failing('throws', 'failed', "TypeError: Cannot read properties of undefined (reading 'x')\n    at src/a.ts:3:9"),
        // mocha --fail-hook-affected-tests: reported failed without a duration, so errored.
        failing('hooked', 'errored', 'Test skipped due to failure in hook ""before each" hook for "hooked"": budget exhausted\nRetryBudgetExhaustedError: budget exhausted'),
        failing('loads', 'failed', "TypeError: (0 , retry_budget_1.withBudget) is not a function\n    at Object.<anonymous> (test/t.test.ts:4:5)"),
        result('passes', 'passed'),
        failing('broken at head', 'failed', 'AssertionError: nope')
      ],
      [{ file: 'new.test.ts', message: "● Test suite failed to run\n\n    Cannot find module '../src/budget' from 'test/new.test.ts'" }]
    )
    const tests = classifyTests(head, preFix)
    expect(tests.map((t) => [t.name, t.kind, t.preFix, t.preFixFailure, t.preFixFailureLine])).toEqual([
      ['expects', 'fail-to-pass', 'failed', 'assertion', 'AssertionError: expected 3 to be 4 // Object.is equality'],
      ['throws', 'fail-to-pass', 'failed', 'exception', "TypeError: Cannot read properties of undefined (reading 'x')"],
      ['hooked', 'missing-at-pre-fix', 'errored', null, 'Test skipped due to failure in hook "before each" hook for "hooked": budget exhausted'],
      ['loads', 'fail-to-pass', 'failed', 'load', 'TypeError: (0 , retry_budget_1.withBudget) is not a function'],
      ['passes', 'pass-to-pass', 'passed', null, null],
      ['broken at head', 'fails-at-head', 'failed', null, null],
      ['imports', 'fail-to-pass', 'errored', 'load', "Cannot find module '../src/budget' from 'test/new.test.ts'"]
    ])
    expect(decideVerdict(tests)).toMatchObject({ verdict: 'fail-to-pass', reason: null })
  })

  it('calls a proof resting only on files that could not load weak, and says why a test a hook kept from running proves nothing', () => {
    const loadOnly = classifyTests(run([result('imports', 'passed', 'new.test.ts'), result('b', 'passed')]), run([result('b', 'passed')], [{ file: 'new.test.ts', message: "Cannot find module '../src/budget' from 'test/new.test.ts'" }]))
    expect(decideVerdict(loadOnly)).toEqual({
      verdict: 'fail-to-pass',
      reason:
        "weak proof: every fail-to-pass test failed before the fix only because its file could not load (new.test.ts: Cannot find module '../src/budget' from 'test/new.test.ts'); no test shows the fixed behaviour failing by an assertion or an exception",
      tests: loadOnly
    })
    // Once, a failed hook made a passing test fail-to-pass; now it did not run, so nothing is proven.
    const hookOnly = classifyTests(run([result('a', 'passed'), result('b', 'passed')]), run([failing('a', 'errored', 'failed running beforeEach hook\nTypeError [Error]: setup broke'), result('b', 'passed')]))
    expect(decideVerdict(hookOnly)).toMatchObject({
      verdict: 'no-fail-to-pass',
      reason: 'none of the 2 test(s) passing at head failed on the pre-fix tree; 1 did not run there, a hook or a test before them failing first (t.test.ts: failed running beforeEach hook: TypeError [Error]: setup broke)'
    })
  })
})

test('no-fail-to-pass names the flaky tests it did not count', () => {
  const headRun = run([{ file: 'a.test.js', name: 'steady', status: 'passed', durationMs: 1, message: '' }, { file: 'a.test.js', name: 'wobbly', status: 'passed', durationMs: 1, message: '' }])
  const preFixRun = run([
    { file: 'a.test.js', name: 'steady', status: 'passed', durationMs: 1, message: '' },
    { file: 'a.test.js', name: 'wobbly', status: 'failed', durationMs: 1, message: 'flaky: failed, then on run 2 on the pre-fix tree passed', runs: ['failed', 'passed'] }
  ])
  const tests = classifyTests(headRun, preFixRun)
  expect(tests.map((test) => [test.name, test.kind, test.flaky])).toEqual([['steady', 'pass-to-pass', false], ['wobbly', 'flaky', true]])
  expect(decideVerdict(tests)).toMatchObject({ verdict: 'no-fail-to-pass', reason: 'none of the 2 test(s) passing at head failed on the pre-fix tree; 1 flaky test(s) changed their result between runs of one tree (wobbly)' })
})

test('two tests with the same full title are two tests: the twin that fails before the fix is fail-to-pass, whatever the other did', () => {
  const head = run([result('copied › parses', 'passed'), result('copied › parses', 'passed')])
  const preFix = run([result('copied › parses', 'passed'), result('copied › parses', 'failed')])
  const tests = classifyTests(head, preFix)
  expect(tests.map((t) => [t.kind, t.occurrence])).toEqual([
    ['pass-to-pass', 1],
    ['fail-to-pass', 2]
  ])
  expect(decideVerdict(tests).verdict).toBe('fail-to-pass')
  // The failing twin first: the same, the order is the reporter's in both trees.
  const failingFirst = classifyTests(head, run([result('copied › parses', 'failed'), result('copied › parses', 'passed')]))
  expect(failingFirst.map((t) => t.kind)).toEqual(['fail-to-pass', 'pass-to-pass'])
})

test('twins with their lines are matched by line, and the report keeps the line', () => {
  const at = (line: number, status: TestResult['status']): TestResult => ({ ...result('same', status), line })
  const tests = classifyTests(run([at(4, 'passed'), at(12, 'passed')]), run([at(12, 'failed'), at(4, 'passed')]))
  expect(tests.map((t) => [t.line, t.kind, t.occurrence])).toEqual([
    [4, 'pass-to-pass', undefined],
    [12, 'fail-to-pass', undefined]
  ])
})
