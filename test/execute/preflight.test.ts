/**
 * The preflight's choices: which test files it tries, in which order, and whose failure a run without a test
 * is (the file's: try the next one; the runner's: stop). The runs themselves are in test/e2e/preflight.test.ts.
 */
import type { ChangedFile, ChangeSet, RunResult } from '../../src/domain.js'
import { blame, preflightCandidates, preflightFailure, PREFLIGHT_TRIES } from '../../src/execute/preflight.js'
import { jestAdapter } from '../../src/frameworks/jest.js'
import { mochaAdapter } from '../../src/frameworks/mocha.js'

const changed = (path: string, status: ChangedFile['status'], role: ChangedFile['role'] = path.includes('test') ? 'test' : 'source'): ChangedFile => ({
  path,
  basePath: status === 'added' ? null : path,
  status,
  role,
  hunks: []
})
const changeSet = (...files: ChangedFile[]): ChangeSet => ({ base: 'b', head: 'h', mergeBase: 'b', files })

describe('preflightCandidates', () => {
  const headFiles = ['lib/parse.js', 'lib/coerce.js', 'test/parse.js', 'test/parse.test.js', 'test/coerce.test.js', 'test/setup.js', 'test/zz/other.test.js']

  it('generate mode: the nearest existing tests, a helper the framework takes for a test among them, at most three', () => {
    const candidates = preflightCandidates(changeSet(changed('lib/parse.js', 'modified')), headFiles, mochaAdapter, 'generate')
    // mocha takes any script in test/ that is not named as a helper for a test file: test/parse.js is tried first.
    expect(candidates).toEqual(['test/parse.js', 'test/parse.test.js', 'test/coerce.test.js'])
    expect(candidates).toHaveLength(PREFLIGHT_TRIES)
  })

  it('verify mode: the pull request’s own tests first, nearest to the changed code; then the tests it changed, then the rest', () => {
    const files = changeSet(changed('lib/parse.js', 'modified'), changed('test/zz/parse-flags.test.js', 'added'), changed('test/parse.test.js', 'modified'))
    const head = [...headFiles, 'test/zz/parse-flags.test.js']
    expect(preflightCandidates(files, head, mochaAdapter, 'verify')).toEqual(['test/parse.test.js', 'test/zz/parse-flags.test.js', 'test/parse.js'])
  })

  it('generate mode: a test the fix changed first (as the style example), the tests it adds only after the untouched ones', () => {
    const files = changeSet(changed('lib/parse.js', 'modified'), changed('test/parse-new.test.js', 'added'), changed('test/coerce.test.js', 'modified'))
    const head = ['lib/parse.js', 'test/coerce.test.js', 'test/parse-new.test.js', 'test/zz/other.test.js']
    expect(preflightCandidates(files, head, mochaAdapter, 'generate')).toEqual(['test/coerce.test.js', 'test/zz/other.test.js', 'test/parse-new.test.js'])
  })

  it('never a file the fix deleted, nor one the framework does not run', () => {
    const files = changeSet(changed('src/a.ts', 'modified'), changed('test/a.test.ts', 'deleted'), changed('test/helpers/a.ts', 'modified'))
    const head = ['src/a.ts', 'test/helpers/a.ts', 'test/b.test.ts', 'test/fixtures/a.test.ts']
    expect(preflightCandidates(files, head, jestAdapter, 'verify')).toEqual(['test/fixtures/a.test.ts', 'test/b.test.ts'])
    expect(preflightCandidates(files, head, mochaAdapter, 'verify')).toEqual(['test/b.test.ts'])
    expect(preflightCandidates(changeSet(changed('src/a.ts', 'modified')), ['src/a.ts'], jestAdapter, 'generate')).toEqual([])
  })
})

