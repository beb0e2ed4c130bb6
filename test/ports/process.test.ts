import { existsSync, mkdtempSync, readFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { createProcessRunner, killRunningProcesses, testEnvironment } from '../../src/ports/process.js'

const runner = createProcessRunner()

/** Alive and not a zombie (an unreaped zombie counts as gone: it runs nothing and holds nothing). */
function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0)
  } catch {
    return false
  }
  try {
    return !/^\d+ \(.*\) Z/.test(readFileSync(`/proc/${pid}/stat`, 'utf8'))
  } catch {
    return process.platform !== 'linux'
  }
}

async function waitUntilGone(pid: number, ms = 3000): Promise<boolean> {
  const deadline = Date.now() + ms
  while (Date.now() < deadline) {
    if (!isAlive(pid)) return true
    await new Promise((resolve) => setTimeout(resolve, 50))
  }
  return !isAlive(pid)
}

// A child that starts a long sleeper (holding the same stdout), prints its pid, then does `then`.
function parentScript(then: string): string {
  return [
    "const { spawn } = require('node:child_process')",
    "const sleeper = spawn(process.execPath, ['-e', 'setTimeout(() => {}, 60000)'], { stdio: 'inherit' })",
    "console.log('grandchild=' + sleeper.pid)",
    then
  ].join('\n')
}

function grandchildPid(output: string): number {
  const match = /grandchild=(\d+)/.exec(output)
  if (!match) throw new Error(`no grandchild pid in: ${output}`)
  return Number(match[1])
}

