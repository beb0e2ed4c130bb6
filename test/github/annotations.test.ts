import type { ChangeSet, ChangedFile } from '../../src/domain.js'
import { annotationsFor, MAX_PER_KIND } from '../../src/github/annotations.js'
import { emptyReport, type Report } from '../../src/report/report.js'
import { toRanges } from '../../src/verdict/line-ranges.js'

const hunk = (addedLines: number[]) => ({ header: '@@', base: { start: 1, end: 1 }, head: { start: addedLines[0], end: addedLines[addedLines.length - 1] }, text: '', addedLines, removedLines: [] })
const file = (path: string, hunks: number[][]): ChangedFile => ({ path, basePath: path, status: 'modified', role: 'source', hunks: hunks.map(hunk) })
const changeSet = (files: ChangedFile[]): ChangeSet => ({ base: 'b', head: 'h', mergeBase: 'b', files })

function report(verdict: Report['verdict'], uncovered: Record<string, number[]> | null): Report {
  const base = emptyReport('generate', '/repo', 'b', 'h')
  return {
    ...base,
    verdict,
    reason: verdict === 'fail-to-pass' ? null : 'none of the 2 test(s) passing at head failed on the pre-fix tree',
    tests: [{ file: 't', name: 'n', head: 'passed', preFix: 'failed', kind: 'fail-to-pass', flaky: false, message: '', scenario: null, preFixFailure: 'assertion', preFixFailureLine: 'expected 1 to be 2' }],
    diffCoverage: uncovered && { covered: 0, total: 0, files: Object.entries(uncovered).map(([path, lines]) => ({ file: path, covered: 0, total: lines.length, uncoveredLines: toRanges(lines) })) }
  }
}

test('a proven fix: notices on the hunks the suite runs, warnings on changed lines it never runs', () => {
  const annotations = annotationsFor(report('fail-to-pass', { 'src/a.ts': [40, 41, 43] }), changeSet([file('src/a.ts', [[10, 11], [40, 41, 42, 43]])]))
  expect(annotations).toEqual([
    { kind: 'warning', file: 'src/a.ts', startLine: 40, endLine: 41, title: 'Changed line not run by the suite', message: 'No regression test runs this changed line.' },
    { kind: 'warning', file: 'src/a.ts', startLine: 43, endLine: 43, title: 'Changed line not run by the suite', message: 'No regression test runs this changed line.' },
    { kind: 'notice', file: 'src/a.ts', startLine: 10, endLine: 11, title: 'Guarded by a regression test', message: 'The suite runs this change and fails without it (1 fail-to-pass test(s)).' }
  ])
})

test('an unproven fix: an error on every fix hunk, saying why', () => {
  const annotations = annotationsFor(report('no-fail-to-pass', null), changeSet([file('src/a.ts', [[5]]), { ...file('test/a.test.ts', [[1]]), role: 'test' }]))
  expect(annotations).toEqual([
    { kind: 'error', file: 'src/a.ts', startLine: 5, endLine: 5, title: 'No test guards this fix', message: 'No test fails without this change: none of the 2 test(s) passing at head failed on the pre-fix tree.' }
  ])
})

test(`at most ${MAX_PER_KIND} of each kind`, () => {
  const many = Array.from({ length: 15 }, (_, i) => [i * 10 + 1])
  const annotations = annotationsFor(report('error', { 'src/a.ts': many.flat() }), changeSet([file('src/a.ts', many)]))
  expect(annotations.filter((a) => a.kind === 'error')).toHaveLength(MAX_PER_KIND)
  expect(annotations.filter((a) => a.kind === 'warning')).toHaveLength(MAX_PER_KIND)
})

test('with hunks checked one by one: a notice naming the tests that need a hunk, a warning on a hunk none needs', () => {
  const checked: Report = { ...report('fail-to-pass', null), hunks: [
    { file: 'src/a.ts', startLine: 10, endLine: 11, onlyRemoves: false, guardedBy: ['parse › counts down (#7)'] },
    { file: 'src/a.ts', startLine: 40, endLine: 40, onlyRemoves: false, guardedBy: [] },
    { file: 'src/a.ts', startLine: 60, endLine: 60, onlyRemoves: false, guardedBy: null }
  ] }
  const annotations = annotationsFor(checked, changeSet([file('src/a.ts', [[10, 11], [40], [60]])]))
  expect(annotations).toEqual([
    { kind: 'warning', file: 'src/a.ts', startLine: 40, endLine: 40, title: 'No test needs this hunk', message: 'No test that passes at head fails with this hunk alone taken out: the suite does not show the fix needs it.' },
    { kind: 'notice', file: 'src/a.ts', startLine: 10, endLine: 11, title: 'Guarded by a regression test', message: 'Fails without this hunk alone: parse › counts down (#7).' },
    // Not checked (past the limits): the suite's general notice.
    { kind: 'notice', file: 'src/a.ts', startLine: 60, endLine: 60, title: 'Guarded by a regression test', message: 'The suite runs this change and fails without it (1 fail-to-pass test(s)).' }
  ])
})

test('a removal no test needs is a notice, not a warning: dead code going needs no test', () => {
  const checked: Report = { ...report('fail-to-pass', null), hunks: [
    { file: 'src/a.ts', startLine: 10, endLine: 11, onlyRemoves: false, guardedBy: ['parse › counts down (#7)'] },
    { file: 'src/a.ts', startLine: 40, endLine: 40, onlyRemoves: true, guardedBy: [] }
  ] }
  const annotations = annotationsFor(checked, changeSet([file('src/a.ts', [[10, 11], [40]])]))
  expect(annotations.filter((a) => a.kind === 'warning')).toEqual([])
  expect(annotations).toContainEqual({ kind: 'notice', file: 'src/a.ts', startLine: 40, endLine: 40, title: 'No test needs this removal', message: 'No test that passes at head fails with the removed lines back: right for dead code; otherwise the suite does not show the fix needs the removal.' })
})

test('a change with nothing to prove gets no annotation, not an error on its hunks', () => {
  const notApplicable = { ...report('not-applicable', null), tests: [], reason: "verify mode runs the change's own tests, and it changes 1 source file but adds or modifies no test file" }
  expect(annotationsFor(notApplicable, changeSet([file('src/a.ts', [[5]])]))).toEqual([])
})

test('a hunk of 200,000 added lines (a generated file) is one range, without overflowing the stack', () => {
  const lines = Array.from({ length: 200_000 }, (_, index) => index + 1)
  const annotations = annotationsFor(report('no-fail-to-pass', null), changeSet([file('src/table.js', [lines])]))
  expect(annotations).toEqual([expect.objectContaining({ kind: 'error', file: 'src/table.js', startLine: 1, endLine: 200_000 })])
})
