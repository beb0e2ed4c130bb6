/** The sandbox itself, on this machine: who its processes are, what they see, what they may write, how they end. */
import { execFileSync } from 'node:child_process'
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { createSandboxProvider, unisolated, type Sandbox } from '../../src/ports/sandbox.js'
import { describeWhereSandboxed } from '../support/sandbox-probe.js'

const dirs: string[] = []
afterAll(() => dirs.forEach((dir) => rmSync(dir, { recursive: true, force: true })))
const tempDir = (name: string) => {
  const dir = mkdtempSync(join(tmpdir(), `rtg-sandbox-${name}-`))
  dirs.push(dir)
  return dir
}


async function open(env: NodeJS.ProcessEnv = process.env): Promise<{ sandbox: Sandbox; work: string; checkout: string }> {
  const work = tempDir('work')
  const checkout = tempDir('checkout')
  writeFileSync(join(checkout, 'source.js'), 'module.exports = 1\n')
  return { sandbox: await createSandboxProvider(env).open(work, [checkout]), work, checkout }
}

/** The uid the sandbox says its commands run as. */
const sandboxUid = (sandbox: Sandbox) => Number(/^uid (\d+) /.exec(sandbox.detail)?.[1])

const node = (sandbox: Sandbox, cwd: string, script: string, timeoutMs = 30_000) =>
  sandbox.processes.run({ command: process.execPath, args: ['-e', script], cwd, timeoutMs })

describeWhereSandboxed('where this machine can isolate', () => {
  test('its processes run as the run\'s own uid, alone in their PID namespace, with their own home and temp folder', async () => {
    const { sandbox, work } = await open({ ...process.env, ANTHROPIC_API_KEY: 'sk-never-seen-123' })
    expect(sandbox.isolation).toBe('sandbox')
    const result = await node(sandbox, work, `
      const fs = require('fs')
      const pids = fs.readdirSync('/proc').filter((name) => /^\\d+$/.test(name))
      console.log(JSON.stringify({ uid: process.getuid(), gid: process.getgid(), groups: process.getgroups(), pid: process.pid, ppid: process.ppid, pids, home: process.env.HOME, tmp: require('os').tmpdir(), user: process.env.USER, env: Object.keys(process.env) }))`)
    const seen = JSON.parse(result.output.trim())
    const uid = sandboxUid(sandbox)
    expect(seen).toMatchObject({ uid, gid: uid, groups: [uid], user: 'regression-testgen', pid: 1, ppid: 0, pids: ['1'], home: join(work, 'sandbox-home'), tmp: join(work, 'sandbox-tmp') })
    expect(seen.env).not.toContain('ANTHROPIC_API_KEY')
  })

  test('it reads the checkout, writes only the folders shared with it, and the tool removes what it wrote', async () => {
    const { sandbox, work, checkout } = await open()
    const tree = join(work, 'tree')
    mkdirSync(join(tree, 'src'), { recursive: true })
    writeFileSync(join(tree, 'src', 'a.js'), 'x')
    await sandbox.share(tree)
    const result = await node(sandbox, tree, `
      const fs = require('fs')
      const attempt = (what, action) => { try { action(); return what + ': ok' } catch (error) { return what + ': ' + error.code } }
      console.log([
        attempt('read checkout', () => fs.readFileSync(${JSON.stringify(join(checkout, 'source.js'))})),
        attempt('write checkout', () => fs.writeFileSync(${JSON.stringify(join(checkout, 'new.js'))}, 'x')),
        attempt('write tree', () => fs.writeFileSync('src/a.js', 'changed')),
        // A read-only folder of its own inside the tree, as installs make: the tool cannot empty it alone.
        attempt('mkdir tree', () => { fs.mkdirSync('cache/deep', { recursive: true }); fs.writeFileSync('cache/deep/f', 'x'); fs.chmodSync('cache/deep', 0o555); fs.chmodSync('cache', 0o555) }),
      ].join('\\n'))`)
    expect(result.output.trim().split('\n')).toEqual(['read checkout: ok', 'write checkout: EACCES', 'write tree: ok', 'mkdir tree: ok'])
    expect(readFileSync(join(tree, 'src', 'a.js'), 'utf8')).toBe('changed')
    expect(statSync(join(tree, 'cache')).uid).toBe(sandboxUid(sandbox))
    sandbox.remove(tree)
    expect(existsSync(tree)).toBe(false)
  })

  test('a detached child does not outlive the command, nor a timed-out command its children', async () => {
    const { sandbox, work } = await open()
    // In the run's folder: the sandbox's own /tmp would swallow a marker written anywhere else there.
    const markers = join(work, 'markers')
    mkdirSync(markers)
    execFileSync('chmod', ['777', markers])
    // The child writes once the command is long over: after its exit, or after the timeout's kill (2 s of grace).
    const escape = (marker: string, seconds: number) =>
      `require('child_process').spawn('setsid', ['sh', '-c', 'sleep ${seconds}; echo alive > "$0"', ${JSON.stringify(join(markers, marker))}], { detached: true, stdio: 'ignore' }).unref()`
    await node(sandbox, work, escape('after-exit', 1))
    const hanging = await node(sandbox, work, `${escape('after-timeout', 3)}; setInterval(() => {}, 1000)`, 500)
    expect(hanging.timedOut).toBe(true)
    await new Promise((resolve) => setTimeout(resolve, 1500))
    expect(readdirSync(markers)).toEqual([])
  })
})

test('without isolation the commands run as the tool, and the sandbox says why', async () => {
  const sandbox = unisolated('not on this machine')
  expect(sandbox).toMatchObject({ isolation: 'none', detail: 'not on this machine' })
  const result = await node(sandbox, tmpdir(), 'console.log(process.getuid())')
  expect(result.output.trim()).toBe(String(process.getuid?.()))
})

test('a machine with neither root nor sudo nor the programs gets no sandbox, and why', async () => {
  const { sandbox } = await open({ ...process.env, PATH: tempDir('empty-path') })
  expect(sandbox.isolation).toBe('none')
  expect(sandbox.detail).toMatch(/env and setpriv and unshare and prlimit not found/)
})