describe('createProcessRunner', () => {
  it('kills the child and its grandchild on timeout', async () => {
    const result = await runner.run({ command: process.execPath, args: ['-e', parentScript('setTimeout(() => {}, 60000)')], cwd: tmpdir(), timeoutMs: 1000 })
    expect(result.timedOut).toBe(true)
    expect(result.exitCode).toBeNull()
    expect(result.signal).toBe('SIGTERM')
    expect(result.durationMs).toBeLessThan(10000)
    expect(await waitUntilGone(grandchildPid(result.output))).toBe(true)
  })

  it('kills every running process group on demand (what an interrupted CLI does)', async () => {
    const ready = join(mkdtempSync(join(tmpdir(), 'rtg-kill-')), 'ready')
    const then = `require('node:fs').writeFileSync(${JSON.stringify(ready)}, ''); setTimeout(() => {}, 60000)`
    const pending = runner.run({ command: process.execPath, args: ['-e', parentScript(then)], cwd: tmpdir(), timeoutMs: 60000 })
    for (let waited = 0; !existsSync(ready) && waited < 20000; waited += 50) await new Promise((resolve) => setTimeout(resolve, 50))
    killRunningProcesses()
    const result = await pending
    expect(result).toMatchObject({ timedOut: false, signal: 'SIGKILL' })
    expect(await waitUntilGone(grandchildPid(result.output))).toBe(true)
  })

  it('escalates to SIGKILL when the child ignores SIGTERM', async () => {
    const script = "process.on('SIGTERM', () => {}); console.log('ready'); setInterval(() => {}, 1000)"
    const result = await runner.run({ command: process.execPath, args: ['-e', script], cwd: tmpdir(), timeoutMs: 500 })
    expect(result.timedOut).toBe(true)
    expect(result.signal).toBe('SIGKILL')
    expect(result.output).toContain('ready')
  })

  it('kills grandchildren left behind when the main process exits', async () => {
    const result = await runner.run({ command: process.execPath, args: ['-e', parentScript('process.exit(3)')], cwd: tmpdir(), timeoutMs: 30000 })
    expect(result.timedOut).toBe(false)
    expect(result.exitCode).toBe(3)
    expect(result.durationMs).toBeLessThan(10000)
    expect(await waitUntilGone(grandchildPid(result.output))).toBe(true)
  })

  it('captures stdout and stderr interleaved, with the exit code', async () => {
    const script = "process.stdout.write('out-1\\n'); setTimeout(() => { process.stderr.write('err-2\\n'); setTimeout(() => { process.stdout.write('out-3\\n'); process.exitCode = 2 }, 50) }, 50)"
    const result = await runner.run({ command: process.execPath, args: ['-e', script], cwd: tmpdir(), timeoutMs: 10000 })
    expect(result).toMatchObject({ exitCode: 2, signal: null, timedOut: false })
    expect(result.output).toBe('out-1\nerr-2\nout-3\n')
  })

  it('keeps only the tail of a large output', async () => {
    const script = "process.stdout.write('a'.repeat(600 * 1024)); process.stdout.write('THE-END')"
    const result = await runner.run({ command: process.execPath, args: ['-e', script], cwd: tmpdir(), timeoutMs: 10000 })
    expect(result.output.length).toBe(256 * 1024)
    expect(result.output.endsWith('aTHE-END')).toBe(true)
  })

  it('never uses a shell', async () => {
    const result = await runner.run({ command: 'echo', args: ['$HOME', '&&', 'echo', 'pwned'], cwd: tmpdir(), timeoutMs: 10000 })
    expect(result.output).toBe('$HOME && echo pwned\n')
  })

  it('reports a command that cannot start', async () => {
    const result = await runner.run({ command: 'no-such-command-xyz', args: [], cwd: tmpdir(), timeoutMs: 10000 })
    expect(result.exitCode).toBeNull()
    expect(result.output).toContain('ENOENT')
  })

  it('passes request variables, but not the parent secrets, to the child', async () => {
    const secrets = createProcessRunner({ ...process.env, ANTHROPIC_API_KEY: 'sk-secret', GITHUB_TOKEN: 'ghs-secret' })
    const script = 'console.log(JSON.stringify([process.env.ANTHROPIC_API_KEY, process.env.GITHUB_TOKEN, process.env.EXTRA, process.env.CI]))'
    const result = await secrets.run({ command: process.execPath, args: ['-e', script], cwd: tmpdir(), env: { EXTRA: 'yes' }, timeoutMs: 10000 })
    expect(JSON.parse(result.output)).toEqual([null, null, 'yes', 'true'])
  })

  it('does not pass this process own secrets or NODE_OPTIONS by default', async () => {
    process.env.REGRESSION_TESTGEN_TEST_SECRET = 'hush'
    try {
      const script = 'console.log(JSON.stringify([process.env.REGRESSION_TESTGEN_TEST_SECRET, process.env.NODE_OPTIONS, typeof process.env.PATH]))'
      const result = await runner.run({ command: process.execPath, args: ['-e', script], cwd: tmpdir(), timeoutMs: 10000 })
      expect(JSON.parse(result.output)).toEqual([null, null, 'string'])
    } finally {
      delete process.env.REGRESSION_TESTGEN_TEST_SECRET
    }
  })
})

describe('testEnvironment', () => {
  const parent = {
    PATH: '/usr/bin',
    HOME: '/home/me',
    LANG: 'C.UTF-8',
    LC_ALL: 'C.UTF-8',
    ANTHROPIC_API_KEY: 'sk-secret',
    GITHUB_TOKEN: 'ghs-secret',
    ACTIONS_RUNTIME_TOKEN: 'runtime',
    INPUT_FOO: 'input',
    NODE_OPTIONS: '--require evil.js',
    CI: 'false',
    FORCE_COLOR: '3'
  }

  it('keeps only allow-listed variables and sets quiet CI settings, never forcing colour off', () => {
    // FORCE_COLOR=0 would override a repository's own --color=true (snapshots with colour codes).
    expect(testEnvironment(parent)).toEqual({
      PATH: '/usr/bin',
      HOME: '/home/me',
      LANG: 'C.UTF-8',
      LC_ALL: 'C.UTF-8',
      CI: 'true',
      NO_COLOR: '1'
    })
  })
})
