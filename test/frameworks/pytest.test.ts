import { execFileSync } from 'node:child_process'
import { mkdir, mkdtemp, rm, symlink, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { dirname, join } from 'node:path'
import { locate, MODULE_SKIPPED } from '../../src/frameworks/pytest-reports.js'
import { createPytestAdapter, pytestAdapter } from '../../src/frameworks/pytest.js'
import { findPython, pythonSourceRoots, SYSTEM_PYTHONS } from '../../src/frameworks/python.js'
import { createProcessRunner } from '../../src/ports/process.js'
import { describeWhereTestPython } from '../support/test-python.js'

// A src layout whose pytest config does not put src/ on sys.path: the adapter's PYTHONPATH must.
const FILES: Record<string, string> = {
  'pyproject.toml': '[project]\nname = "calc"\nversion = "0.1.0"\n\n[tool.pytest.ini_options]\ntestpaths = ["tests"]\n',
  'src/calc/__init__.py': '',
  'src/calc/ops.py': 'def add(a, b):\n    return a + b\n\n\ndef div(a, b):\n    if b == 0:\n        raise ZeroDivisionError("b is zero")\n    return a / b\n',
  'tests/test_ops.py': `import pytest
from calc.ops import add, div


class TestAdd:
    def test_adds(self):
        assert add(1, 2) == 3

    def test_wrong(self):
        assert add(1, 2) == 4

    class TestNested:
        @pytest.mark.parametrize("a,b", [(1, 1), (2.5, 0.5)])
        def test_param(self, a, b):
            assert add(a, b) > 0


@pytest.mark.skip(reason="not today")
def test_skipped():
    pass


@pytest.fixture
def broken():
    raise RuntimeError("fixture boom")


def test_errors(broken):
    pass
`,
  'tests/test_broken.py': 'import calc.nonexistent\n',
  'tests/test_helpers_only.py': 'def helper():\n    return 1\n'
}

async function writeProject(dir: string, files: Record<string, string>): Promise<void> {
  for (const [path, content] of Object.entries(files)) {
    await mkdir(dirname(join(dir, path)), { recursive: true })
    await writeFile(join(dir, path), content)
  }
}

const processes = createProcessRunner()
// Debian's python3-pytest and python3-coverage (the test setup, test/support/test-python.ts, installs them), as a stand-in virtualenv.
const DEBIAN_PYTHON = '/usr/bin/python3'
const describeWithPython = describeWhereTestPython()

/** Whether `python` imports a module, asked directly (not through the code under test). */
function imports(python: string, module: string): boolean {
  try {
    execFileSync(python, ['-c', `import ${module}`], { stdio: 'ignore' })
    return true
  } catch {
    return false
  }
}

/** What this machine offers: the first interpreter with pytest and coverage.py, else the first with pytest. */
function expectedSystemPython(): { command: string; hasCoverage: boolean } | null {
  const withPytest = SYSTEM_PYTHONS.filter((python) => imports(python, 'pytest'))
  const withCoverage = withPytest.find((python) => imports(python, 'coverage'))
  if (withCoverage) return { command: withCoverage, hasCoverage: true }
  return withPytest.length ? { command: withPytest[0], hasCoverage: false } : null
}

type Interpreters = 'on offer' | 'debian' | 'virtualenv'

// The same project under whatever this machine offers (PATH's python3 may be a version manager's, without
// coverage.py), under Debian's python3 alone (always with coverage.py), and in a virtualenv.
describeWithPython.each<[string, Interpreters]>([
  ['the interpreters on offer', 'on offer'],
  ["Debian's python3 only", 'debian'],
  ['a virtualenv', 'virtualenv']
])('pytestAdapter.run with %s', (_label, interpreters) => {
  let treeDir: string
  let scratchDir: string
  const systemPythons = interpreters === 'debian' ? [DEBIAN_PYTHON] : SYSTEM_PYTHONS
  const adapter = createPytestAdapter({ pythons: systemPythons })
  const expected = () => {
    if (interpreters === 'on offer') return expectedSystemPython()!
    return { command: interpreters === 'debian' ? DEBIAN_PYTHON : join(treeDir, '.venv', 'bin', 'python'), hasCoverage: true }
  }
  const search = () => findPython(treeDir, processes, { systemPythons })

  beforeAll(async () => {
    treeDir = await mkdtemp(join(tmpdir(), 'pytest-adapter-tree-'))
    scratchDir = await mkdtemp(join(tmpdir(), 'pytest-adapter-scratch-'))
    await writeProject(treeDir, FILES)
    if (interpreters === 'virtualenv') {
      await mkdir(join(treeDir, '.venv', 'bin'), { recursive: true })
      await symlink(DEBIAN_PYTHON, join(treeDir, '.venv', 'bin', 'python'))
    }
  })

  it('runs the expected interpreter, and says so first in its output', async () => {
    const python = (await search()).interpreter!
    expect(python).toMatchObject(expected())
    expect(python.pytestVersion).toMatch(/^\d+\.\d+/)
    expect(python.coverageVersion === null).toBe(!python.hasCoverage)
    const result = await adapter.run({ treeDir, files: ['tests/test_helpers_only.py'], scratchDir, timeoutMs: 60000 }, processes)
    expect(result.output.split('\n')[0]).toBe(
      `Python for pytest: ${python.executable} (Python ${python.pythonVersion}, pytest ${python.pytestVersion}, ${python.hasCoverage ? `coverage.py ${python.coverageVersion}` : 'no coverage.py'}), probed:`
    )
  })

  afterAll(async () => {
    await rm(treeDir, { recursive: true, force: true })
    await rm(scratchDir, { recursive: true, force: true })
  })

  it('reads passes, failures, skips and setup errors from the JUnit report; a file that cannot import is a file error', async () => {
    const files = ['tests/test_ops.py', 'tests/test_broken.py']
    const result = await adapter.run({ treeDir, files, scratchDir, timeoutMs: 60000 }, processes)

    expect(result.timedOut).toBe(false)
    expect(result.exitCode).toBe(1)
    expect(result.tests.map(({ file, name, status }) => ({ file, name, status }))).toEqual([
      { file: 'tests/test_ops.py', name: 'TestAdd › test_adds', status: 'passed' },
      { file: 'tests/test_ops.py', name: 'TestAdd › test_wrong', status: 'failed' },
      { file: 'tests/test_ops.py', name: 'TestAdd › TestNested › test_param[1-1]', status: 'passed' },
      { file: 'tests/test_ops.py', name: 'TestAdd › TestNested › test_param[2.5-0.5]', status: 'passed' },
      { file: 'tests/test_ops.py', name: 'test_skipped', status: 'skipped' },
      { file: 'tests/test_ops.py', name: 'test_errors', status: 'errored' }
    ])
    const byName = new Map(result.tests.map((test) => [test.name, test]))
    expect(byName.get('TestAdd › test_adds')).toMatchObject({ message: '', durationMs: expect.any(Number) })
    expect(byName.get('TestAdd › test_wrong')!.message).toMatch(/^assert 3 == 4\n \+  where 3 = add\(1, 2\)/)
    expect(byName.get('TestAdd › test_wrong')!.message).toContain('tests/test_ops.py:10: in test_wrong')
    expect(byName.get('test_skipped')!.message).toContain('not today')
    expect(byName.get('test_errors')!.message).toContain('RuntimeError: fixture boom')

    // --continue-on-collection-errors: the broken file does not stop test_ops.py from running.
    expect(result.fileErrors).toEqual([{ file: 'tests/test_broken.py', message: expect.stringContaining("ModuleNotFoundError: No module named 'calc.nonexistent'") }])
    expect(result.output).toContain('1 failed')
    expect(result.coverage).toBeUndefined()
  })

  it('collects per-line coverage of the tree\'s own modules with coverage.py, when asked', async () => {
    await writeProject(treeDir, { 'tests/test_add_only.py': 'from calc.ops import add\n\n\ndef test_add():\n    assert add(2, 2) == 4\n' })
    const result = await adapter.run({ treeDir, files: ['tests/test_add_only.py'], scratchDir, timeoutMs: 60000, coverage: true }, processes)
    expect(result.tests).toEqual([expect.objectContaining({ name: 'test_add', status: 'passed' })])
    // Without coverage.py (only ever among the interpreters on offer) the run still counts, with no coverage.
    if (!expected().hasCoverage) return expect(result.coverage).toBeUndefined()
    // Test files are not the code under test; `div`'s body never ran.
    expect(result.coverage).toEqual([
      { file: 'src/calc/__init__.py', executableLines: [], coveredLines: [] },
      { file: 'src/calc/ops.py', executableLines: [1, 2, 5, 6, 7, 8], coveredLines: [1, 2, 5] }
    ])
  })

  it("combines the data files of a coverage config with `parallel = true`", async () => {
    await writeProject(treeDir, { '.coveragerc': '[run]\nparallel = True\nrelative_files = True\n' })
    try {
      const result = await adapter.run({ treeDir, files: ['tests/test_add_only.py'], scratchDir, timeoutMs: 60000, coverage: true }, processes)
      if (!expected().hasCoverage) return expect(result.coverage).toBeUndefined()
      expect(result.coverage).toContainEqual({ file: 'src/calc/ops.py', executableLines: [1, 2, 5, 6, 7, 8], coveredLines: [1, 2, 5] })
    } finally {
      await rm(join(treeDir, '.coveragerc'))
    }
  })

  it('reports a module skipped at collection as one skipped result', async () => {
    await writeProject(treeDir, { 'tests/test_optional.py': 'import pytest\n\npytest.importorskip("no_such_module_for_this_test")\n\n\ndef test_never():\n    pass\n' })
    const result = await adapter.run({ treeDir, files: ['tests/test_optional.py'], scratchDir, timeoutMs: 60000 }, processes)
    expect(result.fileErrors).toEqual([])
    expect(result.tests).toEqual([expect.objectContaining({ file: 'tests/test_optional.py', name: MODULE_SKIPPED, status: 'skipped', message: expect.stringContaining('no_such_module_for_this_test') })])
  })

  it('runs nothing for no files (pytest would pick its own)', async () => {
    expect(await adapter.run({ treeDir, files: [], scratchDir, timeoutMs: 60000 }, processes)).toMatchObject({ tests: [], fileErrors: [], exitCode: null })
  })

  it('reports a file without tests (pytest exit 5) as not run, without treating the exit as a crash', async () => {
    const result = await adapter.run({ treeDir, files: ['tests/test_helpers_only.py'], scratchDir, timeoutMs: 60000 }, processes)
    expect(result.exitCode).toBe(5)
    expect(result.tests).toEqual([])
    expect(result.fileErrors).toEqual([{ file: 'tests/test_helpers_only.py', message: expect.stringContaining('collected no tests') }])
  })

  it("runs the repository's own test command, with its variables, adding the reporter flags", async () => {
    const python = (await search()).interpreter!.command
    await writeProject(treeDir, { 'tests/test_env.py': 'import os\n\n\ndef test_sees_tz():\n    assert os.environ["TZ"] == "Pacific/Chatham"\n' })
    const command = ['TZ=Pacific/Chatham', python, '-m', 'pytest', '{files}', '-k', 'sees_tz or adds']
    const result = await adapter.run({ treeDir, files: ['tests/test_env.py', 'tests/test_ops.py'], scratchDir, timeoutMs: 60000, command }, processes)
    expect(result.tests.map(({ name, status }) => ({ name, status }))).toEqual([
      { name: 'test_sees_tz', status: 'passed' },
      { name: 'TestAdd › test_adds', status: 'passed' }
    ])
  })

  it('puts every file in fileErrors with the output tail when pytest times out', async () => {
    await writeProject(treeDir, { 'tests/test_slow.py': 'import time\n\n\ndef test_hangs():\n    time.sleep(600)\n' })
    const result = await adapter.run({ treeDir, files: ['tests/test_slow.py'], scratchDir, timeoutMs: 3000 }, processes)
    expect(result.timedOut).toBe(true)
    expect(result.tests).toEqual([])
    expect(result.fileErrors).toEqual([{ file: 'tests/test_slow.py', message: expect.stringContaining('timed out') }])
  })

  it('stops early with a usage error (exit 4): every file says why', async () => {
    const result = await adapter.run({ treeDir, files: ['tests/test_ops.py'], scratchDir, timeoutMs: 60000, command: [(await search()).interpreter!.command, '-m', 'pytest', '--no-such-flag'] }, processes)
    expect(result.exitCode).toBe(4)
    expect(result.fileErrors).toEqual([{ file: 'tests/test_ops.py', message: expect.stringContaining('unrecognized arguments: --no-such-flag') }])
  })
})

describeWithPython('the Python interpreter', () => {
  it('is one that can import pytest, probed once per tree', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'pytest-python-'))
    try {
      const search = await findPython(dir, processes)
      expect(search.interpreter).toMatchObject(expectedSystemPython()!)
      expect(findPython(dir, processes)).toBe(findPython(dir, processes))
    } finally {
      await rm(dir, { recursive: true, force: true })
    }
  })

  it("is the checkout's virtualenv for a worktree elsewhere (a virtualenv is never committed)", async () => {
    const checkout = await mkdtemp(join(tmpdir(), 'pytest-venv-checkout-'))
    const worktree = join(await mkdtemp(join(tmpdir(), 'pytest-venv-trees-')), 'head')
    const git = (...args: string[]) => execFileSync('git', args, { cwd: checkout, env: { ...process.env, GIT_CONFIG_GLOBAL: '/dev/null', GIT_CONFIG_NOSYSTEM: '1' } })
    try {
      await writeProject(checkout, { 'app.py': 'x = 1\n', '.gitignore': '.venv/\n' })
      git('init', '-q')
      git('add', '-A')
      git('-c', 'user.name=t', '-c', 'user.email=t@t.invalid', 'commit', '-q', '-m', 'init')
      git('worktree', 'add', '-q', '--detach', worktree)
      // A stand-in virtualenv: its python is a link to an interpreter that has pytest.
      await mkdir(join(checkout, '.venv', 'bin'), { recursive: true })
      await symlink(DEBIAN_PYTHON, join(checkout, '.venv', 'bin', 'python'))
      expect((await findPython(worktree, processes)).interpreter?.command).toBe(join(checkout, '.venv', 'bin', 'python'))
    } finally {
      await rm(checkout, { recursive: true, force: true })
      await rm(dirname(worktree), { recursive: true, force: true })
    }
  })

  it('is none when no candidate imports pytest, and says what was tried', async () => {
    const search = await findPython(tmpdir(), processes, { systemPythons: ['/nonexistent/python3'] })
    expect(search.interpreter).toBeNull()
    expect(search.tried).toEqual([expect.stringContaining('/nonexistent/python3: ')])
  })
})

