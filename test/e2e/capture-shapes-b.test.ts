/**
 * Issue 22, "Must show": four shapes of a repository's own test command, each a fixture built as a real
 * repository, zero-config through the bundled CLI (`dist/cli/index.js`: run `npm run build` first) in verify
 * and generate mode. The tool asks each tree's test command how it runs its tests (the capture), and every
 * run is that launch with its own files:
 * - a workspace package with no test script of its own, tested by the root's vitest config;
 * - pytest through `make test` (the Makefile sets PYTHONPATH=src);
 * - pytest through a script (`sh scripts/test.sh`: `cd tests`, `-c ../config/pytest.ini`), the test-command setting;
 * - jest under a script that sets the environment its tests need (`TZ=UTC NODE_ENV=test jest`).
 */
import { dirname } from 'node:path'
import type { Report } from '../../src/report/report.js'
import { runBundledCliOnFixture, runCliOnFixture } from '../support/cli-run.js'
import { describeWhereTestPython } from '../support/test-python.js'


const kindsByName = (report: Report) => Object.fromEntries(report.tests.map((test) => [test.name, test.kind]))

describe('a workspace package with no test script of its own, tested by the root vitest config', () => {
  // The root config gives describe/it/expect as globals and resolves `@acme/core` to the package's sources:
  // the tests pass only under it. Before the capture (main), naming the package ended at once: "No
  // supported test framework found in …/packages/core" (the root run already worked: vitest at the root).
  const rootRunner = { captured: true, command: 'npm test', runner: 'vitest', via: ['npm test', 'vitest run'], argv: ['run'], execArgv: [], cwd: '', beforeRunner: [] }

  test('verify, naming the package: the root\'s test command runs the package\'s tests from the root, fail-to-pass', async () => {
    const run = await runBundledCliOnFixture('workspace-root-vitest', { args: ['--working-directory', 'packages/core'] })
    expect(run.report.runner).toMatchObject({ ...rootRunner, source: "the workspace root's test script: vitest run", reason: null })
    expect(run.report).toMatchObject({ verdict: 'fail-to-pass', framework: 'vitest', preFixTree: { reverted: ['packages/core/src/chunk.ts'] } })
    expect(kindsByName(run.report)).toEqual({
      'chunk › splits items into groups of the size': 'pass-to-pass',
      'chunk › gives no group for no items': 'pass-to-pass',
      'chunk › keeps the last, shorter group (#31)': 'fail-to-pass'
    })
    expect(run.report.tests.find((test) => test.kind === 'fail-to-pass')).toMatchObject({ file: 'packages/core/test/chunk.test.ts', head: 'passed', preFix: 'failed' })
    // Run from the root (where the config is), with the file given from there.
    expect(run.report.preflight?.command).toMatch(/vitest\.mjs run packages\/core\/test\/chunk\.test\.ts /)
    expect(run.runLog).toContain('Runner: npm test → vitest run in the root')
    expect(run.exitCode).toBe(0)
  })

  test('verify at the root, zero-config: the same launch, the root\'s own test script', async () => {
    const run = await runBundledCliOnFixture('workspace-root-vitest')
    expect(run.report.runner).toMatchObject({ ...rootRunner, source: 'the test script: vitest run' })
    expect(run.report.verdict).toBe('fail-to-pass')
    expect(run.report.tests.filter((test) => test.kind === 'fail-to-pass').map((test) => test.name)).toEqual(['chunk › keeps the last, shorter group (#31)'])
  })

  test('generate, naming the package: the suite in the package\'s test folder runs under the root config, fail-to-pass', async () => {
    const run = await runBundledCliOnFixture('workspace-root-vitest', { generate: true, args: ['--working-directory', 'packages/core'] })
    expect(run.report.runner).toMatchObject(rootRunner)
    expect(run.report).toMatchObject({ mode: 'generate', verdict: 'fail-to-pass', rounds: { repair: 0 } })
    expect(run.report.suite.files).toEqual([expect.objectContaining({ path: 'packages/core/test/regression/issue-31.test.ts' })])
    expect(kindsByName(run.report)).toEqual({
      'chunk keeps a remainder (#31) › makes a last, shorter group of the remainder': 'fail-to-pass',
      'chunk keeps a remainder (#31) › makes one group of fewer items than the size': 'fail-to-pass',
      'chunk keeps a remainder (#31) › adds no empty group for a multiple of the size': 'pass-to-pass'
    })
    expect(run.exitCode).toBe(0)
  })
})

