/**
 * The committed bundles as users run them: `dist/cli/index.js` (the bin) and `dist/index.js` (the action,
 * as a runner starts it: INPUT_* variables, an event payload, output and summary files).
 */
import { execFile } from 'node:child_process'
import { mkdtemp, readFile, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { promisify } from 'node:util'
import { startFakeAnthropic } from '../support/fake-anthropic.js'
import { buildFixtureRepo } from '../support/fixture-repo.js'
import { byStage, fixtureAnswers } from '../support/scripted-model.js'

const root = join(import.meta.dirname ?? new URL('.', import.meta.url).pathname, '..', '..')
const node = (script: string, args: string[], env: NodeJS.ProcessEnv) =>
  promisify(execFile)(process.execPath, [join(root, script), ...args], { env: { PATH: process.env.PATH, HOME: process.env.HOME, ...env } }).then(
    (result) => ({ code: 0, ...result }),
    (error: { code: number; stdout: string; stderr: string }) => ({ code: error.code, stdout: error.stdout, stderr: error.stderr })
  )

test('the bundled CLI runs generate mode with its prompts, from any working directory', async () => {
  const repo = await buildFixtureRepo('retry-budget', { withFixTest: false })
  const fake = await startFakeAnthropic(byStage(fixtureAnswers('retry-budget')))
  const out = await mkdtemp(join(tmpdir(), 'rtg-bundle-'))
  try {
    const result = await node('dist/cli/index.js', ['--repo', repo.dir, '--base', repo.base, '--head', repo.head, '--out', out], {
      ANTHROPIC_API_KEY: 'test-key',
      ANTHROPIC_BASE_URL: fake.baseURL
    })
    expect(result.stderr).toContain('verdict: fail-to-pass')
    expect(result.code).toBe(0)
    expect(JSON.parse(await readFile(join(out, 'report.json'), 'utf8')).verdict).toBe('fail-to-pass')
    expect(fake.requests[0].body.system).toContain('You are a senior test engineer')
  } finally {
    await fake.close()
    await repo.cleanup()
  }
})

test('the bundled action on a pull_request event without a key runs verify mode and sets its outputs', async () => {
  const repo = await buildFixtureRepo('retry-budget')
  const runnerTemp = await mkdtemp(join(tmpdir(), 'rtg-runner-'))
  const files = { event: join(runnerTemp, 'event.json'), output: join(runnerTemp, 'output'), summary: join(runnerTemp, 'summary.md') }
  const pullRequest = { number: 7, title: 'Fix streaming retries', body: 'Fixes #4471', base: { sha: repo.base }, head: { sha: repo.head } }
  await writeFile(files.event, JSON.stringify({ action: 'opened', number: 7, pull_request: pullRequest }))
  await Promise.all([writeFile(files.output, ''), writeFile(files.summary, '')])
  try {
    const result = await node('dist/index.js', [], {
      GITHUB_EVENT_NAME: 'pull_request',
      GITHUB_EVENT_PATH: files.event,
      GITHUB_WORKSPACE: repo.dir,
      GITHUB_OUTPUT: files.output,
      GITHUB_STEP_SUMMARY: files.summary,
      GITHUB_REPOSITORY: 'acme/transport',
      RUNNER_TEMP: runnerTemp,
      'INPUT_ANTHROPIC-API-KEY': '',
      'INPUT_ON-NO-FAIL-TO-PASS': 'fail'
    })
    expect(result.stdout).toContain('::notice::No anthropic-api-key')
    // The fix's hunk is annotated on the diff: the suite runs it and fails without it.
    expect(result.stdout).toMatch(/^::notice title=Guarded by a regression test,file=src\/streaming-transport\.ts,line=55,endLine=59::The suite runs this change and fails without it \(1 fail-to-pass test\(s\)\)\.$/m)
    expect(result.code).toBe(0)
    const outputs = await readFile(files.output, 'utf8')
    expect(outputs).toMatch(/verdict<<.*\nfail-to-pass\n/)
    expect(outputs).toMatch(/fail-to-pass-count<<.*\n1\n/)
    expect(outputs).toContain(join(runnerTemp, 'regression-testgen', 'report.json'))
    expect(await readFile(files.summary, 'utf8')).toContain('✅ **fail-to-pass**')
  } finally {
    await repo.cleanup()
  }
})