describe('pythonSourceRoots', () => {
  it('finds src/ and the roots of project folders in a monorepo, never a src/ that is itself a package', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'pytest-roots-'))
    try {
      await writeProject(dir, {
        'src/app/__init__.py': '',
        'packages/billing/pyproject.toml': '',
        'packages/billing/src/billing/__init__.py': '',
        'packages/flat/setup.py': '',
        'packages/flat/flat/__init__.py': '',
        'legacy/setup.cfg': '',
        'legacy/src/__init__.py': '',
        'node_modules/x/pyproject.toml': ''
      })
      // legacy/ imports its `src` package from its own root.
      expect(pythonSourceRoots(dir)).toEqual(['src', 'legacy', 'packages/billing/src', 'packages/flat'])
    } finally {
      await rm(dir, { recursive: true, force: true })
    }
  })
})

describe('locate (a JUnit classname → a requested file and its classes)', () => {
  const files = ['tests/test_cart.py', 'pkg/tests/unit/test_tax.py']
  it.each([
    ['tests.test_cart', undefined, { file: 'tests/test_cart.py', classes: [] }],
    ['tests.test_cart.TestTotals.TestEmpty', undefined, { file: 'tests/test_cart.py', classes: ['TestTotals', 'TestEmpty'] }],
    // rootdir is pkg/ (its ini file): addresses are relative to it.
    ['tests.unit.test_tax.TestVat', undefined, { file: 'pkg/tests/unit/test_tax.py', classes: ['TestVat'] }],
    // junit_prefix puts a name in front.
    ['nightly.tests.test_cart.TestTotals', undefined, { file: 'tests/test_cart.py', classes: ['TestTotals'] }],
    // xunit1 / legacy reports carry a file attribute.
    ['tests.unit.test_tax', 'tests/unit/test_tax.py', { file: 'pkg/tests/unit/test_tax.py', classes: [] }],
    ['other.test_misc', undefined, { file: 'other/test_misc.py', classes: [] }]
  ])('%s (file %s)', (address, fileAttribute, expected) => {
    expect(locate(address, fileAttribute, files)).toEqual(expected)
  })
})

