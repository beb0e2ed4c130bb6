/**
 * The output folder through the bundled CLI and action: outside the repository by default, never a user's
 * folder cleared, inside the repository only when git ignores it, one run at a time, a bad path refused at once.
 */
import { execFile, spawn } from 'node:child_process'
import { existsSync, readdirSync, readFileSync } from 'node:fs'
import { appendFile, chmod, mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { setTimeout as sleep } from 'node:timers/promises'
import { promisify } from 'node:util'
import { LOCK_FILE, MARKER_FILE } from '../../src/ports/out-folder.js'
import { runBundledAction } from '../support/action-run.js'
import { buildFixtureRepo, type FixtureRepo } from '../support/fixture-repo.js'

const cli = join(import.meta.dirname ?? new URL('.', import.meta.url).pathname, '..', '..', 'dist', 'cli', 'index.js')

let repo: FixtureRepo
let scratch = ''
beforeAll(async () => (repo = await buildFixtureRepo('retry-budget')))
afterAll(() => repo.cleanup())
beforeEach(async () => (scratch = await mkdtemp(join(tmpdir(), 'rtg-out-e2e-'))))
afterEach(() => rm(scratch, { recursive: true, force: true }))

interface CliResult {
  code: number
  stderr: string
}

/** The bundled CLI in verify mode on the fixture; a run that spun on a bad path would be killed, and fail the test. */
function runBundledCli(extra: string[], options: { cwd?: string; env?: Record<string, string> } = {}): Promise<CliResult> {
  const args = ['verify', '--repo', repo.dir, '--base', repo.base, '--head', repo.head, ...extra]
  return promisify(execFile)(process.execPath, [cli, ...args], { cwd: options.cwd ?? scratch, timeout: 120_000, env: { PATH: process.env.PATH, HOME: scratch, ...options.env } }).then(
    ({ stderr }) => ({ code: 0, stderr }),
    (error: { code: number; stderr: string }) => ({ code: error.code, stderr: error.stderr })
  )
}

const repoStatus = () => promisify(execFile)('git', ['status', '--porcelain', '--ignored'], { cwd: repo.dir }).then(({ stdout }) => stdout)

test('by default the output goes outside the repository, to a folder per repository under the cache, named at the end', async () => {
  const cache = join(scratch, 'cache')
  const before = await repoStatus()
  // Run from the repository's root, where the old default landed inside it.
  const run = await runBundledCli([], { cwd: repo.dir, env: { XDG_CACHE_HOME: cache } })
  expect(run.code).toBe(0)
  const [folder] = readdirSync(join(cache, 'regression-testgen'))
  const out = join(cache, 'regression-testgen', folder)
  expect(folder).toMatch(/-[0-9a-f]{8}$/)
  expect(JSON.parse(readFileSync(join(out, 'report.json'), 'utf8'))).toMatchObject({ verdict: 'fail-to-pass' })
  expect(run.stderr.trimEnd().split('\n').at(-1)).toBe(`output folder: ${out} (report.md, report.json, run.log, suite/)`)
  expect(await repoStatus()).toBe(before)
})

test("a user's file in a folder the tool made survives the next run, which replaces only its own results", async () => {
  const out = join(scratch, 'out')
  expect((await runBundledCli(['--out', out])).code).toBe(0)
  await writeFile(join(out, 'my-notes.md'), 'mine')
  await writeFile(join(out, 'suite', 'left-over.test.js'), 'stale')
  await appendFile(join(out, 'report.md'), '\nstale line\n')

  expect((await runBundledCli(['--out', out])).code).toBe(0)
  expect(readFileSync(join(out, 'my-notes.md'), 'utf8')).toBe('mine')
  expect(existsSync(join(out, 'suite', 'left-over.test.js'))).toBe(false)
  expect(readFileSync(join(out, 'report.md'), 'utf8')).not.toContain('stale line')
  expect(readdirSync(out).sort()).toEqual([MARKER_FILE, 'my-notes.md', 'report.json', 'report.md', 'run.log', 'suite'].sort())
})

test('a folder with files the tool did not make is refused, and left as it was', async () => {
  const out = join(scratch, 'mine')
  await mkdir(join(out, 'suite'), { recursive: true })
  await writeFile(join(out, 'suite', 'precious.txt'), 'precious')
  await writeFile(join(out, 'concerns'), 'a file of mine')
  const run = await runBundledCli(['--out', out])
  expect(run.code).toBe(2)
  expect(run.stderr).toContain(`regression-testgen: --out ${out}: the folder holds files and was not written by regression-testgen (no ${MARKER_FILE} in it) (pass --out an empty or new folder; nothing in this one was removed)`)
  expect(readdirSync(out).sort()).toEqual(['concerns', 'suite'])
  expect(readFileSync(join(out, 'suite', 'precious.txt'), 'utf8')).toBe('precious')
})

test('--out inside the repository is refused unless git ignores it', async () => {
  const inside = join(repo.dir, 'rtg-results')
  const refused = await runBundledCli(['--out', inside])
  expect(refused.code).toBe(2)
  expect(refused.stderr).toContain(`regression-testgen: --out ${inside}: is inside the repository under test, and git does not ignore it`)
  expect(existsSync(inside)).toBe(false)

  const exclude = join(repo.dir, '.git', 'info', 'exclude')
  const excluded = existsSync(exclude) ? readFileSync(exclude, 'utf8') : ''
  await mkdir(join(repo.dir, '.git', 'info'), { recursive: true })
  await writeFile(exclude, `${excluded}\n/rtg-results/\n`)
  try {
    const ignored = await runBundledCli(['--out', inside])
    expect(ignored.code).toBe(0)
    expect(JSON.parse(readFileSync(join(inside, 'report.json'), 'utf8'))).toMatchObject({ verdict: 'fail-to-pass' })
  } finally {
    await rm(inside, { recursive: true, force: true })
    await writeFile(exclude, excluded)
  }
})

test.each([
  ['/proc/x', '--out /proc/x: cannot create /proc/x (ENOENT) (pass --out a folder you can create and write)'],
  ['<a file>', '--out <a file>: <a file> is in the way and is not a folder (pass --out a folder, not a file or a special path)'],
  ['<a file>/out', '--out <a file>/out: <a file> is in the way and is not a folder (pass --out a folder, not a file or a special path)']
])('a bad --out (%s) is refused before any work, saying what is wrong', async (path, message) => {
  const file = join(scratch, 'a-file')
  await writeFile(file, 'x')
  const run = await runBundledCli(['--out', path.replace('<a file>', file)])
  expect(run.code).toBe(2)
  // One line, the error (its prefix is the logger's).
  const lines = run.stderr.trim().split('\n')
  expect(lines).toHaveLength(1)
  expect(lines[0].endsWith(`regression-testgen: ${message.replaceAll('<a file>', file)}`)).toBe(true)
  expect(readFileSync(file, 'utf8')).toBe('x')
})

test('a second run on the same --out is refused while the first holds it', async () => {
  // The first run hangs in its test command until it is stopped; the folder is open to the sandbox's user. In
  // the checkout: the sandbox sees its own /tmp, not this test's folders there.
  const runner = await mkdtemp(join(repo.dir, '.hanging-runner-'))
  await chmod(runner, 0o777)
  const started = join(runner, 'started')
  await writeFile(join(runner, 'hang.mjs'), `import { writeFileSync } from 'node:fs'\nwriteFileSync(${JSON.stringify(started)}, '')\nsetInterval(() => {}, 1000)\n`)
  const out = join(scratch, 'out')
  const args = ['verify', '--repo', repo.dir, '--base', repo.base, '--head', repo.head, '--out', out, '--test-command', `node ${join(runner, 'hang.mjs')} {files}`]
  const first = spawn(process.execPath, [cli, ...args], { env: { PATH: process.env.PATH, HOME: scratch }, stdio: 'ignore' })
  const exited = new Promise<number | null>((resolve) => first.once('exit', (code) => resolve(code)))
  try {
    for (let waited = 0; !existsSync(started) && waited < 60_000; waited += 50) await sleep(50)
    const second = await runBundledCli(['--out', out])
    expect(second.code).toBe(2)
    expect(second.stderr).toContain(`regression-testgen: --out ${out}: another run (pid ${first.pid} on `)
    expect(second.stderr).toContain(`is writing to this folder (pass --out another folder, or wait for that run to end (if no run is going, delete ${join(out, LOCK_FILE)}))`)
  } finally {
    first.kill('SIGTERM')
    expect(await exited).toBe(143)
    await rm(runner, { recursive: true, force: true })
  }
  // The interrupted run gave its lock back: the next one goes ahead.
  expect(existsSync(join(out, LOCK_FILE))).toBe(false)
  expect((await runBundledCli(['--out', out])).code).toBe(0)
}, 180_000)

describe('the bundled action', () => {
  const payload = () => ({ number: 7, pull_request: { number: 7, title: 'Fix', body: '', base: { sha: repo.base }, head: { sha: repo.head } } })

  test('writes to the runner temp folder by default, not the workspace', async () => {
    const before = await repoStatus()
    const run = await runBundledAction({ event: 'pull_request', payload: payload(), workspace: repo.dir })
    expect(run.code).toBe(0)
    expect(run.report).toMatchObject({ verdict: 'fail-to-pass' })
    expect(run.outputs).toContain(join(run.runnerTemp, 'regression-testgen', 'report.json'))
    expect(await repoStatus()).toBe(before)
    await rm(run.runnerTemp, { recursive: true, force: true })
  })

  test('refuses an output-dir inside the workspace that git does not ignore, naming the input', async () => {
    const inside = join(repo.dir, 'rtg-action-out')
    const run = await runBundledAction({ event: 'pull_request', payload: payload(), workspace: repo.dir, inputs: { 'output-dir': inside } })
    expect(run.code).toBe(1)
    expect(run.stdout).toContain(`::error::output-dir ${inside}: is inside the repository under test, and git does not ignore it`)
    expect(existsSync(inside)).toBe(false)
    await rm(run.runnerTemp, { recursive: true, force: true })
  })
})
