/** The CLI end to end on Python projects: real git, real pytest, the real SDK against a scripted fake model. */
import { execFileSync } from 'node:child_process'
import { readFileSync } from 'node:fs'
import { mkdir, mkdtemp, symlink } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { requestText } from '../support/fake-anthropic.js'
import { runCliOnFixture } from '../support/cli-run.js'
import { fixtureAnswers, stageOf } from '../support/scripted-model.js'
import { describeWhereTestPython } from '../support/test-python.js'

const issueArgs = (fixture: string) => ['--issue', join('__fixtures__', fixture, 'issue.md')]
// Debian's python3-pytest and python3-coverage (the test setup, test/support/test-python.ts, installs them).
const DEBIAN_PYTHON = '/usr/bin/python3'
const describeWithPython = describeWhereTestPython()

/** A folder for the fixture repository with a (git-ignored) virtualenv in it, as a developer's checkout has. */
async function checkoutWithVirtualenv(): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), 'fixture-venv-'))
  await mkdir(join(dir, '.venv', 'bin'), { recursive: true })
  await symlink(DEBIAN_PYTHON, join(dir, '.venv', 'bin', 'python'))
  return dir
}

/** The interpreter each test run's output names first, as run.log keeps it. */
function interpretersInRunLog(outDir: string): string[] {
  const log = readFileSync(join(outDir, 'run.log'), 'utf8')
  return [...new Set([...log.matchAll(/^Python for pytest: (.+), probed:$/gm)].map((match) => match[1]))]
}

const kinds = (tests: Array<{ kind: string }>) => tests.reduce<Record<string, number>>((counts, test) => ({ ...counts, [test.kind]: (counts[test.kind] ?? 0) + 1 }), {})

describeWithPython('a src-layout project (pyproject pythonpath = ["src"])', () => {
  it('verify: the fix\'s own parametrized test is fail-to-pass, the untouched tests pass-to-pass', async () => {
    const run = await runCliOnFixture({ fixture: 'pricing-src-layout', env: {} })
    expect(run.exitCode).toBe(0)
    expect(run.report).toMatchObject({ mode: 'verify', framework: 'pytest', verdict: 'fail-to-pass', model: { calls: 0 } })
    expect(run.report.preFixTree?.reverted).toEqual(['src/pricing/discounts.py'])
    const failToPass = run.report.tests.filter((test) => test.kind === 'fail-to-pass')
    expect(failToPass.map((test) => test.name)).toEqual(
      ['100.00-0.05', '250.00-0.10', '500.00-0.15'].map((id) => `TestVolumeRate › test_a_subtotal_exactly_at_a_threshold_gets_that_tier[${id}]`)
    )
    expect(failToPass[1]).toMatchObject({ file: 'tests/test_discounts.py', head: 'passed', preFix: 'failed' })
    expect(failToPass[1].message).toContain("assert Decimal('0.05') == Decimal('0.10')")
    // Paths in messages are the repository's, not the temporary tree's.
    expect(failToPass[1].message).toContain('tests/test_discounts.py:')
    expect(failToPass[1].message).not.toContain('regression-testgen-')
    expect(kinds(run.report.tests)).toEqual({ 'fail-to-pass': 3, 'pass-to-pass': 8 })
    expect(run.report.suite.files).toEqual([{ path: 'tests/test_discounts.py', tests: [], collectedByRepoTests: true, unconfirmed: [] }])
    // Whichever interpreter this machine offers, the log says which one ran, with its pytest.
    expect(interpretersInRunLog(run.outDir)).toEqual([expect.stringMatching(/^\/\S+ \(Python 3[.\d]+, pytest [.\d]+, (?:coverage\.py [.\d]+|no coverage\.py)\)$/)])
  })

  it("generate: the scripted suite in tests/regression/ imports pricing.discounts and is fail-to-pass, run by the checkout's virtualenv", async () => {
    const run = await runCliOnFixture({
      fixture: 'pricing-src-layout',
      fixtureOptions: { dir: await checkoutWithVirtualenv() },
      script: fixtureAnswers('pricing-src-layout'),
      args: issueArgs('pricing-src-layout')
    })
    expect(run.exitCode).toBe(0)
    expect(run.report).toMatchObject({ mode: 'generate', framework: 'pytest', verdict: 'fail-to-pass', reason: null })
    // Every test is tied to its scenario by the title the model gave, whatever the runner calls it.
    expect(run.report.tests.map((test) => test.scenario)).not.toContain(null)
    expect(kinds(run.report.tests)).toEqual({ 'fail-to-pass': 6, 'pass-to-pass': 3 })
    expect(run.report.tests[0]).toMatchObject({
      file: 'tests/regression/test_issue_318.py',
      name: 'TestThresholdTiers › test_an_order_of_exactly_250_gets_the_ten_percent_tier',
      kind: 'fail-to-pass'
    })
    expect(run.report.suite.files).toEqual([{ path: 'tests/regression/test_issue_318.py', tests: expect.arrayContaining([expect.objectContaining({ scenario: 'every threshold exactly gets its own tier' })]), collectedByRepoTests: true, unconfirmed: [] }])
    expect(readFileSync(join(run.outDir, 'suite', 'tests/regression/test_issue_318.py'), 'utf8')).toContain('from pricing.discounts import')

    const write = run.model!.requests.find((request) => stageOf(request) === 'write-tests')!
    expect(requestText(write)).toContain('Import `src/pricing/discounts.py` as `pricing.discounts`.')
    expect(requestText(write)).toContain('Write the suite to `tests/regression/test_issue_318.py`.')
    // The style example is a test that existed before the fix (the fix changed test_discounts.py).
    // The test the fix changed, as it was before the fix, is the closest example.
    expect(requestText(write)).toContain('The style example, an existing test in this repository (`tests/test_discounts.py`, as it was before the fix; the fix changed it, so')
    // The virtualenv's python has coverage.py: the changed import and lookup ran (the added comment is not code).
    expect(run.report.diffCoverage).toEqual({ covered: 2, total: 2, files: [{ file: 'src/pricing/discounts.py', covered: 2, total: 2, uncoveredLines: [] }] })
    expect(interpretersInRunLog(run.outDir)).toEqual([expect.stringMatching(/\/\.venv\/bin\/python \(Python 3[.\d]+, pytest [.\d]+, coverage\.py [.\d]+\)$/)])
  })
})

