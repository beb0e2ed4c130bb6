/**
 * What the hunk trees run, and the test budget: the bundled CLI on the range-wrapper fixture's two-hunk fix
 * (one hunk the fix's test needs, one a refactor no test needs). A hunk tree runs only the files holding
 * fail-to-pass tests; past the budget for all test runs, the optional runs (hunk trees, fix-concern tests)
 * are skipped, the required ones never, and the report says which.
 * Run `npm run build` first.
 */
import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { runBundledCliOnFixture, runCliOnFixture } from '../support/cli-run.js'
import { fixturesDir } from '../support/fixture-repo.js'
import { fixtureAnswers } from '../support/scripted-model.js'
import { TWO_HUNK_FIX } from '../support/two-hunk-fix.js'

const FIX_SPEC = readFileSync(join(fixturesDir(), 'range-wrapper', 'fix', 'src', 'range.spec.js'), 'utf8')
// Passes before and after the fix: a file with no fail-to-pass test.
const FIRST_SPEC = "const { first } = require('./range')\n\ntest('first is the start', () => {\n  expect(first(2, 5)).toBe(2)\n})\n\ntest('first of an empty range is undefined', () => {\n  expect(first(5, 5)).toBe(undefined)\n})\n"
const HUNKS = ['hunk 1 of 2 (src/range.js:5-6)', 'hunk 2 of 2 (src/range.js:18-18)']

test('verify: a hunk tree runs only the file holding the fail-to-pass test, not the file whose tests pass before the fix too', async () => {
  const run = await runBundledCliOnFixture('range-wrapper', { fixtureOptions: { ...TWO_HUNK_FIX, headChanges: { ...TWO_HUNK_FIX.headChanges, 'src/first.spec.js': FIRST_SPEC } } })
  expect(run.report.verdict).toBe('fail-to-pass')
  expect(run.report.tests.filter((test) => test.file === 'src/first.spec.js').map((test) => test.kind)).toEqual(['pass-to-pass', 'pass-to-pass'])
  // Both files ran at head and on the pre-fix tree …
  expect(run.runLog).toMatch(/Testing 2 file\(s\) on the pre-fix tree/)
  // … each hunk tree only the fail-to-pass test's file: its 4 tests, never first.spec.js's 2.
  expect(run.runLog).toContain('Hunk trees run the 1 file(s) holding fail-to-pass tests: src/range.spec.js; not the 1 with none (src/first.spec.js)')
  expect(run.runLog).toContain('Testing 1 file(s) with hunk 1 of 2 taken out (src/range.js:5-6)')
  expect(run.runLog).toContain('Testing 1 file(s) with hunk 2 of 2 taken out (src/range.js:18-18)')
  expect(run.runLog).not.toMatch(/Testing 2 file\(s\) with hunk/)
  expect(run.runLog).toMatch(/Run \d+ with hunk 1 of 2 taken out \(src\/range\.js:5-6\): 3 passed, 1 failed in/)
  expect(run.runLog).toMatch(/Run \d+ with hunk 2 of 2 taken out \(src\/range\.js:18-18\): 4 passed in/)
  expect(run.report.hunks).toEqual([
    { file: 'src/range.js', startLine: 5, endLine: 6, onlyRemoves: false, guardedBy: ['range › counts down with a negative step (#7)'] },
    { file: 'src/range.js', startLine: 18, endLine: 18, onlyRemoves: false, guardedBy: [] }
  ])
  // Within the default budget (a sixth of the 60-minute deadline) nothing is skipped.
  expect(run.report.testBudget).toEqual({ minutes: 10, spentMs: expect.any(Number), skipped: [] })
  expect(run.report.testBudget.spentMs).toBeGreaterThan(0)
  expect(run.markdown).not.toContain('test budget')
})

test('verify: past the test budget the hunk trees are skipped, the required runs are not, and the verdict stands', async () => {
  // Every run of the fix's test file takes over a second: the preflight alone spends a 0.6-second budget.
  const slowSpec = FIX_SPEC.replace(/\}\)\n$/, "\n  it('waits a second', () => new Promise((resolve) => setTimeout(resolve, 1000)))\n})\n")
  expect(slowSpec).not.toBe(FIX_SPEC)
  const run = await runBundledCliOnFixture('range-wrapper', {
    fixtureOptions: { ...TWO_HUNK_FIX, headChanges: { ...TWO_HUNK_FIX.headChanges, 'src/range.spec.js': slowSpec } },
    args: ['--test-budget-minutes', '0.01']
  })
  expect(run.report.verdict).toBe('fail-to-pass')
  expect(run.report.tests.find((test) => test.name === 'range › counts down with a negative step (#7)')?.kind).toBe('fail-to-pass')
  // The gate ran in full: three runs at head (the preflight's the first), two on the pre-fix tree.
  expect(run.report.runs).toEqual({ head: 3, preFix: 2 })
  expect(run.report.hunks).toEqual([
    { file: 'src/range.js', startLine: 5, endLine: 6, onlyRemoves: false, guardedBy: null },
    { file: 'src/range.js', startLine: 18, endLine: 18, onlyRemoves: false, guardedBy: null }
  ])
  expect(run.report.testBudget).toEqual({ minutes: 0.01, spentMs: expect.any(Number), skipped: HUNKS })
  expect(run.report.testBudget.spentMs).toBeGreaterThan(5 * 1000)
  expect(run.runLog).not.toMatch(/hunk \d of 2 taken out/)
  expect(run.runLog).toMatch(/Skipped hunk 1 of 2 \(src\/range\.js:5-6\): the test budget \(test-budget-minutes: 0\.01\) is spent — \d+\.\d s of test runs so far/)
  expect(run.runLog).toMatch(/Skipped hunk 2 of 2 \(src\/range\.js:18-18\): the test budget/)
  expect(run.markdown).toMatch(/⏱️ The test budget \(test-budget-minutes: 0\.01\) was spent after \d+\.\d s of test runs: skipped hunk 1 of 2 \(src\/range\.js:5-6\), hunk 2 of 2 \(src\/range\.js:18-18\)\./)
  expect(run.markdown).toContain('| not checked |')
})

test('generate: past the test budget the fix concerns are not checked: no concerns call, no concern tests', async () => {
  const answers = fixtureAnswers('range-wrapper')
  const analysis = (answers.analyse as { tool_use: { input: Record<string, unknown> } }).tool_use.input
  const concern = { input: 'range(0, 5, NaN)', expected: 'a RangeError, as for step 0', actual: 'returns []', where: { file: 'src/range.js', function: 'range' } }
  const run = await runCliOnFixture({
    fixture: 'range-wrapper',
    script: { ...answers, analyse: { tool_use: { name: 'record_root_cause', input: { ...analysis, fixConcerns: [concern] } } } },
    fixtureOptions: { withFixTest: false },
    args: ['--issue', join('__fixtures__', 'range-wrapper', 'issue.md'), '--test-budget-minutes', '0']
  })
  expect(run.report.verdict).toBe('fail-to-pass')
  expect(run.report.model.perCall.map((call) => call.stage)).toEqual(['analyse', 'scenarios', 'write-tests'])
  expect(run.report.fixConcerns).toEqual([])
  expect(run.report.testBudget).toEqual({ minutes: 0, spentMs: expect.any(Number), skipped: ['the fix-concern tests'] })
  expect(run.log).toContainEqual(expect.stringMatching(/^warning: Skipped the fix-concern tests: the test budget \(test-budget-minutes: 0\) is spent/))
  expect(run.log.some((line) => line.startsWith('Concern tests'))).toBe(false)
  expect(run.markdown).toContain('skipped the fix-concern tests.')
})
