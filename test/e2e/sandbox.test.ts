/**
 * The sandbox, probed as an attacker would: a test file (the pull request's own in verify mode, the model's
 * in generate mode) that reads every process's environment, writes workflow commands into other processes'
 * output, appends to the runner's command files and the checkout's .git/config, creates files in the
 * checkout, the tool's home and the action's folder, and leaves a detached child behind — run through the
 * bundled CLI and the bundled action. Nothing may get through, and no secret may reach anything written.
 */
import { execFile } from 'node:child_process'
import { mkdtemp, readFile, readdir, writeFile } from 'node:fs/promises'
import { homedir, tmpdir } from 'node:os'
import { join } from 'node:path'
import { promisify } from 'node:util'
import { runBundledAction } from '../support/action-run.js'
import { actionsEnv, startFakeActionsServices } from '../support/fake-actions-services.js'
import { startFakeAnthropic } from '../support/fake-anthropic.js'
import { startFakeGitHub } from '../support/fake-github.js'
import { commitSeedOf } from '../support/fake-github-git.js'
import { buildFixtureRepo, type FixtureRepo } from '../support/fixture-repo.js'
import { contentsOf, describeWhereSandboxed, PROBE_TITLE_PREFIX, probeDamage, probeTargets, probeTestFile, type ProbeTargets } from '../support/sandbox-probe.js'
import { byStage, fixtureAnswers, type StageScript } from '../support/scripted-model.js'
import { createAnthropicModel } from '../../src/model/anthropic.js'
import { UsageLedger } from '../../src/model/model-port.js'
import { runPipeline } from '../../src/pipeline.js'
import { createGit } from '../../src/ports/git.js'
import { unisolated, type SandboxProvider } from '../../src/ports/sandbox.js'
import type { Report } from '../../src/report/report.js'
import { buildSettings } from '../../src/settings.js'
import { linesLogger } from '../support/cli-run.js'

const root = join(import.meta.dirname ?? new URL('.', import.meta.url).pathname, '..', '..')
const KEY = 'sk-ant-probe-5ecret-key-0123456789'
const TOKEN = 'ghs_probeSecretToken0123456789'

/** The bundled CLI, with the key and a token in its own environment, as a developer's shell has them. */
async function runBundledCli(args: string[], env: Record<string, string> = {}) {
  return promisify(execFile)(process.execPath, [join(root, 'dist/cli/index.js'), ...args], {
    env: { PATH: process.env.PATH, HOME: process.env.HOME, ANTHROPIC_API_KEY: KEY, GITHUB_TOKEN: TOKEN, ...env }
  }).then(
    (result) => ({ code: 0, ...result }),
    (error: { code: number; stdout: string; stderr: string }) => ({ code: error.code, stdout: error.stdout, stderr: error.stderr })
  )
}

/** The pull request adds the probe as one of its own test files. */
async function pullRequestWithProbe(targets: (repo: FixtureRepo) => ProbeTargets): Promise<{ repo: FixtureRepo; targets: ProbeTargets; head: string }> {
  const repo = await buildFixtureRepo('retry-budget')
  const probe = targets(repo)
  await writeFile(join(repo.dir, 'test', 'probe.test.js'), probeTestFile(probe))
  const git = (...args: string[]) => promisify(execFile)('git', ['-c', 'user.name=Probe', '-c', 'user.email=probe@fixture.invalid', ...args], { cwd: repo.dir })
  await git('add', 'test/probe.test.js')
  await git('commit', '-q', '-m', 'test: probe')
  return { repo, targets: probe, head: (await git('rev-parse', 'HEAD')).stdout.trim() }
}

/** The model writes the probe beside the fixture's real regression tests. */
function modelWithProbe(probe: ProbeTargets): StageScript {
  const answers = fixtureAnswers('retry-budget')
  const written = answers['write-tests'] as { tool_use: { name: string; input: { files: Array<{ path: string; content: string }> } } }
  const probeFile = { path: 'test/regression/probe.test.ts', content: probeTestFile(probe), tests: [{ title: PROBE_TITLE_PREFIX, scenario: 'probe' }] }
  const files = [...written.tool_use.input.files, probeFile]
  return { ...answers, 'write-tests': { tool_use: { ...written.tool_use, input: { ...written.tool_use.input, files } } } }
}

const targetsFor = (repo: FixtureRepo, appends: string[] = []) =>
  probeTargets({ checkout: repo.dir, actionDir: root, home: homedir(), appends })

async function outputsOf(outDir: string): Promise<string> {
  const names = await readdir(outDir, { recursive: true, withFileTypes: true })
  const files = names.filter((entry) => entry.isFile()).map((entry) => join(entry.parentPath, entry.name))
  return (await Promise.all(files.map((file) => readFile(file, 'utf8')))).join('\n')
}

