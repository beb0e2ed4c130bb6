/**
 * The sandbox's network, on this machine: a command not marked `network: true` (a test run) reaches only
 * its own loopback; a command marked so (an install, a build, run through runTreeCommand) reaches a
 * listener outside. The listener is this process's, on 127.0.0.1: outside the sandbox's namespace.
 */
import { once } from 'node:events'
import { mkdtempSync, rmSync } from 'node:fs'
import { createServer, type AddressInfo } from 'node:net'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { runTreeCommand } from '../../src/execute/tree-command.js'
import { createSandboxProvider, sandboxCommand } from '../../src/ports/sandbox.js'
import { linesLogger } from '../support/cli-run.js'
import { describeWhereSandboxed } from '../support/sandbox-probe.js'
import { DEFAULT_LIMITS, prlimitOptions } from '../../src/sandbox-limits.js'

const dirs: string[] = []
afterAll(() => dirs.forEach((dir) => rmSync(dir, { recursive: true, force: true })))

/** Connects to `port` on 127.0.0.1 and says what came of it; then serves and reaches a server of its own on loopback. */
const CONNECT_OUT_AND_IN = `
const net = require('net')
const outcome = (port) => new Promise((resolve) => { const socket = net.connect(port, '127.0.0.1', () => socket.end('sent', () => resolve('delivered'))); socket.on('error', (error) => resolve(error.code)) })
const server = net.createServer((socket) => socket.end('pong')).listen(0, '127.0.0.1', async () => {
  const own = await new Promise((resolve) => { let data = ''; net.connect(server.address().port, '127.0.0.1').on('data', (chunk) => (data += chunk)).on('end', () => resolve(data)).on('error', (error) => resolve(error.code)) })
  server.close()
  console.log('out: ' + (await outcome(Number(process.argv[1]))) + ', own: ' + own)
})`

async function withListener<T>(use: (port: number, received: () => number) => Promise<T>): Promise<T> {
  let connections = 0
  const server = createServer((socket) => (connections++, socket.resume(), socket.on('error', () => undefined))).listen(0, '127.0.0.1')
  await once(server, 'listening')
  try {
    return await use((server.address() as AddressInfo).port, () => connections)
  } finally {
    server.close()
  }
}

test('the chain gets --net and the loopback link only for a command without the network, and only where the launcher has that link', () => {
  const launcher = { privilege: [], env: '/usr/bin/env', setpriv: '/usr/bin/setpriv', unshare: '/usr/bin/unshare', prlimit: '/usr/bin/prlimit', limits: DEFAULT_LIMITS, loopbackUp: ['/bin/sh', '-c', 'script', 'sh', '/usr/sbin/ip'], user: { name: 'nobody', uid: 65534, gid: 65534 } }
  const offline = sandboxCommand(launcher, {}, 'node', ['x.js'], false)
  const words = [offline.command, ...offline.args]
  expect(words.slice(words.indexOf('/usr/bin/unshare'), words.indexOf('--reuid=65534'))).toEqual(['/usr/bin/unshare', '--pid', '--fork', '--kill-child', '--mount-proc', '--ipc', '--net', '--', '/bin/sh', '-c', 'script', 'sh', '/usr/sbin/ip', '/usr/bin/prlimit', ...prlimitOptions(DEFAULT_LIMITS), '--', '/usr/bin/setpriv'])
  expect(words.slice(-2)).toEqual(['node', 'x.js'])
  for (const chain of [sandboxCommand(launcher, {}, 'node', [], true), sandboxCommand({ ...launcher, loopbackUp: null }, {}, 'node', [], false)]) {
    expect(chain.args).not.toContain('--net')
    expect(chain.args).not.toContain('/usr/sbin/ip')
  }
})

describeWhereSandboxed('where this machine can isolate', () => {
  const open = async () => {
    const work = mkdtempSync(join(tmpdir(), 'rtg-sandbox-net-'))
    dirs.push(work)
    return { sandbox: await createSandboxProvider().open(work, []), work }
  }

  test('a test run reaches its own loopback and nothing outside; with network: true it reaches the outside too', async () => {
    const { sandbox, work } = await open()
    expect(sandbox).toMatchObject({ isolation: 'sandbox', isolatesNetwork: true })
    expect(sandbox.detail).toMatch(/network namespaces, loopback only/)
    await withListener(async (port, received) => {
      const run = (network?: boolean) => sandbox.processes.run({ command: process.execPath, args: ['-e', CONNECT_OUT_AND_IN, String(port)], cwd: work, timeoutMs: 30_000, network })
      expect((await run()).output.trim()).toBe('out: ECONNREFUSED, own: pong')
      expect((await run(false)).output.trim()).toBe('out: ECONNREFUSED, own: pong')
      expect(received()).toBe(0)
      expect((await run(true)).output.trim()).toBe('out: delivered, own: pong')
      expect(received()).toBe(1)
    })
  })

  test('an install or a build (runTreeCommand) keeps the network', async () => {
    const { sandbox, work } = await open()
    await withListener(async (port, received) => {
      const log: string[] = []
      await runTreeCommand(sandbox.processes, { command: process.execPath, args: ['-e', CONNECT_OUT_AND_IN, String(port)], env: {} }, work, 30_000, 'The build', linesLogger(log))
      expect(received()).toBe(1)
    })
  })
})
