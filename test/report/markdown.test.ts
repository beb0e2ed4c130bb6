/** report.md's hunk section: a hunk × test table for a few tests, a list past six, removals told apart. */
import type { ClassifiedTest } from '../../src/domain.js'
import type { HunkGuard } from '../../src/execute/hunk-guards.js'
import { renderMarkdown } from '../../src/report/markdown.js'
import { emptyReport } from '../../src/report/report.js'

const failToPass = (name: string): ClassifiedTest => ({ file: 'test/a.test.js', name, head: 'passed', preFix: 'failed', kind: 'fail-to-pass', flaky: false, message: '', scenario: null, preFixFailure: 'assertion', preFixFailureLine: 'expected 1' })
const hunk = (startLine: number, guardedBy: string[] | null, onlyRemoves = false): HunkGuard => ({ file: 'src/a.js', startLine, endLine: startLine, onlyRemoves, guardedBy })
const render = (tests: ClassifiedTest[], hunks: HunkGuard[]) =>
  renderMarkdown({ ...emptyReport('verify', '/repo', 'b', 'h'), verdict: 'fail-to-pass', reason: null, tests, hunks })

test('a few tests: one column each, ✓ where the test fails without the hunk; a removal is marked as one', () => {
  const markdown = render([failToPass('counts down'), failToPass('stops at end')], [hunk(5, ['counts down']), hunk(9, ['counts down', 'stops at end']), hunk(20, [], true)])
  expect(markdown).toContain('| Hunk | `counts down` | `stops at end` |\n|---|---|---|\n| `src/a.js`:5–5 | ✓ |  |\n| `src/a.js`:9–9 | ✓ | ✓ |\n| `src/a.js`:20–20 (removal) |  |  |')
  expect(markdown).toContain('1 removal(s) no test fails without: right for dead code')
  expect(markdown).not.toContain('⚠️ 1 hunk(s)')
})

test('past six tests: a list, where a hunk every fail-to-pass test needs says so in a few words', () => {
  const names = Array.from({ length: 8 }, (_, index) => `case ${index + 1}`)
  const markdown = render(names.map(failToPass), [hunk(5, names), hunk(9, ['case 2']), hunk(14, []), hunk(30, null)])
  expect(markdown).toContain('| Hunk | Fails without it |\n|---|---|\n| `src/a.js`:5–5 | all 8 fail-to-pass tests |\n| `src/a.js`:9–9 | `case 2` |\n| `src/a.js`:14–14 | ⚠️ none |\n| `src/a.js`:30–30 | not checked |')
  expect(markdown).toContain('⚠️ 1 hunk(s) no test fails without: the suite does not show the fix needs them.')
})

test('not-applicable: a neutral headline with the reason, and nothing about isolation or tests that never ran', () => {
  const reason = 'base and head are the same commit (abc1234): there is no change to prove'
  const markdown = renderMarkdown({ ...emptyReport('verify', '/repo', 'abc1234ffff', 'abc1234ffff'), verdict: 'not-applicable', reason })
  expect(markdown).toBe(`# Regression tests for this fix\n\n➖ **not-applicable** — the change has nothing to prove, so nothing ran.\n\nReason: ${reason}\n\nmode \`verify\` · \`abc1234...abc1234\` · 0 changed file(s)\n`)
})

test('twins (tests with the same full title in a file) are told apart by their line or their place; uncovered lines are ranges', () => {
  const twin = (occurrence: number, extra: Partial<ClassifiedTest> = {}): ClassifiedTest => ({ ...failToPass('copied › parses'), occurrence, ...extra })
  const diffCoverage = { covered: 1, total: 7, files: [{ file: 'src/a.js', covered: 1, total: 7, uncoveredLines: [[3, 7], [12, 12]] as Array<[number, number]> }] }
  const markdown = renderMarkdown({ ...emptyReport('verify', '/repo', 'b', 'h'), verdict: 'fail-to-pass', reason: null, tests: [twin(1), twin(2, { kind: 'pass-to-pass', preFix: 'passed' }), { ...failToPass('by line'), line: 4 }, { ...failToPass('by line'), line: 9 }], diffCoverage })
  expect(markdown).toContain('| `test/a.test.js` | `copied › parses` (#1) |')
  expect(markdown).toContain('| `test/a.test.js` | `copied › parses` (#2) |')
  expect(markdown).toContain('| `test/a.test.js` | `by line` (line 9) |')
  expect(markdown).toContain('| `src/a.js` | 1/7 | 3–7, 12 |')
})