describe('jest under a test script that sets the environment its tests need (TZ=UTC NODE_ENV=test jest)', () => {
  // The machine's own time zone is far east of UTC: a test of a late-evening UTC instant passes only under the
  // script's TZ=UTC. Before the capture (main), jest ran without it: every test failed at head, and the
  // verdict was no-fail-to-pass.
  const away = { TZ: 'Pacific/Kiritimati' }
  const runner = { captured: true, command: 'npm test', source: 'the test script: TZ=UTC NODE_ENV=test jest', runner: 'jest', via: ['npm test', 'TZ=UTC NODE_ENV=test jest', 'jest'], argv: [], cwd: '', beforeRunner: [] }

  test('verify: the captured TZ reaches every run, head and pre-fix; fail-to-pass on the bug itself', async () => {
    const run = await runBundledCliOnFixture('dayfmt-tz-jest', { env: away })
    expect(run.report.runner).toMatchObject({ ...runner, env: expect.objectContaining({ TZ: 'UTC', NODE_ENV: 'test' }) })
    expect(run.report.verdict).toBe('fail-to-pass')
    // The UTC-only test passes in both trees: the variable reached the pre-fix tree's runs too.
    expect(run.report.tests).toEqual([
      expect.objectContaining({ name: 'formatDay › gives the UTC day of a late evening instant', head: 'passed', preFix: 'passed', kind: 'pass-to-pass' }),
      expect.objectContaining({ name: 'formatDay › gives a zero-padded month counted from 1 (#44)', head: 'passed', preFix: 'failed', kind: 'fail-to-pass' })
    ])
    // The pre-fix tree fails on the bug (month 2, unpadded) on the UTC day (the 9th, not Kiritimati's 10th).
    expect(run.report.tests[1].message).toContain('2024-2-09')
    expect(run.report.preflight?.command).toMatch(/(?:^| )TZ=UTC NODE_ENV=test \S+ \S+\/jest\/bin\/jest\.js test\/format\.test\.js /)
    expect(run.exitCode).toBe(0)
  })

  test('generate: the suite\'s UTC-evening instants give their UTC day at head, fail-to-pass before the fix', async () => {
    const run = await runBundledCliOnFixture('dayfmt-tz-jest', { generate: true, env: away })
    expect(run.report.runner).toMatchObject({ ...runner, env: expect.objectContaining({ TZ: 'UTC' }) })
    expect(run.report).toMatchObject({ mode: 'generate', verdict: 'fail-to-pass', rounds: { repair: 0 } })
    expect(kindsByName(run.report)).toEqual({
      'formatDay months (#44) › gives 2024-03-09 for a March day late in the UTC evening': 'fail-to-pass',
      'formatDay months (#44) › gives month 12 for the last evening of December': 'fail-to-pass',
      'formatDay months (#44) › keeps the day padded': 'pass-to-pass'
    })
    expect(run.exitCode).toBe(0)
  })
})

/**
 * Debian's /usr/bin/python3 with pytest (test/support/test-python.ts): the PATH leaves out version managers'
 * shims (a pyenv Python in root's home is not what the test setup provides), so `python3` in the
 * repository's commands is that one.
 */
const pythonEnv = { PATH: [dirname(process.execPath), '/usr/local/bin', '/usr/bin', '/bin'].join(':') }

