/**
 * The committed bundles as users run them: `dist/cli/index.js` (the bin) and `dist/index.js` (the action,
 * as a runner starts it: INPUT_* variables, an event payload, output and summary files).
 */
import { execFile, execFileSync } from 'node:child_process'
import { mkdtemp, readFile, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { promisify } from 'node:util'
import { runBundledAction } from '../support/action-run.js'
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
  const pullRequest = { number: 7, title: 'Fix streaming retries', body: 'Fixes #4471', base: { sha: repo.base }, head: { sha: repo.head } }
  try {
    const result = await runBundledAction({
      event: 'pull_request',
      payload: { action: 'opened', number: 7, pull_request: pullRequest },
      workspace: repo.dir,
      inputs: { 'anthropic-api-key': '', 'on-no-fail-to-pass': 'fail' }
    })
    expect(result.stdout).toContain('::notice::No anthropic-api-key')
    // The fix's hunk is annotated on the diff: the suite runs it and fails without it.
    expect(result.stdout).toMatch(/^::notice title=Guarded by a regression test,file=src\/streaming-transport\.ts,line=55,endLine=59::The suite runs this change and fails without it \(1 fail-to-pass test\(s\)\)\.$/m)
    expect(result.code).toBe(0)
    expect(result.outputs).toMatch(/verdict<<.*\nfail-to-pass\n/)
    expect(result.outputs).toMatch(/fail-to-pass-count<<.*\n1\n/)
    expect(result.outputs).toContain(join(result.runnerTemp, 'regression-testgen', 'report.json'))
    expect(result.summary).toContain('✅ **fail-to-pass**')
  } finally {
    await repo.cleanup()
  }
})

test.each([
  ['fail', 1],
  ['warn', 0]
])('the bundled action with on-no-fail-to-pass: %s exits %i when no test fails without the fix', async (onNoFailToPass, code) => {
  const repo = await buildFixtureRepo('retry-budget')
  // The pull request's test, rewritten to pass on both trees: it no longer guards the fix.
  await writeFile(join(repo.dir, 'test/streaming-transport.test.ts'), "test('adds', () => {\n  expect(1 + 1).toBe(2)\n})\n")
  execFileSync('git', ['commit', '-qam', 'A test that guards nothing'], { cwd: repo.dir })
  const head = execFileSync('git', ['rev-parse', 'HEAD'], { cwd: repo.dir, encoding: 'utf8' }).trim()
  try {
    const result = await runBundledAction({
      event: 'pull_request',
      payload: { action: 'synchronize', number: 7, pull_request: { number: 7, title: 'Fix', body: '', base: { sha: repo.base }, head: { sha: head } } },
      workspace: repo.dir,
      inputs: { 'on-no-fail-to-pass': onNoFailToPass }
    })
    expect(result.code).toBe(code)
    expect(result.outputs).toMatch(/verdict<<.*\nno-fail-to-pass\n/)
    expect(result.outputs).toMatch(/fail-to-pass-count<<.*\n0\n/)
    // The fix's hunk is flagged on the diff either way; only the step's status differs.
    expect(result.stdout).toMatch(/^::error title=No test guards this fix,file=src\/streaming-transport\.ts,line=55,endLine=59::No test fails without this change: /m)
    const status = onNoFailToPass === 'fail' ? /^::error::verdict no-fail-to-pass: / : /^::warning::No test fails against the pre-fix code: /
    expect(result.stdout).toMatch(new RegExp(status.source, 'm'))
    expect(result.summary).toContain('no-fail-to-pass')
  } finally {
    await repo.cleanup()
  }
})
