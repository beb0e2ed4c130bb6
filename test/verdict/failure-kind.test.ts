/**
 * Why a test failed before the fix, read from what each real runner reports: a tiny project per runner
 * (real jest, vitest, mocha, ava, node:test and pytest through their adapters), its tests failing in every
 * way, and the kind and first line read from each result and file error.
 */
import { mkdir, mkdtemp, rm, symlink, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { dirname, join, resolve } from 'node:path'
import type { ClassifiedTest, RunResult } from '../../src/domain.js'
import type { FrameworkAdapter } from '../../src/frameworks/adapter.js'
import { avaAdapter } from '../../src/frameworks/ava.js'
import { jestAdapter } from '../../src/frameworks/jest.js'
import { mochaAdapter } from '../../src/frameworks/mocha.js'
import { nodeTestAdapter } from '../../src/frameworks/node-test.js'
import { pytestAdapter } from '../../src/frameworks/pytest.js'
import { vitestAdapter } from '../../src/frameworks/vitest.js'
import { createProcessRunner } from '../../src/ports/process.js'
import { classifyPreFixFailure, failureLine, MAX_LINE_CHARS, onlyLoadFailures, preFixFailureOf, type PreFixFailure } from '../../src/verdict/failure-kind.js'
import { describeWhereTestPython } from '../support/test-python.js'

const OUR_NODE_MODULES = resolve('node_modules')
const dirs: string[] = []

afterAll(() => Promise.all(dirs.map((dir) => rm(dir, { recursive: true, force: true }))))

/** Writes the project, runs the files with the real runner, and reads each test's and file's failure. */
async function runProject(adapter: FrameworkAdapter, files: Record<string, string>, run: string[], node = true) {
  const treeDir = await mkdtemp(join(tmpdir(), `failure-kind-${adapter.name}-`))
  const scratchDir = await mkdtemp(join(tmpdir(), 'failure-kind-scratch-'))
  dirs.push(treeDir, scratchDir)
  for (const [path, content] of Object.entries(files)) {
    await mkdir(dirname(join(treeDir, path)), { recursive: true })
    await writeFile(join(treeDir, path), content)
  }
  if (node) await symlink(OUR_NODE_MODULES, join(treeDir, 'node_modules'), 'dir')
  const result = await adapter.run({ treeDir, files: run, scratchDir, timeoutMs: 120000 }, createProcessRunner())
  const tests = Object.fromEntries(result.tests.map((test) => [test.name, classifyPreFixFailure(test, result)]))
  const fileErrors = Object.fromEntries(result.fileErrors.map((error) => [error.file, preFixFailureOf(undefined, error.message)]))
  return { result, tests, fileErrors }
}

const failure = (kind: PreFixFailure['kind'], line: string | RegExp) => ({ kind, line: typeof line === 'string' ? line : expect.stringMatching(line) })

describe('jest', () => {
  it('tells an expectation from a throw, a timeout, a missing module, and a hook that threw', async () => {
    const { tests, fileErrors } = await runProject(
      jestAdapter,
      {
        'package.json': JSON.stringify({ name: 'tiny', version: '1.0.0', scripts: { test: 'jest' }, devDependencies: { jest: '*' } }),
        'src/add.js': 'exports.add = (a, b) => a + b\n',
        'test/add.test.js': `const assert = require('node:assert')
const { add } = require('../src/add')

describe('add', () => {
  it('expects', () => { expect(add(1, 2)).toBe(4) })
  it('asserts', () => { assert.strictEqual(add(1, 2), 4) })
  it('throws', () => { add(1, 2).toFixed(1).missing.x })
  it('rejects', async () => { await expect(Promise.reject(new RangeError('no budget'))).resolves.toBe(3) })
  it('hangs', async () => { await new Promise(() => {}) }, 300)
})
describe('after a setup that throws', () => {
  beforeEach(() => { throw new TypeError('setup broke') })
  it('needs the setup', () => { expect(add(1, 2)).toBe(3) })
})
`,
        'test/missing.test.js': "const { subtract } = require('../src/subtract')\n\ntest('subtracts', () => expect(subtract(2, 1)).toBe(1))\n"
      },
      ['test/add.test.js', 'test/missing.test.js']
    )
    expect(tests).toEqual({
      'add › expects': failure('assertion', 'expect(received).toBe(expected) // Object.is equality Expected: 4 Received: 3'),
      'add › asserts': failure('assertion', 'assert.strictEqual(received, expected) Expected value to strictly be equal to: 4 Received: 3'),
      'add › throws': failure('exception', "TypeError: Cannot read properties of undefined (reading 'x')"),
      // The matcher saw a rejected promise: the code threw.
      'add › rejects': failure('exception', /Received promise rejected instead of resolved Rejected to value: \[RangeError: no budget\]$/),
      'add › hangs': failure('timeout', 'Exceeded timeout of 300 ms for a test.'),
      // jest reports a hook's error as the test's; its stack says a hook threw it.
      'after a setup that throws › needs the setup': failure('not-run', 'a hook failed: TypeError: setup broke')
    })
    expect(fileErrors).toEqual({ 'test/missing.test.js': failure('load', "Cannot find module '../src/subtract' from 'test/missing.test.js'") })
  })
})

describe('vitest', () => {
  it('reads its AssertionError, its timeout (STACK_TRACE_ERROR), an undefined import called, and a module that is not there', async () => {
    const { tests, fileErrors } = await runProject(
      vitestAdapter,
      {
        'package.json': JSON.stringify({ name: 'tiny', version: '1.0.0', type: 'module', scripts: { test: 'vitest' }, devDependencies: { vitest: '*' } }),
        'vitest.config.ts': "import { defineConfig } from 'vitest/config'\n\nexport default defineConfig({ test: { include: ['test/**/*.test.ts'] } })\n",
        'src/add.ts': 'export const add = (a: number, b: number): number => a + b\n',
        'test/add.test.ts': `import { describe, expect, it } from 'vitest'
// @ts-expect-error: what the fix adds, not there yet
import { add, addAll } from '../src/add.js'

describe('add', () => {
  it('expects', () => { expect(add(1, 2)).toBe(4) })
  it('throws', () => { (add(1, 2) as unknown as { x: { y: number } }).x.y })
  it('hangs', async () => { await new Promise(() => {}) }, 300)
  it('calls what the fix adds', () => { addAll([1, 2]) })
})
`,
        'test/missing.test.ts': "import { it } from 'vitest'\nimport { subtract } from '../src/subtract.js'\n\nit('subtracts', () => subtract(2, 1))\n"
      },
      ['test/add.test.ts', 'test/missing.test.ts']
    )
    expect(tests).toEqual({
      'add › expects': failure('assertion', 'AssertionError: expected 3 to be 4 // Object.is equality'),
      'add › throws': failure('exception', "TypeError: Cannot read properties of undefined (reading 'y')"),
      'add › hangs': failure('timeout', 'test timed out (vitest reports it as STACK_TRACE_ERROR)'),
      // vitest binds an import that is not there to undefined: calling it fails like this.
      'add › calls what the fix adds': failure('load', 'TypeError: (0 , addAll) is not a function')
    })
    expect(fileErrors).toEqual({ 'test/missing.test.ts': failure('load', /^Cannot find module '\.\.\/src\/subtract\.js' imported from /) })
  })
})

describe('mocha', () => {
  it("reads node:assert, a throw, mocha's timeout, a test a hook kept from running, and a require that fails", async () => {
    const { tests, fileErrors } = await runProject(
      mochaAdapter,
      {
        'package.json': JSON.stringify({ name: 'tiny', version: '1.0.0', scripts: { test: 'mocha' }, devDependencies: { mocha: '*' } }),
        'src/add.js': 'exports.add = (a, b) => a + b\n',
        'test/add.test.js': `const assert = require('node:assert')
const { add } = require('../src/add')

describe('add', () => {
  it('asserts', () => { assert.strictEqual(add(1, 2), 4) })
  it('throws', () => { add(1, 2).toFixed(1).missing.x })
  it('hangs', async function () { this.timeout(200); await new Promise(() => {}) })
})
describe('after a setup that throws', () => {
  beforeEach(async () => { await null; throw new TypeError('setup broke') })
  it('needs the setup', () => { assert.strictEqual(add(1, 2), 3) })
})
`,
        'test/missing.test.js': "const { subtract } = require('../src/subtract')\n\nit('subtracts', () => subtract(2, 1))\n"
      },
      ['test/add.test.js', 'test/missing.test.js']
    )
    expect(tests).toEqual({
      'add › asserts': failure('assertion', 'AssertionError [ERR_ASSERTION]: Expected values to be strictly equal: 3 !== 4'),
      'add › throws': failure('exception', "TypeError: Cannot read properties of undefined (reading 'x')"),
      'add › hangs': failure('timeout', 'Error: Timeout of 200ms exceeded.'),
      // --fail-hook-affected-tests: reported failed, without a duration (errored): it never ran.
      'after a setup that throws › needs the setup': failure('not-run', /^Test skipped due to failure in hook .*"before each" hook for "needs the setup".*: setup broke$/)
    })
    expect(fileErrors).toEqual({
      'test/add.test.js': failure('not-run', /"before each" hook for "needs the setup": TypeError: setup broke$/),
      'test/missing.test.js': failure('load', "Error: Cannot find module '../src/subtract'")
    })
  })
})

describe('ava', () => {
  it("reads ava's assertions, a thrown error, a rejected promise, t.timeout, a failed beforeEach, and a missing export", async () => {
    const { tests, fileErrors } = await runProject(
      avaAdapter,
      {
        'package.json': JSON.stringify({ name: 'tiny', version: '1.0.0', type: 'module', scripts: { test: 'ava' }, devDependencies: { ava: '*' } }),
        'src/add.js': 'export const add = (a, b) => a + b\n',
        'test/add.test.js': `import test from 'ava'
import { add } from '../src/add.js'

test('is', (t) => { t.is(add(1, 2), 4) })
test('throws', (t) => { add(1, 2).toFixed(1).missing.x; t.pass() })
test('rejects', async (t) => { await Promise.reject(new RangeError('no budget')); t.pass() })
test('hangs', async (t) => { t.timeout(200); await new Promise(() => {}) })
`,
        'test/setup.test.js': `import test from 'ava'

test.beforeEach(() => { throw new TypeError('setup broke') })
test('needs the setup', (t) => { t.pass() })
`,
        'test/missing.test.js': "import test from 'ava'\nimport { subtract } from '../src/add.js'\n\ntest('subtracts', (t) => t.is(subtract(2, 1), 1))\n"
      },
      ['test/add.test.js', 'test/setup.test.js', 'test/missing.test.js']
    )
    expect(tests).toEqual({
      is: failure('assertion', 'assertion: t.is() Difference (- actual, + expected): - 3 + 4'),
      throws: failure('exception', "Error thrown in test: TypeError: Cannot read properties of undefined (reading 'x')"),
      rejects: failure('exception', 'Rejected promise returned by test: RangeError: no budget'),
      hangs: failure('timeout', 'Error: Test timeout exceeded')
    })
    // ava leaves out a test whose beforeEach failed, and a file whose import failed: file errors.
    expect(fileErrors).toEqual({
      'test/setup.test.js': failure('not-run', 'beforeEach hook for needs the setup failed: TypeError: setup broke'),
      'test/missing.test.js': failure('load', "SyntaxError: The requested module '../src/add.js' does not provide an export named 'subtract'")
    })
  })
})

describe('node:test', () => {
  it('reads node:assert, a throw, its timeout, hooks that failed, and an ESM import of what is not there', async () => {
    const { tests, fileErrors } = await runProject(
      nodeTestAdapter,
      {
        'package.json': JSON.stringify({ name: 'tiny', version: '1.0.0', type: 'module', scripts: { test: 'node --test' } }),
        'src/add.js': 'export const add = (a, b) => a + b\n',
        'test/add.test.js': `import assert from 'node:assert'
import { before, beforeEach, describe, it } from 'node:test'
import { add } from '../src/add.js'

describe('add', () => {
  it('asserts', () => { assert.strictEqual(add(1, 2), 4) })
  it('throws', () => { add(1, 2).toFixed(1).missing.x })
  it('hangs', { timeout: 200 }, async () => { await new Promise((done) => setTimeout(done, 1000)) })
})
describe('after a setup that throws', () => {
  beforeEach(() => { throw new TypeError('setup broke') })
  it('needs the setup', () => {})
})
describe('after a suite setup that throws', () => {
  before(() => { throw new TypeError('suite setup broke') })
  it('needs the suite setup', () => {})
})
`,
        'test/missing.test.js': "import { it } from 'node:test'\nimport { subtract } from '../src/add.js'\n\nit('subtracts', () => subtract(2, 1))\n"
      },
      ['test/add.test.js', 'test/missing.test.js']
    )
    expect(tests).toEqual({
      'add › asserts': failure('assertion', 'AssertionError [ERR_ASSERTION]: Expected values to be strictly equal: 3 !== 4'),
      'add › throws': failure('exception', "TypeError [Error]: Cannot read properties of undefined (reading 'x')"),
      'add › hangs': failure('timeout', 'test timed out after 200ms'),
      'after a setup that throws › needs the setup': failure('not-run', 'failed running beforeEach hook: TypeError [Error]: setup broke'),
      'after a suite setup that throws › needs the suite setup': failure('not-run', /^failed running before hook: TypeError \[Error\]: suite setup broke$|cancelled/)
    })
    expect(fileErrors).toEqual({ 'test/missing.test.js': failure('load', "SyntaxError: The requested module '../src/add.js' does not provide an export named 'subtract'") })
  })
})

describeWhereTestPython()('pytest', () => {
  it('reads a rewritten assert, an exception, DID NOT RAISE, a fixture error, and imports of what is not there', async () => {
    const { tests, fileErrors } = await runProject(
      pytestAdapter,
      {
        'pyproject.toml': '[project]\nname = "calc"\nversion = "0.1.0"\n\n[tool.pytest.ini_options]\npythonpath = ["src"]\ntestpaths = ["tests"]\n',
        'src/calc/__init__.py': '',
        'src/calc/ops.py': 'def add(a, b):\n    return a + b\n',
        'tests/test_ops.py': `import pytest
import calc.ops as ops
from calc.ops import add


def test_asserts():
    assert add(1, 2) == 4


def test_raises():
    {3: "three"}[add(2, 2)]


def test_did_not_raise():
    with pytest.raises(ValueError):
        add(1, 2)


def test_calls_what_the_fix_adds():
    ops.add_all([1, 2])


@pytest.fixture
def cart():
    raise RuntimeError("fixture broke")


def test_needs_the_fixture(cart):
    pass
`,
        'tests/test_missing.py': 'from calc.ops import subtract\n\n\ndef test_subtracts():\n    assert subtract(2, 1) == 1\n'
      },
      ['tests/test_ops.py', 'tests/test_missing.py'],
      false
    )
    expect(tests).toEqual({
      test_asserts: failure('assertion', 'assert 3 == 4 + where 3 = add(1, 2)'),
      test_raises: failure('exception', 'KeyError: 4'),
      test_did_not_raise: failure('assertion', "Failed: DID NOT RAISE <class 'ValueError'>"),
      test_calls_what_the_fix_adds: failure('load', "AttributeError: module 'calc.ops' has no attribute 'add_all'"),
      // A fixture is pytest's setup: the test's own code never ran.
      test_needs_the_fixture: failure('not-run', 'failed on setup with "RuntimeError: fixture broke"')
    })
    expect(fileErrors).toEqual({ 'tests/test_missing.py': failure('load', /^ImportError: cannot import name 'subtract' from 'calc\.ops'/) })
  })
})

describe('what the runners here cannot show', () => {
  // Words of runners and plugins not installed here, as they print them.
  it.each([
    ['jest-jasmine2', 'Error: Timeout - Async callback was not invoked within the 5000 ms timeout specified by jest.setTimeout.', 'timeout'],
    ['pytest-timeout', 'Failed: Timeout >1.0s\n\ntests/test_slow.py:4: in test_slow', 'timeout'],
    ['vitest 0.x', 'Error: Test timed out in 5000ms.\nIf this is a long-running test, pass a timeout value', 'timeout'],
    ['ts-jest, an import of what the fix added', "TypeError: (0 , retry_budget_1.withBudget) is not a function\n    at Object.<anonymous> (test/a.test.ts:5:9)", 'load'],
    ['vite-node', 'TypeError: __vi_import_0__.withBudget is not a function', 'load'],
    ['chai', "AssertionError: expected 3 to equal 4\n    at Context.<anonymous> (test/a.test.js:5:20)", 'assertion'],
    ['jest, a thrown non-error', 'thrown: 42', 'exception'],
    // vitest 0.33's JSON report: the message alone, no `AssertionError:` or `TypeError:` before it.
    ['vitest 0.33, toBe', "expected '/./' to be '/' // Object.is equality", 'assertion'],
    ['vitest 0.33, toEqual', 'expected { a: 1 } to deeply equal { a: 2 }', 'assertion'],
    ['vitest 0.33, toThrow', 'expected [Function] to throw an error', 'assertion'],
    ['vitest 0.33, the code threw', "Cannot read properties of null (reading 'x')", 'exception'],
    ['an error of the code under test that begins with "expected"', 'expected a number, got string', 'exception']
  ] as const)('%s', (_runner, message, kind) => {
    expect(preFixFailureOf({ file: 'f', name: 'n', status: 'failed', durationMs: 1, message }, undefined)?.kind).toBe(kind)
  })

  it('reads a file error by its first line: a run out of time, a file never reached, a type error', () => {
    const kindOf = (message: string) => preFixFailureOf(undefined, message)
    expect(kindOf('jest timed out after 60000 ms\nPASS test/a.test.ts')).toEqual({ kind: 'timeout', line: 'jest timed out after 60000 ms' })
    expect(kindOf('not run: the files before it used up the 3000 ms time limit')?.kind).toBe('not-run')
    expect(kindOf("● Test suite failed to run\n\n    test/a.test.ts:1:10 - error TS2305: Module '\"../src/budget\"' has no exported member 'withBudget'.")).toEqual({
      kind: 'load',
      line: "test/a.test.ts:1:10 - error TS2305: Module '\"../src/budget\"' has no exported member 'withBudget'."
    })
  })

  it('keeps a line to one line of at most MAX_LINE_CHARS', () => {
    const line = failureLine(`AssertionError: ${'x'.repeat(500)}\nmore`, 'assertion')
    expect(line).toHaveLength(MAX_LINE_CHARS)
    expect(line.endsWith('…')).toBe(true)
  })
})

describe('classifyPreFixFailure', () => {
  const run = (tests: RunResult['tests'], fileErrors: RunResult['fileErrors'] = []): RunResult => ({ tests, fileErrors, exitCode: 1, timedOut: false, durationMs: 1, output: '' })

  it("takes the test's own result over its file's error, and is null when it did not fail", () => {
    const passed = { file: 'a.js', name: 'n', status: 'passed' as const, durationMs: 1, message: '' }
    expect(classifyPreFixFailure(passed, run([passed], [{ file: 'a.js', message: '"after all" hook: boom' }]))).toBeNull()
    expect(classifyPreFixFailure(passed, run([]))).toBeNull()
    expect(classifyPreFixFailure(passed, null)).toBeNull()
    expect(classifyPreFixFailure(passed, run([], [{ file: 'a.js', message: "Cannot find module './b'" }]))).toEqual({ kind: 'load', line: "Cannot find module './b'" })
  })
})

describe('onlyLoadFailures', () => {
  const test = (kind: ClassifiedTest['kind'], preFixFailure: ClassifiedTest['preFixFailure']): ClassifiedTest => ({
    file: 'a',
    name: 'n',
    head: 'passed',
    preFix: 'failed',
    kind,
    flaky: false,
    message: '',
    scenario: null,
    preFixFailure,
    preFixFailureLine: preFixFailure && 'line'
  })

  it('is true only when there are fail-to-pass tests and each failed by its file not loading', () => {
    expect(onlyLoadFailures([test('fail-to-pass', 'load'), test('pass-to-pass', null)])).toBe(true)
    expect(onlyLoadFailures([test('fail-to-pass', 'load'), test('fail-to-pass', 'assertion')])).toBe(false)
    expect(onlyLoadFailures([test('pass-to-pass', null)])).toBe(false)
    expect(onlyLoadFailures([])).toBe(false)
  })
})
