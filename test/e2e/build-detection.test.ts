/**
 * Zero-config builds: the fixture's tests import `lib/`, which git does not track and its `build` script
 * makes from `src/`. Each tree builds its own sources — the pre-fix tree its buggy ones — before its tests.
 */
import { existsSync } from 'node:fs'
import { join } from 'node:path'
import { runCliOnFixture } from '../support/cli-run.js'
import { fixtureAnswers } from '../support/scripted-model.js'

test('verify builds each tree when the tests import build output git does not track, and proves the fix', async () => {
  const run = await runCliOnFixture({ fixture: 'clamp-build' })
  expect(existsSync(join(run.repo.dir, 'lib'))).toBe(false)
  const why = "test/clamp.test.js imports '..', which leads into lib/, a folder git does not track; the build script makes it"
  expect(run.report.build).toEqual({ command: 'npm run build', why, detected: true })
  expect(run.log).toContain(`Build: npm run build in each tree (${why})`)
  expect(run.markdown).toContain('Built in each tree before its tests: `npm run build`')
  expect(run.report).toMatchObject({ verdict: 'fail-to-pass', preFixTree: { reverted: ['src/index.js'] } })
  expect(Object.keys(run.report.timings)).toContain('build')
  // The pre-fix tree ran its own build: lib/ there is the buggy src/index.js, so the new test fails.
  expect(run.report.tests).toEqual(
    expect.arrayContaining([
      expect.objectContaining({ name: 'clamp › gives the lower bound for a value below the range (#12)', head: 'passed', preFix: 'failed', kind: 'fail-to-pass' }),
      expect.objectContaining({ name: 'clamp › keeps a value inside the range', head: 'passed', preFix: 'passed', kind: 'pass-to-pass' })
    ])
  )
  expect(run.report.tests.find((test) => test.kind === 'fail-to-pass')?.message).toContain('10 !== 0')
  expect(run.exitCode).toBe(0)
})

test('an explicit build-command wins over detection: one that builds nothing leaves the tests unable to run', async () => {
  const run = await runCliOnFixture({ fixture: 'clamp-build', args: ['--build-command', `${process.execPath} -e 0`] })
  expect(run.report.build).toEqual({ command: `${process.execPath} -e 0`, why: 'the build-command setting', detected: false })
  expect(run.report.verdict).toBe('error')
  expect(run.report.reason).toMatch(/test\/clamp\.test\.js gave no test results .*Cannot find module 'lib\/index\.js'/)
  expect(run.report.tests.filter((test) => test.kind === 'fail-to-pass')).toEqual([])
  expect(run.exitCode).toBe(2)
})

test('generate: the suite runs against each tree\'s own build, and proves the fix', async () => {
  const run = await runCliOnFixture({ fixture: 'clamp-build', script: fixtureAnswers('clamp-build'), fixtureOptions: { withFixTest: false }, args: ['--issue', join('__fixtures__', 'clamp-build', 'issue.md')] })
  expect(run.report).toMatchObject({ verdict: 'fail-to-pass', build: { command: 'npm run build', detected: true }, rounds: { repair: 0 } })
  expect(run.report.suite.files).toEqual([expect.objectContaining({ path: 'test/regression-issue-12.test.js', collectedByRepoTests: true })])
  // Against lib/ built from each tree's own src/: the buggy one fails below the range, the fixed one passes.
  const kinds = Object.fromEntries(run.report.tests.map((test) => [test.name, test.kind]))
  expect(kinds).toEqual({
    'clamp below the range (#12) › gives min for a value below the range': 'fail-to-pass',
    'clamp below the range (#12) › gives min for a value just below it': 'fail-to-pass',
    'clamp below the range (#12) › keeps min itself': 'pass-to-pass',
    'clamp below the range (#12) › gives the min of a negative range': 'fail-to-pass'
  })
  expect(run.exitCode).toBe(0)
})

test('without a coverage tool, node itself measures diff coverage (V8 coverage), as c8 would', async () => {
  const run = await runCliOnFixture({ fixture: 'clamp-build', fixtureOptions: { withoutPackages: ['c8'] } })
  // The tests run lib/, the build's copy of src/ (no source map leads back): coverage was collected, of
  // lib/index.js, and none of it is the changed src/index.js. Not a guessed 0 of 1: the note says what it holds.
  expect(run.report).toMatchObject({ verdict: 'fail-to-pass', diffCoverage: null })
  expect(run.report.diffCoverageNote).toContain('the coverage holds none of the changed source files (expected src/index.js; it holds lib/index.js)')
  expect(run.log.some((line) => line.includes('(coverage asked for, none collected)'))).toBe(false)
  expect(run.log.some((line) => /^Run \d+ at head \(with coverage\)/.test(line))).toBe(true)
  expect(run.markdown).toContain('Diff coverage not measured: the coverage holds none of the changed source files')
  expect(run.markdown).not.toContain('collected no coverage here')
})