describe('pytestAdapter.detect', () => {
  const cases: Array<[string, boolean, Record<string, string>]> = [
    ['a pytest.ini', true, { 'pytest.ini': '[pytest]\n' }],
    ['pyproject.toml with [tool.pytest.ini_options]', true, { 'pyproject.toml': '[project]\nname = "x"\n\n[tool.pytest.ini_options]\naddopts = "-ra"\n' }],
    ['setup.cfg with [tool:pytest]', true, { 'setup.cfg': '[metadata]\nname = x\n\n[tool:pytest]\ntestpaths = tests\n' }],
    ['tox.ini with [pytest]', true, { 'tox.ini': '[tox]\nenvlist = py3\n\n[pytest]\nminversion = 7\n' }],
    ['a conftest.py', true, { 'conftest.py': '' }],
    ['a tests/conftest.py', true, { 'tests/conftest.py': '' }],
    ['test files with a pyproject.toml', true, { 'pyproject.toml': '[project]\nname = "x"\n', 'tests/unit/test_x.py': '' }],
    ['*_test.py files with a setup.py', true, { 'setup.py': '', 'pkg/x_test.py': '' }],
    ['test files without a project file', false, { 'tests/test_x.py': '' }],
    ['a pyproject.toml without tests', false, { 'pyproject.toml': '[project]\nname = "x"\n', 'x/__init__.py': '' }],
    ['tox.ini without a [pytest] section', false, { 'tox.ini': '[tox]\nenvlist = py3\n' }],
    ['a JavaScript project', false, { 'package.json': '{}', 'test/a.test.js': '' }]
  ]

  it.each(cases)('%s → %s', async (_label, expected, files) => {
    const dir = await mkdtemp(join(tmpdir(), 'pytest-detect-'))
    try {
      await writeProject(dir, files)
      expect(await pytestAdapter.detect(dir)).toBe(expected)
    } finally {
      await rm(dir, { recursive: true, force: true })
    }
  })
})

describe('pytestAdapter.isTestFile', () => {
  it.each(['tests/test_cart.py', 'test_cart.py', 'pkg/tests/unit/cart_test.py', 'src/app/test_helpers.py'])('%s is a test file', (path) => {
    expect(pytestAdapter.isTestFile(path)).toBe(true)
  })

  it.each(['tests/conftest.py', 'conftest.py', 'src/app/cart.py', 'tests/helpers.py', 'tests/test_data.json', 'testing.py', '.venv/lib/python3.11/site-packages/x/test_x.py', 'tests/test_x.pyc'])(
    '%s is not a test file',
    (path) => {
      expect(pytestAdapter.isTestFile(path)).toBe(false)
    }
  )
})
