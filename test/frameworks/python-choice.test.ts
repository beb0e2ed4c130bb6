/**
 * Which Python runs a repository's pytest: the first whose pytest imports *and* loads the repository's
 * configuration and conftest.py files. Real interpreters: virtualenvs made from Debian's python3 (which has
 * python3-pytest and python3-coverage), each given or denied a module the repository's conftest.py needs.
 */
import { execFileSync } from 'node:child_process'
import { mkdir, mkdtemp, rm, symlink, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { dirname, join } from 'node:path'
import { createPytestAdapter } from '../../src/frameworks/pytest.js'
import { findPython, SYSTEM_PYTHONS } from '../../src/frameworks/python.js'
import { createProcessRunner } from '../../src/ports/process.js'
import { describeWhereTestPython } from '../support/test-python.js'

const DEBIAN_PYTHON = '/usr/bin/python3'
const describeWithPython = describeWhereTestPython()
const processes = createProcessRunner()
const GIT_ENV = { ...process.env, GIT_CONFIG_GLOBAL: '/dev/null', GIT_CONFIG_NOSYSTEM: '1' }

let workDir: string

beforeAll(async () => {
  workDir = await mkdtemp(join(tmpdir(), 'python-choice-'))
})

afterAll(async () => {
  await rm(workDir, { recursive: true, force: true })
})

async function writeFiles(dir: string, files: Record<string, string>): Promise<void> {
  for (const [path, content] of Object.entries(files)) {
    await mkdir(dirname(join(dir, path)), { recursive: true })
    await writeFile(join(dir, path), content)
  }
}

interface VirtualenvOptions {
  /** See Debian's packages (pytest, coverage.py); false: a bare interpreter without pytest. */
  systemPackages?: boolean
  /** Modules only this interpreter has. */
  modules?: Record<string, string>
  /** Shadow coverage.py with a package that cannot be imported. */
  withoutCoverage?: boolean
}

/** A real, distinct interpreter: a virtualenv of Debian's python3. Returns its `bin/python`. */
async function virtualenv(name: string, options: VirtualenvOptions = {}): Promise<string> {
  const dir = join(workDir, name)
  execFileSync(DEBIAN_PYTHON, ['-m', 'venv', '--without-pip', ...(options.systemPackages === false ? [] : ['--system-site-packages']), dir])
  const python = join(dir, 'bin', 'python')
  const sitePackages = execFileSync(python, ['-c', 'import sysconfig; print(sysconfig.get_paths()["purelib"])'], { encoding: 'utf8' }).trim()
  const shadow: Record<string, string> = options.withoutCoverage ? { 'coverage/__init__.py': 'raise ImportError("coverage.py is not installed here")\n' } : {}
  await writeFiles(sitePackages, { ...options.modules, ...shadow })
  return python
}

/** A committed project, run (as the tool does) in a git worktree outside the checkout. */
async function repository(name: string, files: Record<string, string>): Promise<{ checkout: string; tree: string }> {
  const checkout = join(workDir, `${name}-checkout`)
  const tree = join(workDir, `${name}-tree`)
  await writeFiles(checkout, { '.gitignore': '.venv/\n', ...files })
  const git = (...args: string[]) => execFileSync('git', args, { cwd: checkout, env: GIT_ENV, stdio: 'ignore' })
  git('init', '-q')
  git('add', '-A')
  git('-c', 'user.name=t', '-c', 'user.email=t@t.invalid', 'commit', '-q', '-m', 'init')
  git('worktree', 'add', '-q', '--detach', tree)
  return { checkout, tree }
}

// The repository's conftest.py needs a test helper package that only some interpreters have installed.
const NEEDS_TESTKIT = {
  'pyproject.toml': '[project]\nname = "shop"\nversion = "0.1.0"\n\n[tool.pytest.ini_options]\ntestpaths = ["tests"]\n',
  'shop/__init__.py': '',
  'shop/cart.py': 'def total(prices):\n    return sum(prices)\n',
  'tests/conftest.py': 'import pytest\nfrom shop_testkit import PRICES\n\n\n@pytest.fixture\ndef prices():\n    return PRICES\n',
  'tests/test_cart.py': 'from shop.cart import total\n\n\ndef test_total(prices):\n    assert total(prices) == 6\n'
}
const TESTKIT = { 'shop_testkit.py': 'PRICES = [1, 2, 3]\n' }

async function scratch(): Promise<string> {
  return mkdtemp(join(workDir, 'scratch-'))
}

describeWithPython('the Python interpreter for a repository whose conftest.py does not load everywhere', () => {
  it('passes over an interpreter whose pytest cannot load conftest.py (even one with coverage.py), runs the next, and says which', async () => {
    const withoutTestkit = await virtualenv('no-testkit')
    const withTestkit = await virtualenv('testkit-no-coverage', { modules: TESTKIT, withoutCoverage: true })
    const { tree } = await repository('fallthrough', NEEDS_TESTKIT)
    const adapter = createPytestAdapter({ pythons: [withoutTestkit, withTestkit] })

    const result = await adapter.run({ treeDir: tree, files: ['tests/test_cart.py'], scratchDir: await scratch(), timeoutMs: 60000, coverage: true }, processes)

    expect(result.fileErrors).toEqual([])
    expect(result.tests).toEqual([expect.objectContaining({ file: 'tests/test_cart.py', name: 'test_total', status: 'passed' })])
    // The only interpreter that works has no coverage.py: the run counts, without coverage.
    expect(result.coverage).toBeUndefined()
    const [chosen, passedOver, taken] = result.output.split('\n')
    expect(chosen).toMatch(new RegExp(`^Python for pytest: ${withTestkit} \\(Python 3[.\\d]+, pytest [.\\d]+, no coverage\\.py\\), probed:$`))
    expect(passedOver).toMatch(new RegExp(`^  - ${withoutTestkit}: pytest [.\\d]+ \\(Python [.\\d]+\\) could not load the repository's pytest configuration or conftest\\.py \\(exit \\d\\): .*ModuleNotFoundError: No module named 'shop_testkit'`))
    expect(taken).toBe(`  - ${withTestkit} → ${chosen.slice('Python for pytest: '.length, -', probed:'.length)}`)
  })

  it('among the interpreters that load it, prefers one with coverage.py', async () => {
    const noCoverage = await virtualenv('testkit-without-coverage', { modules: TESTKIT, withoutCoverage: true })
    const withCoverage = await virtualenv('testkit-with-coverage', { modules: TESTKIT })
    const { tree } = await repository('coverage-preferred', NEEDS_TESTKIT)
    const adapter = createPytestAdapter({ pythons: [noCoverage, withCoverage] })

    const result = await adapter.run({ treeDir: tree, files: ['tests/test_cart.py'], scratchDir: await scratch(), timeoutMs: 60000, coverage: true }, processes)

    expect(result.tests).toEqual([expect.objectContaining({ name: 'test_total', status: 'passed' })])
    expect(result.output).toMatch(new RegExp(`^Python for pytest: ${withCoverage} \\(Python [.\\d]+, pytest [.\\d]+, coverage\\.py [.\\d]+\\)`))
    expect(result.coverage).toContainEqual({ file: 'shop/cart.py', executableLines: [1, 2], coveredLines: [1, 2] })
  })

  it("falls through from the checkout's own virtualenv when its pytest cannot load conftest.py", async () => {
    const { checkout, tree } = await repository('venv-fallthrough', NEEDS_TESTKIT)
    await mkdir(join(checkout, '.venv', 'bin'), { recursive: true })
    await symlink(await virtualenv('checkout-venv'), join(checkout, '.venv', 'bin', 'python'))
    const withTestkit = await virtualenv('system-with-testkit', { modules: TESTKIT })

    const search = await findPython(tree, processes, { files: ['tests/test_cart.py'], systemPythons: [withTestkit] })

    expect(search.interpreter).toMatchObject({ command: withTestkit, hasCoverage: true, coverageVersion: expect.stringMatching(/^\d+\.\d+/) })
    expect(search.tried[0]).toMatch(new RegExp(`^${join(checkout, '.venv', 'bin', 'python')}: pytest .* could not load .*No module named 'shop_testkit'`))
  })

  it("loads the conftest.py of the files' folders without importing the test modules (a broken test is the run's business)", async () => {
    const { tree } = await repository('broken-test', { ...NEEDS_TESTKIT, 'tests/test_broken.py': 'import shop.nonexistent\n' })
    const withTestkit = await virtualenv('testkit-for-broken-test', { modules: TESTKIT })

    const search = await findPython(tree, processes, { files: ['tests/test_broken.py'], systemPythons: [withTestkit] })

    expect(search.interpreter?.command).toBe(withTestkit)
  })
})

describeWithPython('a repository whose conftest.py loads under no interpreter', () => {
  it('gets one clear message per file, listing every interpreter tried and why it was passed over', async () => {
    const withoutPytest = await virtualenv('bare', { systemPackages: false })
    const withoutTestkit = await virtualenv('no-testkit-either')
    const { tree } = await repository('nowhere', NEEDS_TESTKIT)
    const adapter = createPytestAdapter({ pythons: [withoutPytest, withoutTestkit, '/nonexistent/python3'] })

    const result = await adapter.run({ treeDir: tree, files: ['tests/test_cart.py'], scratchDir: await scratch(), timeoutMs: 60000 }, processes)

    expect(result.tests).toEqual([])
    expect(result.fileErrors).toEqual([{ file: 'tests/test_cart.py', message: result.output }])
    expect(result.output.split('\n')).toEqual([
      "no Python interpreter here can run this repository's pytest (import pytest, then load its configuration and conftest.py files); tried:",
      `- ${withoutPytest}: ModuleNotFoundError: No module named 'pytest'`,
      expect.stringMatching(new RegExp(`^- ${withoutTestkit}: pytest [.\\d]+ \\(Python [.\\d]+\\) could not load .*No module named 'shop_testkit'$`)),
      expect.stringMatching(/^- \/nonexistent\/python3: \[could not start \/nonexistent\/python3: .*ENOENT.*\]$/),
      "Install pytest and the test dependencies in the repository's .venv (or venv), or set test-command."
    ])
  })
})

describeWithPython("a conftest.py written for Debian's pytest (it refuses any other major version)", () => {
  // On a machine whose PATH offers a version manager's Python with a newer pytest, that one is passed over;
  // where PATH's python3 is Debian's, it is taken at once. Either way Debian's pytest runs the tests.
  it("runs under Debian's pytest, whatever PATH offers first", async () => {
    const debianPytest = execFileSync(DEBIAN_PYTHON, ['-c', 'import pytest; print(pytest.__version__)'], { encoding: 'utf8' }).trim()
    const major = debianPytest.split('.')[0]
    const conftest = `import pytest\n\nif pytest.__version__.split(".")[0] != "${major}":\n    raise RuntimeError("this conftest needs pytest ${major}, not " + pytest.__version__)\n`
    const { tree } = await repository('pinned-pytest', { ...NEEDS_TESTKIT, 'tests/conftest.py': conftest, 'tests/test_cart.py': 'from shop.cart import total\n\n\ndef test_total():\n    assert total([1, 2, 3]) == 6\n' })

    const search = await findPython(tree, processes, { files: ['tests/test_cart.py'], systemPythons: SYSTEM_PYTHONS })

    expect(search.interpreter).toMatchObject({ pytestVersion: debianPytest, executable: DEBIAN_PYTHON })
    // Any interpreter probed with another major version of pytest was refused by this conftest, and says so.
    const otherMajors = search.tried.filter((line) => /pytest (\d+)\./.exec(line)?.[1] !== major && /pytest \d/.test(line))
    for (const line of otherMajors) expect(line).toMatch(new RegExp(`could not load .*this conftest needs pytest ${major}, not`))
  })
})