function expectProbeRanAndGotNothing(report: Report, everythingWritten: string): void {
  expect(report.isolation).toBe('sandbox')
  // The probe ran (its test is in the report), found nothing to steal, and the fix is still proven.
  const probe = report.tests.find((test) => test.name.startsWith(PROBE_TITLE_PREFIX))
  expect(probe).toMatchObject({ name: `${PROBE_TITLE_PREFIX} nothing`, head: 'passed' })
  expect(report.verdict).toBe('fail-to-pass')
  for (const secret of [KEY, TOKEN]) expect(everythingWritten).not.toContain(secret)
}

describeWhereSandboxed('through the bundled CLI', () => {
  test('verify mode: the pull request\'s own test steals nothing and changes nothing', async () => {
    const { repo, targets, head } = await pullRequestWithProbe((repo) => targetsFor(repo))
    const before = contentsOf(targets.appends)
    const out = await mkdtemp(join(tmpdir(), 'rtg-probe-out-'))
    try {
      const result = await runBundledCli(['verify', '--repo', repo.dir, '--base', repo.base, '--head', head, '--out', out])
      expect(await probeDamage(targets, before)).toEqual([])
      const report = JSON.parse(await readFile(join(out, 'report.json'), 'utf8')) as Report
      expectProbeRanAndGotNothing(report, (await outputsOf(out)) + result.stdout + result.stderr)
      expect(result.stderr).toMatch(/Sandbox: the repository's code runs as uid \d+ \(gid \d+, this run's own, named regression-testgen in its own mount namespace\)/)
      expect(result.code).toBe(0)
    } finally {
      await repo.cleanup()
    }
  })

  test('generate mode: a model-written test steals nothing and changes nothing', async () => {
    const repo = await buildFixtureRepo('retry-budget', { withFixTest: false })
    const targets = targetsFor(repo)
    const model = await startFakeAnthropic(byStage(modelWithProbe(targets)))
    const before = contentsOf(targets.appends)
    const out = await mkdtemp(join(tmpdir(), 'rtg-probe-out-'))
    try {
      const result = await runBundledCli(['--repo', repo.dir, '--base', repo.base, '--head', repo.head, '--out', out], { ANTHROPIC_BASE_URL: model.baseURL })
      expect(await probeDamage(targets, before)).toEqual([])
      const report = JSON.parse(await readFile(join(out, 'report.json'), 'utf8')) as Report
      expectProbeRanAndGotNothing(report, (await outputsOf(out)) + result.stdout + result.stderr)
      expect(report.suite.files.map((file) => file.path)).toContain('test/regression/probe.test.ts')
      expect(result.code).toBe(0)
    } finally {
      await model.close()
      await repo.cleanup()
    }
  })
})

