/**
 * The run's deadline, met through the bundled CLI: a pull request whose test waits forever (with a child
 * of its own, sleeping) and whose runner's timeout is far away. At the deadline the run ends — the test
 * run killed with its whole tree, nothing further started — with the report written, the verdict `error`
 * naming the deadline, and none of the test's processes left. Through the action too: the summary, the
 * outputs and the artifact hold what was learned.
 */
import { execFile, spawnSync } from 'node:child_process'
import { once } from 'node:events'
import { createServer, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { randomBytes } from 'node:crypto'
import { mkdtemp, readFile, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { promisify } from 'node:util'
import { runBundledAction } from '../support/action-run.js'
import { actionsEnv, startFakeActionsServices } from '../support/fake-actions-services.js'
import { buildFixtureRepo } from '../support/fixture-repo.js'
import { describeWhereSandboxed } from '../support/sandbox-probe.js'
import type { Report } from '../../src/report/report.js'

const root = join(import.meta.dirname ?? new URL('.', import.meta.url).pathname, '..', '..')
// Half a minute: enough to reach the test run on a busy machine; far below the test runs' own 5 minutes.
const DEADLINE_MINUTES = '0.5'

/** A jest test that starts a child named by `marker` and never ends (jest's own timeout is an hour). */
function waitingForever(marker: string): string {
  return `const { spawn } = require('child_process')

test('waits for an answer that never comes', async () => {
  spawn('sh', ['-c', 'sleep 3600; true', ${JSON.stringify(marker)}], { stdio: 'ignore' })
  console.log('waiting forever')
  await new Promise(() => {})
}, 3600000)
`
}

/** The processes whose command line holds `marker` (pgrep exits 1 when there is none). */
function processesNamed(marker: string): string[] {
  const found = spawnSync('pgrep', ['-af', marker], { encoding: 'utf8' })
  return found.stdout.split('\n').filter((line) => line.trim() && !line.includes('pgrep'))
}

/** A Messages API on loopback that takes each request and never answers it. */
async function startSilentModel(): Promise<{ server: Server; baseURL: string; requests: string[] }> {
  const requests: string[] = []
  const server = createServer((request) => void requests.push(`${request.method} ${request.url}`))
  server.listen(0, '127.0.0.1')
  await once(server, 'listening')
  return { server, baseURL: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, requests }
}

async function runBundledCli(args: string[], env: NodeJS.ProcessEnv = {}) {
  return promisify(execFile)(process.execPath, [join(root, 'dist/cli/index.js'), ...args], { env: { PATH: process.env.PATH, HOME: process.env.HOME, ...env } }).then(
    (result) => ({ code: 0, ...result }),
    (error: { code: number; stdout: string; stderr: string }) => ({ code: error.code, stdout: error.stdout, stderr: error.stderr })
  )
}

describeWhereSandboxed('through the bundled CLI', () => {
  test('verify mode: a test that waits forever is killed at the run\'s deadline, and the report says so', async () => {
    const marker = `rtg-deadline-${randomBytes(4).toString('hex')}`
    const repo = await buildFixtureRepo('retry-budget', { headChanges: { 'test/waiting.test.js': waitingForever(marker) } })
    const out = await mkdtemp(join(tmpdir(), 'rtg-deadline-out-'))
    try {
      const started = Date.now()
      const result = await runBundledCli(['verify', '--repo', repo.dir, '--base', repo.base, '--head', repo.head, '--out', out, '--run-timeout-minutes', DEADLINE_MINUTES])
      const seconds = (Date.now() - started) / 1000
      const left = processesNamed(marker)
      const report = JSON.parse(await readFile(join(out, 'report.json'), 'utf8')) as Report
      expect(report.isolation).toBe('sandbox')
      expect(report.verdict).toBe('error')
      expect(report.reason).toMatch(/^The run reached its deadline \(run-timeout-minutes: 0\.5\): the commands running then were killed and nothing further started/)
      expect(await readFile(join(out, 'report.md'), 'utf8')).toContain('The run reached its deadline (run-timeout-minutes: 0.5)')
      const log = result.stdout + result.stderr
      expect(log).toContain('regression-testgen could not finish: The run reached its deadline (run-timeout-minutes: 0.5)')
      // It was the waiting test's run that the deadline ended: the first start at head, the preflight's file
      // with the pull request's other test files (the suite's first run).
      expect(log).toMatch(/Preflight at head: 2 file\(s\) .*timed out after \d/)
      expect(result.code).toBe(2)
      // The deadline's half minute, and the kill's grace; never the test run's own 5 minutes.
      expect(seconds).toBeGreaterThanOrEqual(30)
      expect(seconds).toBeLessThan(90)
      expect(left).toEqual([])
    } finally {
      await rm(out, { recursive: true, force: true })
      await repo.cleanup()
    }
  }, 300_000)
})

describeWhereSandboxed('through the bundled CLI, generate mode', () => {
  test('a model call still waiting at the deadline is given up and its request aborted: the CLI exits with the report written', async () => {
    const repo = await buildFixtureRepo('retry-budget')
    const model = await startSilentModel()
    const out = await mkdtemp(join(tmpdir(), 'rtg-deadline-out-'))
    try {
      const started = Date.now()
      const result = await runBundledCli(['--repo', repo.dir, '--base', repo.base, '--head', repo.head, '--issue', repo.issuePath, '--out', out, '--run-timeout-minutes', DEADLINE_MINUTES], { ANTHROPIC_API_KEY: 'test-key', ANTHROPIC_BASE_URL: model.baseURL })
      const seconds = (Date.now() - started) / 1000
      const report = JSON.parse(await readFile(join(out, 'report.json'), 'utf8')) as Report
      expect(report.verdict).toBe('error')
      expect(report.reason).toMatch(/^The run reached its deadline \(run-timeout-minutes: 0\.5\)/)
      // One request, the first stage's, aborted at the deadline: no retry, nothing after it.
      expect(model.requests).toEqual(['POST /v1/messages'])
      expect(result.code).toBe(2)
      // Without the abort, the request would keep the CLI alive until the SDK's own timeout (10 minutes).
      expect(seconds).toBeGreaterThanOrEqual(30)
      expect(seconds).toBeLessThan(90)
    } finally {
      model.server.closeAllConnections()
      model.server.close()
      await rm(out, { recursive: true, force: true })
      await repo.cleanup()
    }
  }, 300_000)
})

describeWhereSandboxed('through the bundled action', () => {
  test('verify mode: at the deadline the step ends with the summary, outputs and artifact written', async () => {
    const marker = `rtg-deadline-${randomBytes(4).toString('hex')}`
    const repo = await buildFixtureRepo('retry-budget', { headChanges: { 'test/waiting.test.js': waitingForever(marker) } })
    const services = await startFakeActionsServices()
    try {
      const pullRequest = { number: 7, title: 'Retry within the budget', body: '', base: { sha: repo.base }, head: { sha: repo.head } }
      const started = Date.now()
      const run = await runBundledAction({ event: 'pull_request', payload: { action: 'synchronize', number: 7, pull_request: pullRequest }, workspace: repo.dir, inputs: { 'run-timeout-minutes': DEADLINE_MINUTES }, env: actionsEnv(services) })
      const seconds = (Date.now() - started) / 1000
      const left = processesNamed(marker)
      await rm(run.runnerTemp, { recursive: true, force: true })
      expect(run.report).toMatchObject({ isolation: 'sandbox', verdict: 'error', reason: expect.stringMatching(/^The run reached its deadline \(run-timeout-minutes: 0\.5\)/) })
      expect(run.summary).toContain('The run reached its deadline (run-timeout-minutes: 0.5)')
      expect(run.outputs).toMatch(/verdict<<.*\nerror\n/)
      expect(services.artifacts).toHaveLength(1)
      expect(JSON.parse(services.artifacts[0].files['report.json'].toString()).reason).toMatch(/^The run reached its deadline/)
      expect(run.code).not.toBe(0)
      expect(seconds).toBeGreaterThanOrEqual(30)
      expect(seconds).toBeLessThan(90)
      expect(left).toEqual([])
    } finally {
      await services.close()
      await repo.cleanup()
    }
  }, 300_000)
})
