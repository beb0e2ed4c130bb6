/** Which failures are the suite's own to repair, and which come from outside its files. */
import type { RunResult } from '../../src/domain.js'
import { outsideFailure, runnerFailure } from '../../src/execute/outside-failure.js'
import { headAndTail } from '../../src/frameworks/output.js'

const run = (output: string, fileError = 'jest wrote no results', tests: RunResult['tests'] = []): RunResult => ({
  tests,
  fileErrors: [{ file: 'test/regression/issue-1.test.ts', message: fileError }],
  exitCode: 1,
  timedOut: false,
  durationMs: 10,
  output
})

test.each([
  ['jest collects nothing', 'No tests found, exiting with code 1\nRun with `--passWithNoTests` to exit with code 0', "the runner's configuration does not collect the suite's files"],
  ['pytest collects nothing', '============ no tests ran in 0.01s ============', "the runner's configuration does not collect the suite's files"],
  ['a conftest breaks', "ImportError while loading conftest '/t/tests/conftest.py'.\ntests/conftest.py:1: in <module>\n    import attr\nE   ModuleNotFoundError: No module named 'attr'", 'a conftest.py does not load'],
  ['vitest cannot load its config', 'failed to load config from /t/vitest.config.ts\n⎯⎯⎯ Startup Error ⎯⎯⎯\nError: Cannot find module "@vitejs/plugin-vue"', "the runner's configuration does not load"],
  ['build output is missing', "Cannot find module '../../lib/index.js' from 'test/regression/issue-1.test.ts'", 'the tests import build output that is not there']
])('outside the files: %s', (_name, output, what) => {
  expect(outsideFailure(run(output))).toMatchObject({ what })
})

test.each([
  ['a wrong import path', "Cannot find module '../src/transport' from 'test/regression/issue-1.test.ts'"],
  ['pytest: the file cannot import, so nothing ran', "ERROR collecting tests/regression/test_issue_1.py\nE   ModuleNotFoundError: No module named 'src'\n!!! Interrupted: 1 error during collection !!!\n==== no tests ran, 1 error in 0.1s ===="],
  ['a syntax error', 'SyntaxError: Unexpected token (3:7)']
])("the suite's own, to repair: %s", (_name, output) => {
  expect(outsideFailure(run(output))).toBeNull()
})

test('a suite whose tests ran and failed is never outside its files', () => {
  const failed = run('No tests found', '', [{ file: 'test/a.test.ts', name: 'a', status: 'failed', message: 'expected 1', durationMs: 1 }])
  expect(outsideFailure(failed)).toBeNull()
})

test('the evidence is the line that says it, and the hint names the setting', () => {
  expect(outsideFailure(run('PASS nothing\nNo tests found, exiting with code 1\n  at x (y.js:1:1)'))).toEqual({
    what: "the runner's configuration does not collect the suite's files",
    evidence: 'No tests found, exiting with code 1',
    hint: 'set test-command to a command that runs the files given ({files}), or move the suite where the configuration looks'
  })
})

test('a long output keeps its start and its end for the repair prompt', () => {
  const output = `${'start '.repeat(100)}${'middle '.repeat(1000)}${'end '.repeat(100)}`
  const kept = headAndTail(output, 1000)
  expect(kept.startsWith('start start')).toBe(true)
  expect(kept.endsWith('end end')).toBe(true)
  expect(kept).toMatch(/\n\[… \d+ characters cut …\]\n/)
  expect(headAndTail('short', 1000)).toBe('short')
})

test('before the fix, only a failure of the runner itself proves nothing; a missing module is the failure the suite shows', () => {
  expect(runnerFailure(run('failed to load config from /t/vitest.config.ts\n⎯⎯ Startup Error ⎯⎯'))).toMatchObject({ what: "the runner's configuration does not load" })
  expect(runnerFailure(run('No tests found, exiting with code 1'))).toMatchObject({ what: "the runner's configuration does not collect the suite's files" })
  // A fix that adds a module: before it, importing it fails — a real fail-to-pass, not a broken run.
  expect(runnerFailure(run("Cannot find module '../../lib/new-parser.js' from 'test/regression/issue-1.test.ts'"))).toBeNull()
  expect(runnerFailure(run("ERROR collecting tests/regression/test_issue_1.py\nE   ImportError: cannot import name 'parse_v2'\n==== no tests ran, 1 error ====" ))).toBeNull()
})
