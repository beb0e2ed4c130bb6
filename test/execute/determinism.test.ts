/** Several runs of one tree read as one: flaky tests, and tests only the coverage run changes. */
import type { RunResult, TestResult } from '../../src/domain.js'
import { combineRuns, isFlaky } from '../../src/execute/determinism.js'

const test_ = (name: string, status: TestResult['status'], message = ''): TestResult => ({ file: 'a.test.js', name, status, durationMs: 1, message })
const run = (...tests: TestResult[]): RunResult => ({ tests, fileErrors: [], exitCode: 0, timedOut: false, durationMs: 1, output: '' })

test('a test whose result changes between plain runs is flaky: it fails, with each run\'s result and the first change', () => {
  const { run: combined } = combineRuns({ plain: [run(test_('steady', 'passed'), test_('wobbly', 'passed')), run(test_('steady', 'passed'), test_('wobbly', 'failed', 'expected 1, got 2'))] }, 'at head')
  expect(combined.tests[0]).toEqual(test_('steady', 'passed'))
  expect(combined.tests[1]).toMatchObject({ status: 'failed', runs: ['passed', 'failed'], message: 'flaky: passed, then on run 2 at head failed: expected 1, got 2' })
  expect(combined.tests.map(isFlaky)).toEqual([false, true])
})

test('a test missing from a later run is flaky too', () => {
  const { run: combined } = combineRuns({ plain: [run(test_('gone', 'failed', 'boom')), run()] }, 'on the pre-fix tree')
  expect(combined.tests[0]).toMatchObject({ runs: ['failed', 'missing'], message: 'flaky: failed, then on run 2 on the pre-fix tree missing: did not run' })
})

test('failing only in the coverage run, passing in every plain one: judged on the plain runs, not flaky', () => {
  const plain = [run(test_('spy', 'passed')), run(test_('spy', 'passed'))]
  const { run: combined, coverageSensitive } = combineRuns({ plain, coverage: run(test_('spy', 'failed', 'called 0 times')) }, 'at head')
  expect(combined.tests).toEqual([test_('spy', 'passed')])
  expect(coverageSensitive).toEqual(['spy'])
  // With a plain run that disagrees as well, it is flaky; the coverage run is counted in order, as run 2.
  const { run: flaky } = combineRuns({ plain: [run(test_('spy', 'passed')), run(test_('spy', 'failed', 'x'))], coverage: run(test_('spy', 'failed', 'called 0 times')) }, 'at head')
  expect(flaky.tests[0]).toMatchObject({ runs: ['passed', 'failed', 'failed'], message: 'flaky: passed, then on run 2 at head failed: called 0 times' })
})

test('twins (the same full title twice in a file) are matched run by run, one with one: the steady failure of one is not hidden by the other, nor made flaky', () => {
  const twins = () => run(test_('copied › works', 'passed'), test_('copied › works', 'failed', 'expected 1, got 2'))
  const { run: combined } = combineRuns({ plain: [twins(), twins()] }, 'on the pre-fix tree')
  expect(combined.tests.map((test) => [test.status, isFlaky(test)])).toEqual([
    ['passed', false],
    ['failed', false]
  ])
  // A twin that does change between runs is flaky alone.
  const changed = run(test_('copied › works', 'passed'), test_('copied › works', 'passed'))
  const { run: wobbly } = combineRuns({ plain: [twins(), changed] }, 'on the pre-fix tree')
  expect(wobbly.tests.map(isFlaky)).toEqual([false, true])
})

test('twins with their lines match across a shuffled run that reports them in another order', () => {
  const at = (line: number, status: TestResult['status']): TestResult => ({ ...test_('same', status), line })
  const { run: combined } = combineRuns({ plain: [run(at(3, 'passed'), at(9, 'failed')), run(at(9, 'failed'), at(3, 'passed'))] }, 'on the pre-fix tree')
  expect(combined.tests.map((test) => [test.line, test.status, isFlaky(test)])).toEqual([
    [3, 'passed', false],
    [9, 'failed', false]
  ])
})
