/**
 * Fewer runner starts (issue 23): in generate mode the preflight's file and the import check's files run in
 * one runner start at head, and the import check in one more on the pre-fix tree, started beside it — not a
 * start for the preflight and another for the import check at head; the test command (`npm test`) is asked
 * how it starts its runner at head only, where the fix reverts nothing that decides it; in verify mode the
 * preflight's file runs with the pull request's other tests, and that run is the suite's first at head. The
 * bundled CLI (`dist/cli/index.js`: run `npm run build` first) on the jest fixture, whose configuration says
 * on stderr, each time jest loads it, which tree it starts in; the run.log keeps every run's output.
 */
import type { BundledRun } from '../support/cli-run.js'
import { runBundledCliOnFixture } from '../support/cli-run.js'

// The fixture's own configuration, and a line per start: jest loads it once per start, in its main process.
const COUNTING_CONFIG = `process.stderr.write('jest starts in ' + require('node:path').basename(process.cwd()) + '\\n')

/** @type {import('jest').Config} */
module.exports = {
  preset: 'ts-jest',
  testEnvironment: 'node',
  roots: ['<rootDir>/test']
}
`

/** How many times jest started in each tree, as the run.log tells. */
function startsIn(log: string): Record<string, number> {
  const starts: Record<string, number> = {}
  for (const [, tree] of log.matchAll(/^jest starts in (\S+)$/gm)) starts[tree] = (starts[tree] ?? 0) + 1
  return starts
}

const startsBeforeTheModel = (run: BundledRun) => startsIn(run.runLog.slice(0, run.runLog.indexOf('Asking the model:')))

/** How many times the test command was asked, in each tree, how it starts its runner (the capture: one start of `npm test`). */
function capturesIn(log: string): Record<string, number> {
  const captures: Record<string, number> = {}
  for (const [, tree] of log.matchAll(/ info Asking the (head|pre-fix) tree how it runs its tests/g)) captures[tree] = (captures[tree] ?? 0) + 1
  return captures
}

test('generate (bundled CLI): one jest start per tree before the model, for the preflight and the import check together; their results told apart', async () => {
  const run = await runBundledCliOnFixture('retry-budget', { generate: true, fixtureOptions: { baseChanges: { 'jest.config.js': COUNTING_CONFIG } } })
  try {
    expect(run.runLog).toContain('Asking the model:')
    expect(startsBeforeTheModel(run)).toEqual({ head: 1, 'pre-fix': 1 })
    expect(run.runLog).toContain('Testing 2 file(s) at head (preflight and import check)')
    expect(run.runLog).not.toContain('at head (import check)')
    // The pre-fix tree's start does not wait for the head's to end.
    expect(run.runLog.indexOf('Testing 1 file(s) on the pre-fix tree (import check)')).toBeGreaterThan(-1)
    expect(run.runLog.indexOf('Testing 1 file(s) on the pre-fix tree (import check)')).toBeLessThan(run.runLog.indexOf('Preflight and import check at head:'))
    // `npm test` is asked once, at head: the fix reverts one source file, nothing that decides how jest starts; the pre-fix runs still start in the pre-fix tree.
    expect(capturesIn(run.runLog)).toEqual({ head: 1 })
    expect(run.runLog).toContain('The pre-fix tree starts its runner as the head does (the fix reverts nothing that decides how): npm test is not asked again there')
    expect(startsIn(run.runLog)['pre-fix']).toBe(3)
    // The preflight counts its own file's 3 tests, not the import check's one; the import check reads its file's.
    expect(run.report.preflight).toMatchObject({ file: 'test/retry-budget.test.ts', ok: true, detail: '3 test(s) ran at head', tried: [{ file: 'test/retry-budget.test.ts', detail: '3 test(s) ran at head' }] })
    expect(run.report.context!.imports).toEqual([expect.objectContaining({ module: 'src/streaming-transport.ts', loads: { head: true, preFix: true } })])
    expect(run.report).toMatchObject({ verdict: 'fail-to-pass', model: { calls: 3 } })
    expect(run.exitCode).toBe(0)
  } finally {
    await run.repo.cleanup()
  }
})

// A second test file in the pull request, beside the one that proves the fix.
const SECOND_TEST = `import { RetryBudget } from '../src/retry-budget'

describe('RetryBudget, as each streaming call gets it', () => {
  it('refuses a charge larger than what remains', () => {
    expect(new RetryBudget(1).tryCharge(2)).toBe(false)
  })
})
`

test("verify (bundled CLI): the preflight's run holds the pull request's two test files, and is the suite's first run at head", async () => {
  const baseChanges = { 'jest.config.js': COUNTING_CONFIG }
  const run = await runBundledCliOnFixture('retry-budget', { fixtureOptions: { baseChanges, headChanges: { 'test/budget-charges.test.ts': SECOND_TEST } } })
  try {
    expect(run.report).toMatchObject({ verdict: 'fail-to-pass', runs: { head: 3 } })
    // Three runs at head in all (the preflight's, with coverage, shuffled): three starts, not four.
    expect(startsIn(run.runLog).head).toBe(3)
    expect(run.runLog).toContain("At head: the preflight's run of test/streaming-transport.test.ts, test/budget-charges.test.ts stands for the first run")
    // The preflight is judged on its own file's tests; the suite on both files'.
    const ownTests = run.report.tests.filter((test) => test.file === 'test/streaming-transport.test.ts').length
    expect(run.report.preflight).toMatchObject({ file: 'test/streaming-transport.test.ts', ok: true, detail: `${ownTests} test(s) ran at head` })
    expect(run.report.tests.filter((test) => test.file === 'test/budget-charges.test.ts')).toEqual([expect.objectContaining({ kind: 'pass-to-pass' })])
    expect(run.exitCode).toBe(0)
  } finally {
    await run.repo.cleanup()
  }
})