describeWhereSandboxed('through the bundled action', () => {
  async function runActionWithProbe(apiKey: string) {
    const runnerTemp = await mkdtemp(join(tmpdir(), 'rtg-probe-runner-'))
    // Beside the runner's folder, which runBundledAction empties first.
    const githubEnv = join(await mkdtemp(join(tmpdir(), 'rtg-probe-env-')), 'env')
    // The runner's command files, named in the action's environment: runBundledAction makes `output` there.
    const { repo, targets, head } = await pullRequestWithProbe((repo) => targetsFor(repo, [join(runnerTemp, 'output'), githubEnv]))
    const [services, model, gitHub] = await Promise.all([
      startFakeActionsServices(),
      startFakeAnthropic(byStage(modelWithProbe(targets))),
      // The pull request's branch, for deliver: commit — the token pushes with it once the sandbox is gone.
      startFakeGitHub({
        issues: { 'acme/transport#7': { title: 'Fix streaming retries', body: '' } },
        repos: { 'acme/transport': { branches: { main: repo.base, fix: head }, commits: { [repo.base]: await commitSeedOf(repo.dir, repo.base), [head]: await commitSeedOf(repo.dir, head) } } }
      })
    ])
    try {
      const side = (ref: string, sha: string) => ({ ref, sha, repo: { full_name: 'acme/transport' } })
      const pullRequest = { number: 7, title: 'Fix streaming retries', body: 'Streaming calls gave up after the first 429.', base: side('main', repo.base), head: side('fix', head) }
      await writeFile(githubEnv, '')
      const before = contentsOf(targets.appends.filter((path) => !path.startsWith(runnerTemp)))
      const run = await runBundledAction({
        event: 'pull_request',
        payload: { action: 'synchronize', number: 7, pull_request: pullRequest },
        workspace: repo.dir,
        runnerTemp,
        inputs: { 'anthropic-api-key': apiKey, 'anthropic-base-url': model.baseURL, 'github-token': TOKEN, comment: 'true', deliver: 'commit' },
        env: { ...actionsEnv(services), GITHUB_ENV: githubEnv, GITHUB_TOKEN: TOKEN, GITHUB_API_URL: gitHub.url, GITHUB_GRAPHQL_URL: `${gitHub.url}/graphql`, GITHUB_RUN_ID: '42' }
      })
      const damage = await probeDamage({ ...targets, appends: targets.appends.filter((path) => path !== join(runnerTemp, 'output')) }, before)
      const artifact = services.artifacts.flatMap((entry) => Object.values(entry.files).map((file) => file.toString())).join('\n')
      const pushed = [...gitHub.repository('acme/transport').blobs.values()].map((blob) => blob.toString()).join('\n')
      return { run, damage, artifact, comments: gitHub.comments.map((comment) => comment.body).join('\n') + pushed, model }
    } finally {
      await Promise.all([services.close(), model.close(), gitHub.close()])
      await repo.cleanup()
    }
  }

  for (const [mode, apiKey] of [['generate', KEY], ['verify', '']] as const) {
    test(`${mode} mode: the probe reaches neither the workflow nor the key`, async () => {
      const { run, damage, artifact, comments } = await runActionWithProbe(apiKey)
      expect(damage).toEqual([])
      expect(run.report).not.toBeNull()
      // The runner hides what `::add-mask::` names: those lines are the action masking its own tokens.
      const jobLog = run.stdout.split('\n').filter((line) => !line.startsWith('::add-mask::')).join('\n')
      expectProbeRanAndGotNothing(run.report!, [jobLog, run.summary, run.outputs, artifact, comments].join('\n'))
      // The token pushed the suite (generate mode) from the action's own process; the probe, in the sandbox, never had it.
      expect(run.report!.delivery).toMatchObject(mode === 'generate' ? { mode: 'commit', reason: null } : { mode: 'none' })
      // The step's outputs are the action's own: the probe's line never landed in GITHUB_OUTPUT.
      expect(run.outputs).not.toContain('PWNED')
      expect(run.outputs).toMatch(/verdict<<.*\nfail-to-pass\n/)
      // Nothing the probe wrote into another process's output reached the step log as a command.
      expect(run.stdout).not.toMatch(/^::error::PWNED/m)
      expect(run.stdout).not.toContain('##[error]PWNED')
      expect(run.code).toBe(0)
    })
  }
})

describe('where no sandbox can start', () => {
  const noSandbox: SandboxProvider = { open: async () => unisolated('not root, and no passwordless sudo to start the sandbox with') }

  async function runWithoutSandbox(mode: 'generate' | 'verify', allowUnisolatedTests = false) {
    const repo = await buildFixtureRepo('retry-budget', { withFixTest: mode === 'verify' })
    const model = await startFakeAnthropic(byStage(fixtureAnswers('retry-budget')))
    const out = await mkdtemp(join(tmpdir(), 'rtg-unisolated-out-'))
    const lines: string[] = []
    try {
      const settings = buildSettings({ mode, repo: repo.dir, base: repo.base, head: repo.head, out, apiKey: mode === 'generate' ? KEY : '', baseURL: model.baseURL, allowUnisolatedTests })
      const ledger = new UsageLedger()
      const outcome = await runPipeline(settings, {
        git: createGit(repo.dir),
        sandboxes: noSandbox,
        model: settings.model && createAnthropicModel(settings.model, ledger),
        ledger,
        log: linesLogger(lines),
        dependencyCache: null,
        destination: null
      })
      return { outcome, lines, modelCalls: model.requests.length, markdown: await readFile(outcome.paths.markdown, 'utf8') }
    } finally {
      await model.close()
      await repo.cleanup()
    }
  }

  test('generate mode refuses before any model call, saying why and what to do', async () => {
    const { outcome, modelCalls } = await runWithoutSandbox('generate')
    expect(modelCalls).toBe(0)
    expect(outcome.exitCode).toBe(2)
    expect(outcome.report).toMatchObject({ verdict: 'error', isolation: 'none', isolationDetail: 'not root, and no passwordless sudo to start the sandbox with' })
    expect(outcome.report.reason).toMatch(/^Refusing to run model-written tests without a sandbox: not root.*allow-unisolated-tests/)
  })

  test('with allow-unisolated-tests, and in verify mode, the run goes on and every output says it was not isolated', async () => {
    for (const run of [await runWithoutSandbox('generate', true), await runWithoutSandbox('verify')]) {
      expect(run.outcome.report).toMatchObject({ verdict: 'fail-to-pass', isolation: 'none' })
      expect(run.lines).toContain('warning: No sandbox: the repository\'s code runs as this user (not root, and no passwordless sudo to start the sandbox with)')
      expect(run.markdown).toContain('⚠️ **No isolation**: the repository\'s code ran as this job\'s own user — not root, and no passwordless sudo to start the sandbox with.')
    }
  })
})