describe('blame: whose failure a run without a test is', () => {
  const FILE = 'test/util.ts'
  const run = (message: string, extra: Partial<RunResult> = {}): RunResult => ({
    tests: [],
    fileErrors: [{ file: FILE, message }],
    exitCode: 1,
    timedOut: false,
    durationMs: 10,
    output: message,
    ...extra
  })

  test.each([
    ['mocha reported no test in it (a helper)', 'mocha ran no test from this file (does it define any, with the interface the mocha config sets?)'],
    ['jest did not collect it', 'jest did not run this file (does it match the testMatch / testRegex of the jest config?)'],
    ['pytest collected no test from it', "pytest collected no tests from this file (do its tests match the repository's python_files / python_functions settings?)"],
    ['node:test ran none', 'node:test ran no test from this file (does it call test() or it() from node:test?)'],
    ['its own syntax error', `mocha wrote no report (exit 1)\n/t/trees/head/${FILE}:3\n  it('x', () => {\n          ^\nSyntaxError: Unexpected token ')'`],
    ['its own import', `Cannot find module './fixtures/data' from '${FILE}'`]
  ])('the file’s: %s', (_name, message) => {
    expect(blame(run(message), FILE)).toBe('file')
  })

  it('the file’s: every test of it skipped', () => {
    const skipped = run('', { fileErrors: [], exitCode: 0, tests: [{ file: FILE, name: 'a', status: 'skipped', message: '', durationMs: null }] })
    expect(blame(skipped, FILE)).toBe('file')
  })

  test.each([
    ['the jest config throws', 'jest wrote no report (exit 1)\nError: This jest config needs the private registry\n    at Object.<anonymous> (/t/trees/head/jest.config.js:1:7)'],
    ['a setup file mocha requires throws', "mocha wrote no report (exit 1)\nError: the setup needs DATABASE_URL\n    at Object.<anonymous> (/t/trees/head/test/setup.js:1:7)"],
    ['a module of the runner is missing', "mocha wrote no report (exit 1)\nError: Cannot find module 'ts-node/register'\nRequire stack:\n- /t/node_modules/mocha/lib/cli/run-helpers.js"],
    ['the runner is not installed', 'jest is not installed in /t/trees/head (cannot resolve jest/package.json from it)'],
    ['a conftest does not load, even when the error names the file', `ImportError while loading conftest '/t/tests/conftest.py'.\nE   ModuleNotFoundError: No module named 'attr' (${FILE})`],
    ['vitest cannot load its config', 'failed to load config from /t/vitest.config.ts\n⎯⎯⎯ Startup Error ⎯⎯⎯'],
    ['build output is missing', `Cannot find module '../dist/index.js' from '${FILE}'`]
  ])('the runner’s: %s', (_name, message) => {
    expect(blame(run(message), FILE)).toBe('runner')
  })

  it('the runner’s: a timeout (every file would cost as much)', () => {
    expect(blame(run(`mocha timed out after 1000 ms\n${FILE}`, { timedOut: true, exitCode: null }), FILE)).toBe('runner')
  })
})

describe('preflightFailure', () => {
  const base = { command: 'node mocha test/c.test.js', ok: false, durationMs: 30 }

  it('one file tried: its file, what it gave, the command and the setting to change', () => {
    const detail = 'no test results (exit 1): Error: This jest config needs the private registry'
    const error = preflightFailure({ ...base, file: 'test/a.test.js', detail, tried: [{ file: 'test/a.test.js', detail }] })
    expect(error.message).toBe(`The repository's tests cannot run here: test/a.test.js gave ${detail} — command: node mocha test/c.test.js`)
    expect(error.hint).toMatch(/^set test-command to the repository's own way of running one test file/)
  })

  it('several tried: every file and what it gave', () => {
    const tried = [
      { file: 'test/a.js', detail: 'no test results (exit 0): mocha ran no test from this file' },
      { file: 'test/b.test.js', detail: 'no test ran at head: all 2 skipped' },
      { file: 'test/c.test.js', detail: 'no test results (exit 0): mocha ran no test from this file' }
    ]
    const error = preflightFailure({ ...base, file: 'test/c.test.js', detail: tried[2].detail, tried })
    expect(error.message).toBe(
      "The repository's tests cannot run here: none of the 3 test files tried ran a test: test/a.js gave no test results (exit 0): mocha ran no test from this file; " +
        'test/b.test.js gave no test ran at head: all 2 skipped; test/c.test.js gave no test results (exit 0): mocha ran no test from this file — command: node mocha test/c.test.js'
    )
  })
})
