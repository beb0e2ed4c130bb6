/** Ctrl-C or a cancelled job: the run takes its test processes and its temporary worktrees with it. */
import { spawn } from 'node:child_process'
import { existsSync, readdirSync, readFileSync } from 'node:fs'
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { setTimeout as sleep } from 'node:timers/promises'
import { buildFixtureRepo } from '../support/fixture-repo.js'

const cli = join(import.meta.dirname ?? new URL('.', import.meta.url).pathname, '..', '..', 'dist', 'cli', 'index.js')

/** Alive and not a zombie (a container's init may never reap the killed runner). */
const isRunning = (pid: number) => {
  try {
    return !/^State:\s+Z/m.test(readFileSync(`/proc/${pid}/status`, 'utf8'))
  } catch {
    return false
  }
}

test('SIGINT during a test run ends the runner and removes the worktrees folder (exit 130)', async () => {
  const repo = await buildFixtureRepo('retry-budget')
  const tmp = await mkdtemp(join(tmpdir(), 'rtg-interrupt-tmp-'))
  const tools = await mkdtemp(join(tmpdir(), 'rtg-interrupt-tools-'))
  try {
    // A "test runner" that says it started, then hangs.
    const started = join(tools, 'started')
    await writeFile(join(tools, 'hang.mjs'), `import { writeFileSync } from 'node:fs'\nwriteFileSync(${JSON.stringify(started)}, String(process.pid))\nsetInterval(() => {}, 1000)\n`)
    const args = ['verify', '--repo', repo.dir, '--base', repo.base, '--head', repo.head, '--out', join(tools, 'out'), '--test-command', `node ${join(tools, 'hang.mjs')} {files}`]
    const child = spawn(process.execPath, [cli, ...args], { env: { PATH: process.env.PATH, HOME: process.env.HOME, TMPDIR: tmp }, stdio: 'ignore' })
    const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)))

    for (let waited = 0; !existsSync(started) && waited < 30_000; waited += 50) await sleep(50)
    const runnerPid = Number(await readFile(started, 'utf8'))
    expect(readdirSync(tmp).filter((name) => name.startsWith('regression-testgen-'))).toHaveLength(1)

    child.kill('SIGINT')
    expect(await exited).toBe(130)
    expect(isRunning(runnerPid)).toBe(false)
    expect(readdirSync(tmp).filter((name) => name.startsWith('regression-testgen-'))).toEqual([])
  } finally {
    await Promise.all([rm(tmp, { recursive: true, force: true }), rm(tools, { recursive: true, force: true }), repo.cleanup()])
  }
}, 60_000)
