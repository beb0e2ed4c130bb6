/** Which test a result is: file, full title, line where the reporter gives one, and occurrence among twins. */
import { identityKey, matchTests, withOccurrences } from '../src/test-identity.js'

const result = (name: string, status: string, extra: { file?: string; line?: number } = {}) => ({ file: 'a.test.js', name, status, ...extra })
const statuses = (tests: Array<{ status: string } | undefined>) => tests.map((test) => test?.status)

test('tests with the same file and full title are numbered in order; a test without a twin is left as it is', () => {
  const tests = withOccurrences([result('suite › works', 'passed'), result('other', 'passed'), result('suite › works', 'failed')])
  expect(tests.map((test) => test.occurrence)).toEqual([1, undefined, 2])
  expect(tests[1]).toEqual(result('other', 'passed'))
  expect(identityKey(tests[0])).not.toBe(identityKey(tests[2]))
})

test('the same title in another file, or at another line, is not a twin', () => {
  const tests = withOccurrences([result('x', 'passed'), result('x', 'passed', { file: 'b.test.js' }), result('y', 'passed', { line: 3 }), result('y', 'passed', { line: 9 })])
  expect(tests.map((test) => test.occurrence)).toEqual([undefined, undefined, undefined, undefined])
  expect(new Set(tests.map(identityKey)).size).toBe(4)
})

test('twins are matched one with one across runs, by their order: a twin\'s result never stands in for the other', () => {
  const head = [result('t', 'passed'), result('t', 'passed')]
  expect(statuses(matchTests(head, [result('t', 'failed'), result('t', 'passed')]))).toEqual(['failed', 'passed'])
  expect(statuses(matchTests(head, [result('t', 'passed'), result('t', 'failed')]))).toEqual(['passed', 'failed'])
  // A twin that did not run there is missing, not its sibling's result.
  expect(statuses(matchTests(head, [result('t', 'failed')]))).toEqual(['failed', undefined])
})

test('by line, twins match whatever order a shuffled run reports them in', () => {
  const first = [result('t', 'passed', { line: 3 }), result('t', 'failed', { line: 9 })]
  expect(statuses(matchTests(first, [result('t', 'failed', { line: 9 }), result('t', 'passed', { line: 3 })]))).toEqual(['passed', 'failed'])
  // Twins at one line (a test defined in a loop): by their order there.
  expect(statuses(matchTests([result('t', 'x', { line: 3 }), result('t', 'y', { line: 3 })], [result('t', 'passed', { line: 3 }), result('t', 'failed', { line: 3 })]))).toEqual(['passed', 'failed'])
})

test('a run without lines (a runner too old to give them, in one tree) is matched by order, not lost', () => {
  const head = [result('a', 'passed', { line: 3 }), result('t', 'passed', { line: 5 }), result('t', 'passed', { line: 9 })]
  expect(statuses(matchTests(head, [result('a', 'passed'), result('t', 'failed'), result('t', 'passed')]))).toEqual(['passed', 'failed', 'passed'])
})
