/**
 * The CLI end to end on an ESM project tested with node-tap (16 and a current one), zero-config: real git,
 * the real tap, a devDependency of this repository (test/support/test-tap.ts), its TAP report read with
 * tap-parser, node's V8 coverage for diff coverage.
 */
import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { runCliOnFixture } from '../support/cli-run.js'
import type { FixtureRepo } from '../support/fixture-repo.js'
import { fixtureAnswers } from '../support/scripted-model.js'
import { installTapInto, TAP_VERSIONS, type TapVersion } from '../support/test-tap.js'

const FIX_TEST = 'test/pages.test.js'
const SUITE_PATH = 'test/regression/issue-18.test.js'
const answers = fixtureAnswers('paginate-tap')
describe.each(TAP_VERSIONS.map((version) => ({ version })))('tap $version', ({ version }: { version: TapVersion }) => {
  /** The fixture's node_modules: tap at this version (its only dependency), not this project's. */
  const withTap = async (repo: FixtureRepo) => {
    await installTapInto(repo.dir, version)
    return { base: repo.base, head: repo.head }
  }

  test('verify proves the fix with its own tap test: fail-to-pass, nested tests by their titles, the rest pass-to-pass', async () => {
    const run = await runCliOnFixture({ fixture: 'paginate-tap', range: withTap })
    expect(run.report).toMatchObject({ mode: 'verify', verdict: 'fail-to-pass', framework: 'tap', model: { calls: 0 } })
    expect(run.report.preFixTree).toEqual({ reverted: ['src/pages.js'], dependencies: 'reused' })
    const fixTest = run.report.tests.find((test) => test.name === 'pageCount › a partial last page counts as a page (#18)')
    expect(fixTest).toMatchObject({ file: FIX_TEST, head: 'passed', preFix: 'failed', kind: 'fail-to-pass' })
    // tap's own description of the failure: the assertion and its diff.
    expect(fixTest!.message).toMatch(/should be equal[\s\S]*-3\n\+2\nat test\/pages\.test\.js:15:7/)
    expect(fixTest!.message).not.toContain('file:')
    const others = run.report.tests.filter((test) => test !== fixTest)
    expect(others.map((test) => test.name).sort()).toEqual(['pageCount › an exact multiple fills whole pages', 'pageCount › no items make no pages', 'pageCount › perPage must be positive', 'pageOf gives the items of a page'])
    expect(others.every((test) => test.file === FIX_TEST && test.kind === 'pass-to-pass')).toBe(true)
    // node's V8 coverage of the tests' processes at head measured the changed lines.
    expect(run.report.diffCoverage).toMatchObject({ covered: 2, total: 2 })
    expect(run.exitCode).toBe(0)
  })

  // Generate mode's runs (the imports' loading tests, the suite's gate runs) once, with the current tap.
  if (version === TAP_VERSIONS[TAP_VERSIONS.length - 1]) {
    test('generate: the scripted model gives a fail-to-pass tap suite, its imports checked with a tap loading test in both trees', async () => {
      const run = await runCliOnFixture({ fixture: 'paginate-tap', script: answers, range: withTap, fixtureOptions: { withFixTest: false }, args: ['--issue', join('__fixtures__', 'paginate-tap', 'issue.md')] })
      expect(run.report).toMatchObject({ mode: 'generate', verdict: 'fail-to-pass', reason: null, framework: 'tap', rounds: { repair: 0, strengthen: 0 } })
      expect(run.report.context!.imports).toContainEqual(expect.objectContaining({ module: 'src/pages.js', loads: { head: true, preFix: true } }))
      expect(readFileSync(join(run.outDir, 'suite', SUITE_PATH), 'utf8')).toContain("import t from 'tap'")
      expect(Object.fromEntries(run.report.tests.map((test) => [test.name, test.kind]))).toEqual({
        'counts a partial last page (#18)': 'fail-to-pass',
        'gives fewer items than a page one page (#18)': 'fail-to-pass',
        'adds no page to an exact multiple (#18)': 'pass-to-pass',
        'adds a page for one item over a multiple (#18)': 'fail-to-pass'
      })
      expect(run.report.tests.every((test) => test.file === SUITE_PATH && test.scenario !== null)).toBe(true)
      expect(run.exitCode).toBe(0)
    })
  }
})
