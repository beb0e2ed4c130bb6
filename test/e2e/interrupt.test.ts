/** Ctrl-C or a cancelled job: the run takes its test processes and its temporary worktrees with it. */
import { spawn } from 'node:child_process'
import { existsSync, readdirSync, readFileSync } from 'node:fs'
import { chmod, mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { setTimeout as sleep } from 'node:timers/promises'
import { buildFixtureRepo } from '../support/fixture-repo.js'

const cli = join(import.meta.dirname ?? new URL('.', import.meta.url).pathname, '..', '..', 'dist', 'cli', 'index.js')

/** The hanging runner beats every 50 ms: it is alive while its heartbeat file changes. */
async function isBeating(heartbeat: string): Promise<boolean> {
  const before = readFileSync(heartbeat, 'utf8')
  await sleep(500)
  return readFileSync(heartbeat, 'utf8') !== before
}

/** The repository's worktree entries (`.git/worktrees/<name>`): a run leaves none behind. */
function worktreeEntries(repoDir: string): string[] {
  const folder = join(repoDir, '.git', 'worktrees')
  return existsSync(folder) ? readdirSync(folder).sort() : []
}

test('SIGINT during a test run ends the runner, removes the worktrees and git\'s entries for them, and says so in run.log (exit 130)', async () => {
  const repo = await buildFixtureRepo('retry-budget')
  const tmp = await mkdtemp(join(tmpdir(), 'rtg-interrupt-tmp-'))
  const tools = await mkdtemp(join(tmpdir(), 'rtg-interrupt-tools-'))
  try {
    // A "test runner" that hangs, beating; it may run as the sandbox's user, so the folder is open to it. In
    // the checkout: the sandbox sees its own /tmp, not this test's folders there.
    const runner = join(repo.dir, '.hanging-runner')
    await mkdir(runner, { mode: 0o777 })
    await chmod(runner, 0o777)
    const heartbeat = join(runner, 'heartbeat')
    await writeFile(join(runner, 'hang.mjs'), `import { writeFileSync } from 'node:fs'\nsetInterval(() => writeFileSync(${JSON.stringify(heartbeat)}, String(Date.now())), 50)\n`)
    const args = ['verify', '--repo', repo.dir, '--base', repo.base, '--head', repo.head, '--out', join(tools, 'out'), '--test-command', `node ${join(runner, 'hang.mjs')} {files}`]
    const child = spawn(process.execPath, [cli, ...args], { env: { PATH: process.env.PATH, HOME: process.env.HOME, TMPDIR: tmp }, stdio: 'ignore' })
    const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)))

    for (let waited = 0; !existsSync(heartbeat) && waited < 30_000; waited += 50) await sleep(50)
    expect(await isBeating(heartbeat)).toBe(true)
    expect(readdirSync(tmp).filter((name) => name.startsWith('regression-testgen-'))).toHaveLength(1)
    expect(worktreeEntries(repo.dir)).toEqual(['head', 'pre-fix'])

    child.kill('SIGINT')
    expect(await exited).toBe(130)
    expect(await isBeating(heartbeat)).toBe(false)
    expect(readdirSync(tmp).filter((name) => name.startsWith('regression-testgen-'))).toEqual([])
    expect(worktreeEntries(repo.dir)).toEqual([])
    const runLog = readFileSync(join(tools, 'out', 'run.log'), 'utf8').trimEnd().split('\n')
    expect(runLog.at(-1)).toMatch(/^\S+ warn run interrupted \(SIGINT\)$/)
    // The lock went with the run; its results folder holds no report of an earlier run.
    expect(readdirSync(join(tools, 'out')).sort()).toEqual(['.regression-testgen-output', 'run.log'])
  } finally {
    await Promise.all([rm(tmp, { recursive: true, force: true }), rm(tools, { recursive: true, force: true }), repo.cleanup()])
  }
}, 60_000)
