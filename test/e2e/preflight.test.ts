/**
 * The preflight: before any model call, one existing test of the repository runs at head. A repository
 * whose tests cannot run here ends with `error` — no model call, no request — naming the file, the command,
 * the error and the setting to change; one whose tests run goes on, with the preflight in the report.
 */
import { execFileSync } from 'node:child_process'
import { readFileSync, writeFileSync } from 'node:fs'
import { mkdtemp, readFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { runCli } from '../../src/cli.js'
import type { Report } from '../../src/report/report.js'
import { linesLogger, runCliOnFixture } from '../support/cli-run.js'
import { startFakeAnthropic } from '../support/fake-anthropic.js'
import { buildFixtureRepo, fixturesDir, type FixtureRepo } from '../support/fixture-repo.js'
import { byStage, fixtureAnswers } from '../support/scripted-model.js'

const BROKEN_CONFIG = "throw new Error('This jest config needs the private registry (set REGISTRY_TOKEN)')\n"

/** The fixture with a jest configuration that cannot load here, committed on top of the fix. */
async function repositoryWhoseTestsCannotRun(): Promise<FixtureRepo & { brokenHead: string }> {
  const repo = await buildFixtureRepo('retry-budget')
  writeFileSync(join(repo.dir, 'jest.config.js'), BROKEN_CONFIG)
  const git = (...args: string[]) => execFileSync('git', ['-c', 'user.name=t', '-c', 'user.email=t@t', ...args], { cwd: repo.dir, encoding: 'utf8' }).trim()
  git('commit', '-q', '-am', 'chore: jest config from the private registry')
  return { ...repo, brokenHead: git('rev-parse', 'HEAD') }
}

async function run(mode: 'generate' | 'verify') {
  const repo = await repositoryWhoseTestsCannotRun()
  const model = await startFakeAnthropic(byStage(fixtureAnswers('retry-budget')))
  const out = await mkdtemp(join(tmpdir(), 'rtg-preflight-'))
  const log: string[] = []
  try {
    const args = [...(mode === 'verify' ? ['verify'] : []), '--repo', repo.dir, '--base', repo.base, '--head', repo.brokenHead, '--out', out]
    const exitCode = await runCli(args, { ANTHROPIC_API_KEY: 'test-key', ANTHROPIC_BASE_URL: model.baseURL }, linesLogger(log))
    const report = JSON.parse(await readFile(join(out, 'report.json'), 'utf8')) as Report
    return { exitCode, report, requests: model.requests.length, log }
  } finally {
    await model.close()
    await repo.cleanup()
  }
}

test.each(['generate', 'verify'] as const)('%s: a repository whose tests cannot run ends as an error before any model call, saying why', async (mode) => {
  const { exitCode, report, requests, log } = await run(mode)
  expect(exitCode).toBe(2)
  expect(requests).toBe(0)
  expect(report).toMatchObject({ verdict: 'error', model: { calls: 0 }, tests: [] })
  // Generate mode tries the style example; verify mode the pull request's own test, which it runs anyway.
  const file = mode === 'generate' ? 'test/retry-budget.test.ts' : 'test/streaming-transport.test.ts'
  expect(report.preflight).toMatchObject({ file, ok: false, detail: expect.stringMatching(/^no test results \(exit 1\): .*This jest config needs the private registry/) })
  expect(report.preflight!.command).toMatch(new RegExp(`jest.* ${file}`))
  // The reason names the file, the command, the error and the setting that would fix it.
  expect(report.reason).toContain(`The repository's tests cannot run here: ${file} gave no test results (exit 1)`)
  expect(report.reason).toContain(`command: ${report.preflight!.command}`)
  expect(report.reason).toMatch(/\(set test-command to the repository's own way of running one test file \(\{files\} marks where it goes\), or framework\)$/)
  // The configuration fails the same for any file: the other test file (there is one) is not run.
  expect(report.preflight!.tried).toEqual([{ file, detail: report.preflight!.detail }])
  const other = mode === 'generate' ? 'test/streaming-transport.test.ts' : 'test/retry-budget.test.ts'
  expect(log).toContain(`Preflight: the runner itself failed on ${file} (${report.preflight!.detail}): no other test file is tried`)
  expect(log.join('\n')).not.toContain(other)
})

test('a repository whose tests run goes on to the model, with the preflight in the report and the log', async () => {
  const run = await runCliOnFixture({ script: fixtureAnswers('retry-budget') })
  expect(run.report).toMatchObject({ verdict: 'fail-to-pass', model: { calls: 3 } })
  expect(run.report.preflight).toMatchObject({ file: 'test/retry-budget.test.ts', ok: true, detail: '3 test(s) ran at head' })
  expect(run.report.timings.preflight).toBeGreaterThan(0)
  expect(run.log).toContain(`Preflight: test/retry-budget.test.ts runs here (3 test(s) ran at head): ${run.report.preflight!.command}`)
})

describe('a test file that yields no test does not condemn the repository (mocha, its glob collecting a helper)', () => {
  const answers = fixtureAnswers('argv-cjs')
  // The nearest "test" to lib/parse.js is test/parse.js: a helper the glob collects, with no test in it.
  const HELPER = "'use strict'\n\n// Shared by the parse tests: argv as a shell splits a command line.\nexports.argv = (line) => line.split(/\\s+/).filter(Boolean)\n"
  const COLLECTS_EVERY_SCRIPT = "spec: 'test/**/*.js'\nrecursive: true\nreporter: dot\ntimeout: 5000\n"
  const generateOn = (baseChanges: Record<string, string>) =>
    runCliOnFixture({
      fixture: 'argv-cjs',
      fixtureOptions: { withFixTest: false, baseChanges: { '.mocharc.yml': COLLECTS_EVERY_SCRIPT, 'test/parse.js': HELPER, ...baseChanges } },
      script: answers,
      args: ['--issue', join('__fixtures__', 'argv-cjs', 'issue.md')]
    })

  test('the helper is tried first, the next test file runs, and the run goes on to fail-to-pass', async () => {
    const run = await generateOn({})
    expect(run.exitCode).toBe(0)
    expect(run.report).toMatchObject({ verdict: 'fail-to-pass', framework: 'mocha', model: { calls: 3 } })
    expect(run.report.preflight).toMatchObject({ file: 'test/parse.test.js', ok: true, detail: expect.stringMatching(/^\d+ test\(s\) ran at head$/) })
    expect(run.report.preflight!.tried).toEqual([
      { file: 'test/parse.js', detail: expect.stringMatching(/^no test results \(exit \d+\): mocha ran no test from this file/) },
      { file: 'test/parse.test.js', detail: run.report.preflight!.detail }
    ])
    // Its first try shared a runner start with the import check's file; the helper yielding nothing there, it ran again alone.
    expect(run.log.filter((line) => line.startsWith('Preflight: test/parse.js ran no test beside 1 other file(s) ('))).toHaveLength(1)
    expect(run.log).toContain(`Preflight: test/parse.js yields no test (${run.report.preflight!.tried[0].detail}); trying the next test file`)
    expect(run.log).toContain(`Preflight: test/parse.test.js runs here (${run.report.preflight!.detail}, after test/parse.js yielded none): ${run.report.preflight!.command}`)
  })

  test('when no file tried yields a test — a helper, an all-skipped file, an empty one — the run ends as an error naming them, before any model call', async () => {
    const parseTests = readFileSync(join(fixturesDir(), 'argv-cjs', 'base', 'test', 'parse.test.js'), 'utf8')
    const run = await generateOn({ 'test/parse.test.js': parseTests.replace("describe('parse',", "describe.skip('parse',"), 'test/coerce.test.js': "'use strict'\n" })
    expect(run.exitCode).toBe(2)
    expect(run.model!.requests).toHaveLength(0)
    expect(run.report).toMatchObject({ verdict: 'error', model: { calls: 0 }, tests: [] })
    const tried = run.report.preflight!.tried
    expect(tried.map((attempt) => attempt.file)).toEqual(['test/parse.js', 'test/parse.test.js', 'test/coerce.test.js'])
    expect(tried[1].detail).toMatch(/^no test ran at head: all \d+ skipped$/)
    expect(run.report.preflight).toMatchObject({ file: 'test/coerce.test.js', ok: false, detail: tried[2].detail })
    expect(run.report.reason).toContain(
      `The repository's tests cannot run here: none of the 3 test files tried ran a test: test/parse.js gave ${tried[0].detail}; test/parse.test.js gave ${tried[1].detail}; test/coerce.test.js gave ${tried[2].detail} — command: `
    )
  })

  test('a setup file the test script requires throws: the runner itself fails, the run ends after the first file', async () => {
    const run = await generateOn({ 'test/setup.js': "throw new Error('the test setup needs DATABASE_URL')\n" })
    expect(run.exitCode).toBe(2)
    expect(run.model!.requests).toHaveLength(0)
    expect(run.report.preflight).toMatchObject({ file: 'test/parse.js', ok: false, detail: expect.stringMatching(/^no test results \(exit 1\): .*the test setup needs DATABASE_URL/) })
    expect(run.report.preflight!.tried).toEqual([{ file: 'test/parse.js', detail: run.report.preflight!.detail }])
    expect(run.report.reason).toContain(`The repository's tests cannot run here: test/parse.js gave ${run.report.preflight!.detail} — command: `)
  })
})
