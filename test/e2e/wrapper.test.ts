/**
 * A runner behind a wrapper CLI: the fixture's test script is `unit-scripts test`, shaped like `tsdx test`,
 * `react-scripts test` and `kcd-scripts test`. The package never declares jest, and its tests resolve
 * `@units/…` only through the wrapper's own jest configuration, so a direct jest run cannot load them.
 */
import { join } from 'node:path'
import { requestText } from '../support/fake-anthropic.js'
import { runCliOnFixture } from '../support/cli-run.js'
import { fixtureAnswers } from '../support/scripted-model.js'

test('verify runs jest through the wrapper, with its configuration, and proves the fix', async () => {
  const run = await runCliOnFixture({ fixture: 'range-wrapper' })
  expect(run.report).toMatchObject({ framework: 'jest', runnerWrapper: 'unit-scripts test --passWithNoTests', verdict: 'fail-to-pass' })
  expect(run.log).toContain('2 changed file(s); mode verify')
  expect(run.log).toContain('Framework: jest through `unit-scripts test --passWithNoTests` (its own configuration)')
  expect(run.markdown).toContain('framework jest (through `unit-scripts test --passWithNoTests`)')
  expect(run.report.preflight).toMatchObject({ file: 'src/range.spec.js', ok: true })
  expect(run.report.preflight?.command).toMatch(/unit-scripts\.js test --passWithNoTests .*--runTestsByPath/)
  expect(run.report.suite.files).toEqual([{ path: 'src/range.spec.js', tests: [], collectedByRepoTests: true, unconfirmed: [] }])
  expect(run.report.tests).toEqual(
    expect.arrayContaining([
      expect.objectContaining({ name: 'range › counts down with a negative step (#7)', head: 'passed', preFix: 'failed', kind: 'fail-to-pass' }),
      expect.objectContaining({ name: 'range › takes a step', head: 'passed', preFix: 'passed', kind: 'pass-to-pass' })
    ])
  )
  expect(run.exitCode).toBe(0)
})

test('generate places the suite where the hidden configuration of the wrapper collects it', async () => {
  const answers = fixtureAnswers('range-wrapper')
  const issue = join('__fixtures__', 'range-wrapper', 'issue.md')
  const run = await runCliOnFixture({ fixture: 'range-wrapper', script: answers, fixtureOptions: { withFixTest: false }, args: ['--issue', issue] })
  // The wrapper's jest collects only `src/**/*.spec.js` (roots, testMatch): jest itself said so.
  expect(run.log).toContain("The repository's own tests: jest's resolved configuration, from unit-scripts test --passWithNoTests --showConfig")
  expect(requestText(run.model!.requests[2])).toContain('- Write the suite to `src/regression/issue-7.spec.js`.')
  expect(run.report).toMatchObject({ verdict: 'fail-to-pass', runnerWrapper: 'unit-scripts test --passWithNoTests', rounds: { repair: 0 } })
  expect(run.report.suite.files).toEqual([expect.objectContaining({ path: 'src/regression/issue-7.spec.js', collectedByRepoTests: true })])
  const kinds = Object.fromEntries(run.report.tests.map((test) => [test.name, test.kind]))
  expect(kinds).toEqual({
    'range with a negative step (#7) › counts down with a step of -1': 'fail-to-pass',
    'range with a negative step (#7) › gives the start alone when the step passes end': 'fail-to-pass',
    'range with a negative step (#7) › is empty when start equals end': 'pass-to-pass',
    'range with a negative step (#7) › still counts up with a positive step': 'pass-to-pass'
  })
  expect(run.report.diffCoverage).toMatchObject({ covered: 2, total: 2 })
})

test('a wrapper that does not pass the runner its arguments: the preflight finds that out, and jest runs itself', async () => {
  // Shaped like ts-scripts `test`: its checks, then the whole suite, the arguments dropped. The repository's
  // own jest configuration (package.json) is all the tests need.
  const manifest = {
    name: 'tiny-range',
    private: true,
    scripts: { test: 'UNIT_SCRIPTS_CHECKS=1 unit-scripts test' },
    jest: { moduleNameMapper: { '^@units/(.*)$': '<rootDir>/src/$1' } },
    devDependencies: { 'unit-scripts': '^1.0.0' }
  }
  const run = await runCliOnFixture({ fixture: 'range-wrapper', fixtureOptions: { baseChanges: { 'package.json': JSON.stringify(manifest, null, 2) } } })
  expect(run.log).toContain('Preflight: `unit-scripts test` gave no results for src/range.spec.js, jest itself does: jest runs directly')
  expect(run.report).toMatchObject({ framework: 'jest', runnerWrapper: null, verdict: 'fail-to-pass', preflight: { ok: true } })
  expect(run.report.preflight?.command).toMatch(/node_modules\/jest\/bin\/jest\.js /)
  expect(run.report.tests).toEqual(expect.arrayContaining([expect.objectContaining({ name: 'range › counts down with a negative step (#7)', kind: 'fail-to-pass' })]))
})

test("a changed file only the repository's own rules call a test (jest testMatch `*.check.js`) is a test: kept in the pre-fix tree, run by verify", async () => {
  const manifest = {
    name: 'tiny-range',
    private: true,
    scripts: { test: 'jest' },
    jest: { testMatch: ['**/*.spec.js', '**/*.check.js'], moduleNameMapper: { '^@units/(.*)$': '<rootDir>/src/$1' } }
  }
  const check = "const { range } = require('@units/range')\n\ntest('counts down from 3 (#7)', () => {\n  expect(range(3, 0, -1)).toEqual([3, 2, 1])\n})\n"
  const run = await runCliOnFixture({
    fixture: 'range-wrapper',
    fixtureOptions: { withFixTest: false, baseChanges: { 'package.json': JSON.stringify(manifest, null, 2) }, headChanges: { 'src/countdown.check.js': check } }
  })
  expect(run.log).toContain("Tests by the repository's own rules (jest (package.json)): src/countdown.check.js")
  expect(run.report.changedFiles).toEqual(expect.arrayContaining([{ path: 'src/countdown.check.js', role: 'test', status: 'added' }]))
  expect(run.report.preFixTree?.reverted).toEqual(['src/range.js'])
  expect(run.report).toMatchObject({ verdict: 'fail-to-pass', runnerWrapper: null })
  expect(run.report.tests).toEqual([expect.objectContaining({ file: 'src/countdown.check.js', name: 'counts down from 3 (#7)', kind: 'fail-to-pass' })])
})
