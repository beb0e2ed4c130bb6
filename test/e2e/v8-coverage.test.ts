/**
 * Diff coverage on every run: the CLI end to end on fixtures whose node_modules have no c8 (as if the
 * repository had no coverage tool), in the sandbox. Node itself writes V8 coverage (NODE_V8_COVERAGE) and
 * the action turns it into per-line coverage of the repository's files, for mocha, ava and node:test.
 */
import { chmod, mkdtemp, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { delimiter, join } from 'node:path'
import { runCliOnFixture, type CliRun } from '../support/cli-run.js'

/** What every run here shows: measured, no note, and the coverage run said it collected some. */
function expectMeasured(run: CliRun): void {
  expect(run.report.diffCoverageNote).toBeNull()
  expect(run.log.some((line) => line.includes('(coverage asked for, none collected)'))).toBe(false)
  expect(run.log.some((line) => /^Run \d+ at head \(with coverage\)/.test(line))).toBe(true)
  expect(run.markdown).not.toContain('Diff coverage not measured')
}

test('mocha without c8: V8 coverage measures the changed lines of lib/parse.js', async () => {
  const run = await runCliOnFixture({ fixture: 'argv-cjs', fixtureOptions: { withoutPackages: ['c8'] } })
  expect(run.report).toMatchObject({ verdict: 'fail-to-pass', framework: 'mocha', isolation: 'sandbox' })
  // With c8 the same fix reads 4 of 4: c8 also counts the changed doc comment above the function as a
  // line that ran; here only lines with code count, so 3 of 3 (the three changed lines of the body).
  expect(run.report.diffCoverage).toEqual({ covered: 3, total: 3, files: [{ file: 'lib/parse.js', covered: 3, total: 3, uncoveredLines: [] }] })
  expectMeasured(run)
  expect(run.exitCode).toBe(0)
})

test('ava without c8: V8 coverage follows ava into its worker threads', async () => {
  const run = await runCliOnFixture({ fixture: 'paginate-ava', fixtureOptions: { withoutPackages: ['c8'] } })
  expect(run.report).toMatchObject({ verdict: 'fail-to-pass', framework: 'ava', isolation: 'sandbox' })
  // The same as with c8 (test/e2e/ava.test.ts): 2 of 2.
  expect(run.report.diffCoverage).toEqual({ covered: 2, total: 2, files: [{ file: 'src/pages.js', covered: 2, total: 2, uncoveredLines: [] }] })
  expectMeasured(run)
  expect(run.exitCode).toBe(0)
})

test("a test command whose processes never get node's coverage variable: not measured, and the note says what would measure it", async () => {
  // As when the repository's command runs the tests somewhere our environment does not reach (a container).
  const command = `env -u NODE_V8_COVERAGE ${process.execPath} node_modules/mocha/bin/mocha.js {files}`
  const run = await runCliOnFixture({ fixture: 'clamp-build', fixtureOptions: { withoutPackages: ['c8'] }, args: ['--test-command', command] })
  const note = "not measured: mocha collected no coverage here; it needs the repository's c8, else test processes run by node that keep the NODE_V8_COVERAGE variable and exit normally (node writes their V8 coverage as they exit)"
  expect(run.report).toMatchObject({ verdict: 'fail-to-pass', framework: 'mocha', diffCoverage: null, diffCoverageNote: note })
  expect(run.log).toContain(`Diff coverage ${note}`)
  expect(run.log.some((line) => line.includes('(coverage asked for, none collected)'))).toBe(true)
  expect(run.markdown).toContain(`Diff coverage ${note}.`)
})

describe('node:test on a node without the lcov reporter, without c8', () => {
  const savedPath = process.env.PATH
  let binDir: string

  // A `node` first on PATH that answers the adapter's probe of node:test's reporters as Node 20.9 would
  // (junit, no lcov: the lcov reporter came in 20.11), and is the real node for everything else.
  beforeAll(async () => {
    binDir = await mkdtemp(join(tmpdir(), 'node-without-lcov-'))
    const script = [
      '#!/bin/sh',
      'case "$2" in',
      `  *node:test/reporters*) [ "$1" = "-p" ] && { echo '{"version":"v20.9.0","reporters":["dot","junit","spec","tap"]}'; exit 0; } ;;`,
      'esac',
      `exec '${process.execPath}' "$@"`,
      ''
    ].join('\n')
    await writeFile(join(binDir, 'node'), script)
    await chmod(join(binDir, 'node'), 0o755)
    await chmod(binDir, 0o755)
    process.env.PATH = `${binDir}${delimiter}${savedPath ?? ''}`
  })

  afterAll(async () => {
    process.env.PATH = savedPath
    await rm(binDir, { recursive: true, force: true })
  })

  test('V8 coverage measures the changed line, as the lcov reporter does', async () => {
    // Run as given (`{files}`): a captured launch would run the real node behind the stand-in, as the test
    // command's own processes do (process.execPath), and that node has the lcov reporter.
    const run = await runCliOnFixture({ fixture: 'csv-esm', fixtureOptions: { withoutPackages: ['c8'] }, args: ['--test-command', `${join(binDir, 'node')} --test {files}`] })
    expect(run.report).toMatchObject({ verdict: 'fail-to-pass', framework: 'node-test', isolation: 'sandbox' })
    // The tests ran under the stand-in node (it is the one on PATH), so its answer decided the coverage.
    expect(run.log.join('\n')).toContain(join(binDir, 'node'))
    // The same as with node's lcov reporter (test/e2e/node-test.test.ts): 1 of 1, its comment lines no code.
    expect(run.report.diffCoverage).toEqual({ covered: 1, total: 1, files: [{ file: 'src/parse-line.js', covered: 1, total: 1, uncoveredLines: [] }] })
    expectMeasured(run)
    expect(run.exitCode).toBe(0)
  })
})
