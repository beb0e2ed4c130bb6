/** Fix concerns judged by their tests' results at head, and how they are reported: unit by unit. */
import { mkdtemp, readdir, readFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import type { BugReport, ChangeSet, FixConcern, RunResult, SuiteFile, TestResult } from '../../src/domain.js'
import { regressionFileName, suiteStem } from '../../src/context/test-layout.js'
import { judgeConcerns, withPreFixResults, type ConfirmedConcern } from '../../src/execute/concerns.js'
import { annotationsFor } from '../../src/github/annotations.js'
import { concernTestProblems } from '../../src/model/stages.js'
import { exitCodeFor } from '../../src/pipeline.js'
import { renderMarkdown } from '../../src/report/markdown.js'
import { emptyReport } from '../../src/report/report.js'
import { writeReport } from '../../src/report/write.js'
import { concernsPathFor } from '../../src/suite/generate.js'

const FILE = 'test/regression/fix-concerns.test.js'
const concern = (input: string): FixConcern => ({ input, expected: 'a RangeError', actual: 'returns []', where: { file: 'src/range.js', function: 'range' } })
const concerns = ['range(0, 5, NaN)', 'range(0, 5, Infinity)', 'range(5, 0, -2)', 'range(0, 1, 0.1)', 'range(1, 2)'].map(concern)
const files: SuiteFile[] = [{ path: FILE, content: '…', tests: concerns.map((_, index) => ({ title: `concern ${index + 1}: title ${index + 1}`, scenario: `concern ${index + 1}` })) }]
const result = (index: number, status: TestResult['status'], message = ''): TestResult => ({ file: FILE, name: `fix concerns › concern ${index}: title ${index}`, status, durationMs: 1, message })
const run = (tests: TestResult[], fileErrors: RunResult['fileErrors'] = []): RunResult => ({ tests, fileErrors, exitCode: 1, timedOut: false, durationMs: 10, output: '' })

function lines(): { log: string[]; logger: { info: (m: string) => void; warn: (m: string) => void; error: (m: string) => void; debug: () => void } } {
  const log: string[] = []
  return { log, logger: { info: (m) => log.push(m), warn: (m) => log.push(`warning: ${m}`), error: (m) => log.push(`error: ${m}`), debug: () => {} } }
}

test('a concern stands only when its test fails at head by an assertion or an exception', () => {
  const { log, logger } = lines()
  const headRun = run([
    result(1, 'failed', 'expect(received).toThrow(expected)\n\nExpected constructor: RangeError\n\nReceived function did not throw\n    at Object.<anonymous> (x.js:3:5)'),
    result(2, 'failed', "TypeError: Cannot read properties of undefined (reading 'length')\n    at range (src/range.js:4:3)"),
    result(3, 'passed'),
    result(4, 'failed', 'thrown: "Exceeded timeout of 5000 ms for a test."')
    // concern 5: no result at all
  ])
  const checked = judgeConcerns(concerns, files, headRun, logger)
  expect(checked.confirmed).toEqual([
    { ...concerns[0], test: { path: FILE, name: 'fix concerns › concern 1: title 1' }, failure: 'assertion', failureLine: expect.stringMatching(/^expect\(received\)\.toThrow\(expected\)/), preFixResult: null },
    { ...concerns[1], test: { path: FILE, name: 'fix concerns › concern 2: title 2' }, failure: 'exception', failureLine: "TypeError: Cannot read properties of undefined (reading 'length')", preFixResult: null }
  ] satisfies ConfirmedConcern[])
  expect(checked.files).toEqual(files)
  expect(log.slice(2)).toEqual([
    'Fix concern 3 (range(5, 0, -2)) dropped: its test passes at head, so the fixed code handles it',
    expect.stringMatching(/^Fix concern 4 \(range\(0, 1, 0\.1\)\) dropped: its test failed at head by timeout, not on the behaviour \(/),
    'Fix concern 5 (range(1, 2)) dropped: its test did not run at head'
  ])
})

test('a file that cannot load confirms none of its concerns; a test is found by its label when its title differs', () => {
  const { log, logger } = lines()
  const loadFailure = judgeConcerns(concerns.slice(0, 1), files, run([], [{ file: FILE, message: "Cannot find module '../range' from 'test/regression/fix-concerns.test.js'" }]), logger)
  expect(loadFailure).toEqual({ confirmed: [], files: [] })
  expect(log).toEqual([expect.stringMatching(/^Fix concern 1 \(range\(0, 5, NaN\)\) dropped: its test failed at head by load, not on the behaviour \(Cannot find module '\.\.\/range'/)])

  const renamed = run([{ ...result(1, 'failed', 'AssertionError [ERR_ASSERTION]: Expected values to be strictly equal'), name: 'Concern 1 — NaN step throws' }])
  expect(judgeConcerns(concerns.slice(0, 1), files, renamed, lines().logger).confirmed).toEqual([expect.objectContaining({ failure: 'assertion', test: { path: FILE, name: 'Concern 1 — NaN step throws' } })])
})

test("a concern test whose result changed between its two runs at head confirms nothing", () => {
  const { log, logger } = lines()
  const wobbly = run([{ ...result(1, 'failed', 'flaky: failed, then on run 2 at head passed'), runs: ['failed', 'passed'] }])
  expect(judgeConcerns(concerns.slice(0, 1), files, wobbly, logger)).toEqual({ confirmed: [], files: [] })
  expect(log).toEqual(['Fix concern 1 (range(0, 5, NaN)) dropped: its test changed its result between runs at head (failed, passed)'])
})

test('the concerns answer must list one test per concern, each naming its concern', () => {
  expect(concernTestProblems(files, 5)).toEqual([])
  expect(concernTestProblems([{ ...files[0], tests: [{ title: 't', scenario: 'NaN step' }] }], 2)).toEqual([
    'the test "t" names "NaN step" as its scenario: use one of concern 1, concern 2',
    'no test is listed for concern 1',
    'no test is listed for concern 2'
  ])
})

test('the concern tests sit beside the suite file', () => {
  expect(concernsPathFor('src/regression/issue-7.spec.js', '.spec.js')).toBe('src/regression/issue-7-concerns.spec.js')
  expect(concernsPathFor('tests/regression/test_fix_abc1234.py', '.py')).toBe('tests/regression/test_fix_abc1234_concerns.py')
})

test('on-fix-concern: warn leaves the exit code to the verdict; fail makes confirmed concerns exit 1, never over an error', () => {
  expect(exitCodeFor('fail-to-pass', 'fail')).toBe(0)
  expect(exitCodeFor('fail-to-pass', 'fail', { fixConcerns: 2, onFixConcern: 'warn' })).toBe(0)
  expect(exitCodeFor('fail-to-pass', 'fail', { fixConcerns: 2, onFixConcern: 'fail' })).toBe(1)
  expect(exitCodeFor('fail-to-pass', 'fail', { fixConcerns: 0, onFixConcern: 'fail' })).toBe(0)
  expect(exitCodeFor('no-fail-to-pass', 'warn', { fixConcerns: 1, onFixConcern: 'fail' })).toBe(1)
  expect(exitCodeFor('no-fail-to-pass', 'warn', { fixConcerns: 1, onFixConcern: 'warn' })).toBe(0)
  expect(exitCodeFor('error', 'warn', { fixConcerns: 1, onFixConcern: 'fail' })).toBe(2)
})

const confirmed: ConfirmedConcern = { ...concerns[0], test: { path: FILE, name: 'fix concerns › concern 1: title 1' }, failure: 'assertion', failureLine: 'expect(received).toThrow(expected) Received function did not throw', preFixResult: 'failed' }

test('each confirmed concern gets its test\'s result on the pre-fix tree: passed there is an input the fix broke', () => {
  const { log, logger } = lines()
  const atHead = [1, 2, 3].map((index): ConfirmedConcern => ({ ...concerns[index - 1], test: { path: FILE, name: result(index, 'failed').name }, failure: 'assertion', failureLine: 'x', preFixResult: null }))
  const preFixRun = run([result(1, 'passed'), result(2, 'failed', 'expected [] got [0]')], [])
  expect(withPreFixResults(concerns, atHead, preFixRun, logger).map((concern) => concern.preFixResult)).toEqual(['passed', 'failed', null])
  expect(log).toEqual([
    'warning: Fix concern 1 (range(0, 5, NaN)): its test passes on the pre-fix tree: the fix broke this input',
    'Fix concern 2 (range(0, 5, Infinity)): its test fails on the pre-fix tree too: wrong before and after the fix',
    'Fix concern 3 (range(5, 0, -2)): its test did not run on the pre-fix tree'
  ])
})

test('a confirmed concern is a warning on the first hunk of its file (else of the first source file)', () => {
  const hunk = (start: number) => ({ header: '@@', base: { start, end: start }, head: { start, end: start }, text: '', addedLines: [start], removedLines: [] })
  const changeSet: ChangeSet = {
    base: 'b',
    head: 'h',
    mergeBase: 'b',
    files: [
      { path: 'src/other.js', basePath: 'src/other.js', status: 'modified', role: 'source', hunks: [hunk(3)] },
      { path: 'src/range.js', basePath: 'src/range.js', status: 'modified', role: 'source', hunks: [hunk(5), hunk(20)] }
    ]
  }
  const report = { ...emptyReport('generate', '/repo', 'b', 'h'), verdict: 'fail-to-pass' as const, reason: null, fixConcerns: [confirmed, { ...confirmed, where: { file: 'lib/elsewhere.js', function: 'f' } }] }
  const warnings = annotationsFor(report, changeSet).filter((annotation) => annotation.title.startsWith('The fix may'))
  expect(warnings).toEqual([
    {
      kind: 'warning',
      file: 'src/range.js',
      startLine: 5,
      endLine: 5,
      title: 'The fix may be incomplete',
      message: 'range(0, 5, NaN): expected a RangeError; the fixed code returns [] (src/range.js, range). The test "fix concerns › concern 1: title 1" fails at head (assertion: expect(received).toThrow(expected) Received function did not throw).'
    },
    expect.objectContaining({ kind: 'warning', file: 'src/other.js', startLine: 3 })
  ])
  // One the fix broke (its test passed before the fix) says so.
  const broken = { ...report, fixConcerns: [{ ...confirmed, preFixResult: 'passed' as const }] }
  expect(annotationsFor(broken, changeSet)).toContainEqual(expect.objectContaining({ title: 'The fix may break this input', message: expect.stringMatching(/fails at head \(assertion: .*\) and passed before the fix\.$/) }))
})

test('report.md has a section for confirmed concerns right after the hunk table; the output folder has concerns/', async () => {
  const report = { ...emptyReport('generate', '/repo', 'b', 'h'), verdict: 'fail-to-pass' as const, reason: null, fixConcerns: [confirmed], hunks: [{ file: 'src/range.js', startLine: 5, endLine: 5, onlyRemoves: false, guardedBy: [] }] }
  const markdown = renderMarkdown(report)
  expect(markdown).toContain('## The fix may be incomplete')
  expect(markdown).toContain('| `range(0, 5, NaN)` | a RangeError | returns \\[\\] | `src/range.js` · `range` | `fix concerns › concern 1: title 1` | **assertion**: `expect(received).toThrow(expected) Received function did not throw` | failed too |')
  expect(markdown.indexOf('## Which test guards which hunk')).toBeLessThan(markdown.indexOf('## The fix may be incomplete'))
  expect(markdown.indexOf('## The fix may be incomplete')).toBeLessThan(markdown.indexOf('## Tests'))
  expect(renderMarkdown(emptyReport('generate', '/repo', 'b', 'h'))).not.toContain('The fix may be incomplete')

  const outDir = await mkdtemp(join(tmpdir(), 'rtg-concerns-out-'))
  const paths = await writeReport(outDir, report, [], [{ path: FILE, content: 'the test\n', tests: [] }])
  expect(paths.concernsDir).toBe(join(outDir, 'concerns'))
  expect(await readFile(join(outDir, 'concerns', FILE), 'utf8')).toBe('the test\n')
  // A later run without concerns leaves no stale folder behind.
  const again = await writeReport(outDir, emptyReport('generate', '/repo', 'b', 'h'), [])
  expect(again.concernsDir).toBeNull()
  expect(await readdir(outDir)).not.toContain('concerns')
})

test('every generated pytest file name is an importable module name: the suite, the concern tests, the import checks', () => {
  const module = /^[A-Za-z_][A-Za-z0-9_]*\.py$/
  const suite = regressionFileName('tests/regression', suiteStem(null, 'abc1234def'), '.py')
  const names = [suite, concernsPathFor(suite, '.py'), regressionFileName('tests', 'import-check-1', '.py'), regressionFileName('tests/regression', suiteStem({ issue: 7 } as BugReport, 'h'), '.py')]
  expect(names).toEqual(['tests/regression/test_fix_abc1234.py', 'tests/regression/test_fix_abc1234_concerns.py', 'tests/test_regression_import_check_1.py', 'tests/regression/test_issue_7.py'])
  for (const name of names) expect(name.split('/').pop()).toMatch(module)
})
