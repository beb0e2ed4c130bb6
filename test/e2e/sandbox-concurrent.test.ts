/**
 * Two runs on one machine at once, through the bundled CLI (verify mode, two repositories): run A's pull
 * request brings a test that looks for other runs' folders and writes the fixed source into their pre-fix
 * trees, which would make their fix look like no fix at all. Run B is held (its own test waits at a gate
 * in its checkout) with its trees made, while A runs; then B goes on. Each run is its own uid and its
 * folder is closed to every other: A reaches nothing, and each gets its right verdict.
 */
import { execFile, spawn } from 'node:child_process'
import { once } from 'node:events'
import { existsSync, readdirSync, readFileSync } from 'node:fs'
import { chmod, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { promisify } from 'node:util'
import { buildFixtureRepo, fixturesDir, type FixtureRepo } from '../support/fixture-repo.js'
import { describeWhereSandboxed } from '../support/sandbox-probe.js'
import type { Report } from '../../src/report/report.js'

const root = join(import.meta.dirname ?? new URL('.', import.meta.url).pathname, '..', '..')
const FIXED_FILE = 'src/streaming-transport.ts'
const ATTACK_TITLE = 'other runs reached'
const GATE_WAIT_MS = 180_000
/** Written by B's gate test in the tree it runs in: B's trees are all made by then. */
const WAITING_MARKER = 'gate-waiting'

/** A test (of A's pull request) that writes the fixed source into every other run's pre-fix tree it finds in `parent`. */
function attackTestFile(parent: string): string {
  const fixed = readFileSync(join(fixturesDir(), 'retry-budget', 'fix', FIXED_FILE), 'utf8')
  return `const fs = require('fs')
const path = require('path')
const parent = ${JSON.stringify(parent)}
const reached = []
for (const name of fs.readdirSync(parent).filter((name) => name.startsWith('regression-testgen-'))) {
  const work = path.join(parent, name)
  if (process.cwd().startsWith(work + path.sep)) continue
  // The tree's name is the tool's own: no listing needed to guess it.
  for (const tree of ['trees/pre-fix', 'trees/head']) {
    try { fs.writeFileSync(path.join(work, tree, ${JSON.stringify(FIXED_FILE)}), ${JSON.stringify(fixed)}); reached.push('wrote ' + name + '/' + tree) } catch (error) { if (error.code !== 'EACCES') reached.push(name + '/' + tree + ': ' + error.code) }
  }
  try { fs.readdirSync(work); reached.push('listed ' + name) } catch {}
}
test('${ATTACK_TITLE}: ' + (reached.join(', ') || 'none'), () => {})
`
}

/** A test (of B's pull request) that holds B's run, trees made, until the gate file appears in its checkout; says it waits. */
function gateTestFile(gate: string): string {
  return `const fs = require('fs')
fs.writeFileSync(${JSON.stringify(WAITING_MARKER)}, '')
const deadline = Date.now() + ${GATE_WAIT_MS}
while (!fs.existsSync(${JSON.stringify(gate)}) && Date.now() < deadline) Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, 100)
test('the gate opened', () => expect(fs.existsSync(${JSON.stringify(gate)})).toBe(true))
`
}

async function pullRequestWith(file: string, content: (repo: FixtureRepo) => string): Promise<{ repo: FixtureRepo; head: string }> {
  const repo = await buildFixtureRepo('retry-budget')
  await writeFile(join(repo.dir, file), content(repo))
  const git = (...args: string[]) => promisify(execFile)('git', ['-c', 'user.name=PR', '-c', 'user.email=pr@fixture.invalid', ...args], { cwd: repo.dir })
  await git('add', file)
  await git('commit', '-q', '-m', 'test: one more')
  return { repo, head: (await git('rev-parse', 'HEAD')).stdout.trim() }
}

/** The bundled CLI in verify mode, its temp folder (and so its run's folder) in `parent`. */
function startCli(repo: FixtureRepo, head: string, out: string, parent: string): { done: Promise<{ code: number | null; output: string }> } {
  const child = spawn(process.execPath, [join(root, 'dist/cli/index.js'), 'verify', '--repo', repo.dir, '--base', repo.base, '--head', head, '--out', out], {
    env: { PATH: process.env.PATH, HOME: process.env.HOME, TMPDIR: parent },
    stdio: ['ignore', 'pipe', 'pipe']
  })
  let output = ''
  child.stdout.on('data', (chunk) => (output += chunk))
  child.stderr.on('data', (chunk) => (output += chunk))
  return { done: once(child, 'close').then(([code]) => ({ code: code as number | null, output })) }
}

/** B's pre-fix tree's fixed file, once B waits at its gate (its trees all made). */
async function preFixSourceOf(parent: string, run: Promise<unknown>): Promise<string> {
  let ended = false
  void run.then(() => (ended = true))
  for (;;) {
    const works = readdirSync(parent).filter((name) => name.startsWith('regression-testgen-'))
    const waiting = works.find((name) => entries(join(parent, name, 'trees')).some((tree) => existsSync(join(parent, name, 'trees', tree, WAITING_MARKER))))
    if (waiting) return join(parent, waiting, 'trees', 'pre-fix', FIXED_FILE)
    if (ended) throw new Error('run B ended before its pre-fix tree was seen')
    await new Promise((resolve) => setTimeout(resolve, 100))
  }
}

/** A folder's names, none while it does not exist yet. */
function entries(dir: string): string[] {
  try {
    return readdirSync(dir)
  } catch {
    return []
  }
}

const reportOf = async (out: string) => JSON.parse(await readFile(join(out, 'report.json'), 'utf8')) as Report

describeWhereSandboxed('two runs on one machine at once', () => {
  test('run A\'s test cannot find nor write run B\'s trees: each run gets its own verdict', async () => {
    // The runs' temp folder, open to all as /tmp is (but only theirs in it: the attack touches nothing else).
    const parent = await mkdtemp(join(tmpdir(), 'rtg-concurrent-'))
    await chmod(parent, 0o1777)
    const outA = await mkdtemp(join(tmpdir(), 'rtg-concurrent-out-a-'))
    const outB = await mkdtemp(join(tmpdir(), 'rtg-concurrent-out-b-'))
    const gateIn = (repo: FixtureRepo) => join(repo.dir, 'gate-open')
    const b = await pullRequestWith('test/gate.test.js', (repo) => gateTestFile(gateIn(repo)))
    const gate = gateIn(b.repo)
    const a = await pullRequestWith('test/other-runs.test.js', () => attackTestFile(parent))
    let runB: Promise<unknown> = Promise.resolve()
    try {
      runB = startCli(b.repo, b.head, outB, parent).done
      const preFixSource = await preFixSourceOf(parent, runB)
      const preFixBefore = await readFile(preFixSource, 'utf8')

      const resultA = await startCli(a.repo, a.head, outA, parent).done
      const preFixAfterA = await readFile(preFixSource, 'utf8')
      await writeFile(gate, '')
      const resultB = (await runB) as { code: number | null }

      // B's pre-fix tree was as B made it after A's run, while B still ran.
      expect(preFixAfterA).toBe(preFixBefore)
      const [reportA, reportB] = [await reportOf(outA), await reportOf(outB)]
      expect(reportA.tests.map((test) => test.name)).toContain(`${ATTACK_TITLE}: none`)
      expect({ verdict: reportA.verdict, code: resultA.code }).toEqual({ verdict: 'fail-to-pass', code: 0 })
      expect({ verdict: reportB.verdict, code: resultB.code, reason: reportB.reason }).toMatchObject({ verdict: 'fail-to-pass', code: 0 })
      expect(reportB.tests.find((test) => test.name === 'the gate opened')).toMatchObject({ head: 'passed' })
      // Each ran as a uid of its own.
      const uidOf = (report: Report) => /^uid (\d+) /.exec(report.isolationDetail)?.[1]
      expect(uidOf(reportA)).toMatch(/^\d+$/)
      expect(uidOf(reportA)).not.toBe(uidOf(reportB))
    } finally {
      // B never outlives the test, whatever failed.
      await writeFile(gate, '').catch(() => undefined)
      await runB
      await Promise.all([a.repo.cleanup(), b.repo.cleanup(), ...[parent, outA, outB].map((dir) => rm(dir, { recursive: true, force: true }))])
    }
  }, 600_000)
})