describeWhereTestPython()('pytest through `make test` (PYTHONPATH=src python3 -m pytest -q tests), no package.json, no pytest config', () => {
  // Only the Makefile says where the package is (PYTHONPATH=src). Before the capture (main): "No supported
  // test framework found" (no pyproject, setup.cfg, pytest.ini or conftest to detect pytest by).
  const runner = {
    captured: true,
    command: 'make test',
    source: "the Makefile's test target",
    runner: 'pytest',
    via: ['make test', 'PYTHONPATH=src python3 -m pytest -q tests', 'python -m pytest -q tests'],
    argv: ['-q', 'tests'],
    execArgv: ['-m', 'pytest'],
    cwd: '',
    beforeRunner: []
  }

  test('verify: the Makefile\'s PYTHONPATH reaches the runs, fail-to-pass', async () => {
    const run = await runBundledCliOnFixture('wordcount-make-pytest', { env: pythonEnv })
    expect(run.report.runner).toMatchObject({ ...runner, env: expect.objectContaining({ PYTHONPATH: 'src' }) })
    expect(run.report).toMatchObject({ verdict: 'fail-to-pass', framework: 'pytest' })
    expect(kindsByName(run.report)).toEqual({
      test_counts_words_separated_by_one_space: 'pass-to-pass',
      test_counts_no_word_in_blank_text: 'pass-to-pass',
      test_counts_a_run_of_spaces_as_one_separator: 'fail-to-pass'
    })
    expect(run.report.tests[2].message).toContain('assert 3 == 2')
    expect(run.report.preflight?.command).toMatch(/PYTHONPATH=src .*python3 -m pytest tests\/test_count\.py -q /)
    expect(run.runLog).toContain('Runner: make test → PYTHONPATH=src python3 -m pytest -q tests → python -m pytest -q tests in the root')
    expect(run.exitCode).toBe(0)
  })

  test('generate: the suite imports wordcount from src/ as the Makefile has it, fail-to-pass', async () => {
    const run = await runBundledCliOnFixture('wordcount-make-pytest', { generate: true, env: pythonEnv })
    expect(run.report.runner).toMatchObject(runner)
    expect(run.report).toMatchObject({ mode: 'generate', verdict: 'fail-to-pass', framework: 'pytest', rounds: { repair: 0 } })
    expect(kindsByName(run.report)).toEqual({
      test_a_run_of_spaces_separates_once: 'fail-to-pass',
      test_a_newline_separates_words: 'fail-to-pass',
      test_single_spaces_still_count: 'pass-to-pass'
    })
    expect(run.report.suite.files.map((file) => file.path)).toEqual(['tests/regression/test_issue_8.py'])
    expect(run.exitCode).toBe(0)
  })
})

describeWhereTestPython()('pytest through a script: test-command `sh scripts/test.sh` (cd tests; pytest -c ../config/pytest.ini)', () => {
  // The configuration (pythonpath = ../src) is where only the script says. Before the capture (main): "No
  // supported test framework found"; with --framework pytest, the script got `tests/test_slug.py` appended
  // after its `cd tests`: "file or directory not found".
  const args = ['--test-command', 'sh scripts/test.sh']
  const runner = {
    captured: true,
    command: 'sh scripts/test.sh',
    source: 'the test-command setting',
    runner: 'pytest',
    via: ['sh scripts/test.sh', 'python -m pytest -c ../config/pytest.ini'],
    argv: ['-c', '../config/pytest.ini'],
    execArgv: ['-m', 'pytest'],
    cwd: 'tests',
    beforeRunner: []
  }

  test('verify: runs in tests/ with the script\'s config, files and results at the repository\'s paths, fail-to-pass', async () => {
    const run = await runBundledCliOnFixture('slug-script-pytest', { args, env: pythonEnv })
    expect(run.report.runner).toMatchObject(runner)
    expect(run.report).toMatchObject({ verdict: 'fail-to-pass', framework: 'pytest' })
    expect(run.report.tests).toEqual([
      expect.objectContaining({ file: 'tests/test_slug.py', name: 'test_joins_words_with_a_dash', kind: 'pass-to-pass' }),
      expect.objectContaining({ file: 'tests/test_slug.py', name: 'test_drops_a_leading_dash', kind: 'pass-to-pass' }),
      expect.objectContaining({ file: 'tests/test_slug.py', name: 'test_drops_a_trailing_dash', head: 'passed', preFix: 'failed', kind: 'fail-to-pass' })
    ])
    expect(run.report.tests[2].message).toContain("'hello-world-'")
    // The file from tests/, the script's config with pytest's rootdir kept there.
    expect(run.report.preflight?.command).toMatch(/python3 -m pytest test_slug\.py -c \.\.\/config\/pytest\.ini --rootdir=\. /)
    expect(run.exitCode).toBe(0)
  })

  test('generate: the suite in tests/ imports slugkit through the script\'s config, fail-to-pass', async () => {
    const run = await runBundledCliOnFixture('slug-script-pytest', { generate: true, args, env: pythonEnv })
    expect(run.report.runner).toMatchObject(runner)
    expect(run.report).toMatchObject({ mode: 'generate', verdict: 'fail-to-pass', rounds: { repair: 0 } })
    expect(kindsByName(run.report)).toEqual({
      test_trailing_punctuation_leaves_no_dash: 'fail-to-pass',
      test_trailing_spaces_leave_no_dash: 'fail-to-pass',
      test_inner_runs_stay_one_dash: 'pass-to-pass'
    })
    expect(run.report.suite.files.map((file) => file.path)).toEqual(['tests/regression/test_issue_19.py'])
    expect(run.exitCode).toBe(0)
  })
})

