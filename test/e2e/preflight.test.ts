/**
 * The preflight: before any model call, one existing test of the repository runs at head. A repository
 * whose tests cannot run here ends with `error` — no model call, no request — naming the file, the command,
 * the error and the setting to change; one whose tests run goes on, with the preflight in the report.
 */
import { execFileSync } from 'node:child_process'
import { writeFileSync } from 'node:fs'
import { mkdtemp, readFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { runCli } from '../../src/cli.js'
import type { Report } from '../../src/report/report.js'
import { linesLogger, runCliOnFixture } from '../support/cli-run.js'
import { startFakeAnthropic } from '../support/fake-anthropic.js'
import { buildFixtureRepo, type FixtureRepo } from '../support/fixture-repo.js'
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
  const { exitCode, report, requests } = await run(mode)
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
})

test('a repository whose tests run goes on to the model, with the preflight in the report and the log', async () => {
  const run = await runCliOnFixture({ script: fixtureAnswers('retry-budget') })
  expect(run.report).toMatchObject({ verdict: 'fail-to-pass', model: { calls: 3 } })
  expect(run.report.preflight).toMatchObject({ file: 'test/retry-budget.test.ts', ok: true, detail: '3 test(s) ran at head' })
  expect(run.report.timings.preflight).toBeGreaterThan(0)
  expect(run.log).toContain(`Preflight: test/retry-budget.test.ts runs here (3 test(s) ran at head): ${run.report.preflight!.command}`)
})
