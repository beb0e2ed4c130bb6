/** Which test a result is: file, full title, line where the reporter gives one, and occurrence among twins. */
import { byTestKey, testKey, withOccurrences } from '../src/test-identity.js'

const result = (name: string, status: string, extra: { file?: string; line?: number } = {}) => ({ file: 'a.test.js', name, status, ...extra })

test('tests with the same file and full title are told apart by their order: the first and the second twin', () => {
  const tests = withOccurrences([result('suite › works', 'passed'), result('other', 'passed'), result('suite › works', 'failed')])
  expect(tests.map((test) => test.occurrence)).toEqual([1, undefined, 2])
  expect(testKey(tests[0])).not.toBe(testKey(tests[2]))
})

test('a test without a twin keeps its key: occurrence 1 is the same as none', () => {
  expect(testKey({ file: 'a.test.js', name: 'x' })).toBe(testKey({ file: 'a.test.js', name: 'x', occurrence: 1 }))
  expect(withOccurrences([result('x', 'passed')])[0]).toEqual(result('x', 'passed'))
})

test('the same title in another file, or at another line, is not a twin', () => {
  const tests = withOccurrences([result('x', 'passed'), result('x', 'passed', { file: 'b.test.js' }), result('y', 'passed', { line: 3 }), result('y', 'passed', { line: 9 })])
  expect(tests.map((test) => test.occurrence)).toEqual([undefined, undefined, undefined, undefined])
  expect(new Set(tests.map(testKey)).size).toBe(4)
})

test('by line, twins match across runs whatever order a shuffled run reports them in', () => {
  const first = byTestKey([result('t', 'passed', { line: 3 }), result('t', 'failed', { line: 9 })])
  const shuffled = byTestKey([result('t', 'failed', { line: 9 }), result('t', 'passed', { line: 3 })])
  for (const [key, test] of first) expect(shuffled.get(key)?.status).toBe(test.status)
})

test('twins at one line (a test defined in a loop) are told apart by their order there', () => {
  const keyed = byTestKey([result('t', 'passed', { line: 3 }), result('t', 'failed', { line: 3 })])
  expect([...keyed.values()].map((test) => test.status)).toEqual(['passed', 'failed'])
})
