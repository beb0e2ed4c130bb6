/**
 * The sandbox's limits on this machine, met by a real jest run inside the real sandbox: a test that forks
 * without bound, one that writes a huge file, one that allocates without bound. Each ends at once, and
 * its failure is read as `resource`, naming the limit; a plain suite runs as before.
 */
import { mkdir, mkdtemp, rm, symlink, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { dirname, join, resolve } from 'node:path'
import { jestAdapter } from '../../src/frameworks/jest.js'
import { createSandboxProvider, sandboxCommand } from '../../src/ports/sandbox.js'
import { DEFAULT_LIMITS } from '../../src/sandbox-limits.js'
import { classifyPreFixFailure } from '../../src/verdict/failure-kind.js'
import { describeWhereSandboxed } from '../support/sandbox-probe.js'

const OUR_NODE_MODULES = resolve('node_modules')
const dirs: string[] = []
afterAll(() => Promise.all(dirs.map((dir) => rm(dir, { recursive: true, force: true }))))

/** A jest project in a tree the sandbox may write, run by the real adapter through the sandbox's processes. */
async function runInSandbox(testFile: string) {
  const work = await mkdtemp(join(tmpdir(), 'rtg-limits-'))
  dirs.push(work)
  const sandbox = await createSandboxProvider().open(work, [dirname(OUR_NODE_MODULES)])
  expect(sandbox.isolation).toBe('sandbox')
  const tree = join(work, 'tree')
  const scratch = join(work, 'scratch')
  const files = {
    'package.json': JSON.stringify({ name: 'hostile', version: '1.0.0', scripts: { test: 'jest' }, devDependencies: { jest: '*' } }),
    'test/hostile.test.js': testFile
  }
  for (const [path, content] of Object.entries(files)) {
    await mkdir(dirname(join(tree, path)), { recursive: true })
    await writeFile(join(tree, path), content)
  }
  await mkdir(scratch)
  await symlink(OUR_NODE_MODULES, join(tree, 'node_modules'), 'dir')
  await sandbox.share(tree)
  await sandbox.share(scratch)
  const started = Date.now()
  const result = await jestAdapter.run({ treeDir: tree, files: ['test/hostile.test.js'], scratchDir: scratch, timeoutMs: 120_000 }, sandbox.processes)
  const seconds = (Date.now() - started) / 1000
  sandbox.remove(tree)
  sandbox.remove(scratch)
  return { result, seconds, failure: (name: string) => classifyPreFixFailure({ file: 'test/hostile.test.js', name }, result) }
}

test('the chain sets the limits while still root, just before the sandbox user takes over', () => {
  const launcher = { privilege: [], env: '/usr/bin/env', setpriv: '/usr/bin/setpriv', unshare: '/usr/bin/unshare', prlimit: '/usr/bin/prlimit', limits: DEFAULT_LIMITS, loopbackUp: null, user: { name: 'nobody', uid: 65534, gid: 65534 } }
  const { command, args } = sandboxCommand(launcher, {}, 'node', ['x.js'], false)
  const chain = [command, ...args]
  const prlimit = chain.indexOf('/usr/bin/prlimit')
  expect(chain.slice(prlimit, prlimit + 5)).toEqual(['/usr/bin/prlimit', `--nproc=${DEFAULT_LIMITS.processes}`, `--fsize=${DEFAULT_LIMITS.fileSizeMb * 1024 * 1024}`, `--data=${DEFAULT_LIMITS.memoryMb * 1024 * 1024}`, '--'])
  expect(prlimit).toBeGreaterThan(chain.indexOf('/usr/bin/unshare'))
  expect(prlimit).toBeLessThan(chain.indexOf('--reuid=65534'))
})

describeWhereSandboxed('a test that fights the machine, in the sandbox', () => {
  test('forking without bound meets the process limit, and the failure names it', async () => {
    const { failure, seconds } = await runInSandbox(`const { spawn } = require('child_process')
test('forks without bound', async () => {
  const children = []
  try {
    // Each child sleeps, so none ends to make room: only the limit stops this.
    for (let i = 0; i < 100000; i++) {
      const child = spawn('sleep', ['60'], { stdio: 'ignore' })
      children.push(child)
      await new Promise((ok, fail) => { child.once('spawn', ok); child.once('error', fail) })
    }
  } finally {
    for (const child of children) child.kill('SIGKILL')
  }
}, 100000)
`)
    expect(failure('forks without bound')).toEqual({ kind: 'resource', line: expect.stringMatching(/^hit the sandbox's process limit \(2048 processes and threads\): .*EAGAIN/) })
    expect(seconds).toBeLessThan(60)
  })

  test('writing a huge file meets the file size limit, and the failure names it', async () => {
    const { failure, seconds } = await runInSandbox(`const fs = require('fs')
test('writes without bound', () => {
  const block = Buffer.alloc(4 << 20, 1)
  const fd = fs.openSync(require('path').join(require('os').tmpdir(), 'huge'), 'w')
  try { for (;;) fs.writeSync(fd, block) } finally { fs.closeSync(fd); fs.rmSync(require('path').join(require('os').tmpdir(), 'huge')) }
})
`)
    expect(failure('writes without bound')).toEqual({ kind: 'resource', line: expect.stringMatching(/^hit the sandbox's file size limit \(1024 MB per file\): .*EFBIG/) })
    expect(seconds).toBeLessThan(60)
  })

  test('allocating without bound meets the memory limit, and the failure names it', async () => {
    const { failure, seconds } = await runInSandbox(`test('allocates without bound', () => {
  const kept = []
  // Outside V8's heap, which has its own limit: only the sandbox's stops this.
  for (;;) kept.push(Buffer.allocUnsafe(64 << 20))
})
`)
    expect(failure('allocates without bound')).toEqual({ kind: 'resource', line: expect.stringMatching(/^hit the sandbox's memory limit \(4096 MB per process\): .*allocation failed/) })
    expect(seconds).toBeLessThan(60)
  })

  test('a plain suite still passes under the limits', async () => {
    const { result } = await runInSandbox(`test('adds', () => { expect(1 + 2).toBe(3) })\ntest('spawns a child', () => { expect(require('child_process').execFileSync('node', ['-e', 'console.log(6 * 7)']).toString().trim()).toBe('42') })\n`)
    expect(result.tests.map((test) => [test.name, test.status])).toEqual([['adds', 'passed'], ['spawns a child', 'passed']])
  })
})