describe('a test command that ends well without starting a runner the tool knows', () => {
  // In-process runs: the error path, before any test runs. Guessing a runner from the files would run
  // tests the repository itself does not (its own harness, `bun test`, or none at all).
  const hint = 'set test-command to the command that runs one test file ({files} marks where it goes), or framework to the runner its tests use'

  test('make test that only echoes: error, with the command, what it printed and the setting to use', async () => {
    const run = await runCliOnFixture({ fixture: 'wordcount-make-pytest', fixtureOptions: { baseChanges: { Makefile: 'test:\n\techo "no tests yet"\n' } } })
    expect(run.report).toMatchObject({ verdict: 'error', framework: null })
    expect(run.report.reason).toMatch(/^The repository's test command `make test` \(the Makefile's test target\) started no test runner regression-testgen knows \(exit 0\).*no tests yet/s)
    expect(run.report.runner).toMatchObject({ captured: false, command: 'make test', source: "the Makefile's test target", runner: null })
    expect(run.log.join('\n')).toContain(hint)
    expect(run.exitCode).toBe(2)
  })

  test('a package whose test script runs its own harness: error naming the script, though jest is installed and configured', async () => {
    const manifest = { name: 'tiny-range', private: true, scripts: { test: 'node -e "console.log(\'own harness: 12 checks passed\')"' }, jest: { moduleNameMapper: { '^@units/(.*)$': '<rootDir>/src/$1' } } }
    const run = await runCliOnFixture({ fixture: 'range-wrapper', fixtureOptions: { baseChanges: { 'package.json': JSON.stringify(manifest, null, 2) } } })
    expect(run.report).toMatchObject({ verdict: 'error', runner: { captured: false, command: 'npm test' } })
    expect(run.report.reason).toContain('own harness: 12 checks passed')
    expect(run.report.runner?.source).toContain('the test script: node -e')
    expect(run.report.preflight).toBeNull()
  })

  test('the framework setting names the runner: the run goes on with it, and proves the fix', async () => {
    const manifest = { name: 'tiny-range', private: true, scripts: { test: 'node -e "console.log(\'own harness\')"' }, jest: { moduleNameMapper: { '^@units/(.*)$': '<rootDir>/src/$1' } } }
    const run = await runCliOnFixture({ fixture: 'range-wrapper', args: ['--framework', 'jest'], fixtureOptions: { baseChanges: { 'package.json': JSON.stringify(manifest, null, 2) } } })
    expect(run.log.join('\n')).toContain("Going on with the framework setting's jest")
    expect(run.report).toMatchObject({ verdict: 'fail-to-pass', framework: 'jest', runner: { captured: false } })
  })
})