describeWithPython('a flat-layout project (the package at the root, a conftest fixture)', () => {
  it("verify: the fix's added test file is fail-to-pass", async () => {
    const run = await runCliOnFixture({ fixture: 'cache-flat-layout', env: {} })
    expect(run.exitCode).toBe(0)
    expect(run.report).toMatchObject({ mode: 'verify', framework: 'pytest', verdict: 'fail-to-pass' })
    expect(run.report.tests).toEqual([
      expect.objectContaining({
        file: 'tests/test_memo_isolation.py',
        name: 'test_functions_sharing_a_store_keep_their_own_results',
        head: 'passed',
        preFix: 'failed',
        kind: 'fail-to-pass',
        message: expect.stringContaining("assert '$1.00' == '€1.00'")
      })
    ])
  })

  it('generate: the scripted suite imports quickcache.memo directly and is fail-to-pass', async () => {
    const run = await runCliOnFixture({ fixture: 'cache-flat-layout', script: fixtureAnswers('cache-flat-layout'), args: issueArgs('cache-flat-layout') })
    expect(run.exitCode).toBe(0)
    expect(run.report).toMatchObject({ framework: 'pytest', verdict: 'fail-to-pass' })
    expect(kinds(run.report.tests)).toEqual({ 'fail-to-pass': 3, 'pass-to-pass': 2 })
    expect(run.report.tests.filter((test) => test.kind === 'fail-to-pass').map((test) => test.name)).toEqual([
      'test_two_functions_sharing_a_store_keep_their_own_results',
      'test_functions_on_the_default_store_do_not_see_each_others_entries',
      'test_closures_with_the_same_qualified_name_keep_their_own_results'
    ])
    expect(run.report.suite.files.map((file) => file.path)).toEqual(['tests/regression/test_issue_57.py'])
    const write = run.model!.requests.find((request) => stageOf(request) === 'write-tests')!
    expect(requestText(write)).toContain('Import `quickcache/memo.py` as `quickcache.memo`. Checked: it loads at head and before the fix.')
    // The Python that ran the preflight is the one the tests run under: the model is told which.
    expect(requestText(write)).toMatch(/^- Python 3\.\d+\.\d+, pytest \d+\.\d+(?:\.\d+)? runs the tests\.$/m)
    expect(run.report.context!.imports).toEqual([{ module: 'quickcache/memo.py', specifier: 'quickcache.memo', through: null, loads: { head: true, preFix: true } }])
  })

  it("generate with a conftest.py that loads only under Debian's pytest: that interpreter runs everything, no model call is spent on it", async () => {
    // A conftest pinned to one pytest major version, as projects pin their test dependencies: on a machine
    // whose first python3 has a newer pytest, it refuses to load there.
    const debianPytest = execFileSync(DEBIAN_PYTHON, ['-c', 'import pytest; print(pytest.__version__)'], { encoding: 'utf8' }).trim()
    const major = debianPytest.split('.')[0]
    const conftest = readFileSync(join('__fixtures__', 'cache-flat-layout', 'base', 'tests', 'conftest.py'), 'utf8')
    const pinned = `${conftest}\nif pytest.__version__.split(".")[0] != "${major}":\n    raise RuntimeError("this conftest needs pytest ${major}")\n`
    const run = await runCliOnFixture({
      fixture: 'cache-flat-layout',
      fixtureOptions: { baseChanges: { 'tests/conftest.py': pinned } },
      script: fixtureAnswers('cache-flat-layout'),
      args: issueArgs('cache-flat-layout')
    })
    expect(run.report).toMatchObject({ verdict: 'fail-to-pass', rounds: { repair: 0, strengthen: 0 }, model: { calls: 3 }, preflight: { ok: true } })
    expect(kinds(run.report.tests)).toEqual({ 'fail-to-pass': 3, 'pass-to-pass': 2 })
    expect(interpretersInRunLog(run.outDir).every((line) => line.includes(`pytest ${debianPytest}`))).toBe(true)
  })

  it('a generated file that cannot import is repaired from the collection error', async () => {
    const answers = fixtureAnswers('cache-flat-layout')
    const good = answers['write-tests'] as { tool_use: { name: string; input: { files: Array<{ path: string; content: string; scenarios: string[] }> } } }
    const [file] = good.tool_use.input.files
    const broken = { tool_use: { ...good.tool_use, input: { files: [{ ...file, content: file.content.replace('from quickcache import', 'from src.quickcache import') }] } } }
    const run = await runCliOnFixture({ fixture: 'cache-flat-layout', script: { ...answers, 'write-tests': broken, repair: good }, args: issueArgs('cache-flat-layout') })
    expect(run.report).toMatchObject({ verdict: 'fail-to-pass', rounds: { repair: 1 } })
    const repair = run.model!.requests.find((request) => stageOf(request) === 'repair')!
    expect(requestText(repair)).toContain('### tests/regression/test_issue_57.py could not run')
    expect(requestText(repair)).toContain("ModuleNotFoundError: No module named 'src'")
  })
})
