/**
 * A folder closed to others above the checkout (a 0700 home) is opened for the sandbox's user (o+x) while
 * the run needs it, and closed again when the run ends — normally, and when it is interrupted — through
 * the bundled CLI.
 */
import { execFile, spawn } from 'node:child_process'
import { existsSync, statSync } from 'node:fs'
import { chmod, mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { setTimeout as sleep } from 'node:timers/promises'
import { promisify } from 'node:util'
import { buildFixtureRepo } from '../support/fixture-repo.js'
import { describeWhereSandboxed } from '../support/sandbox-probe.js'
import type { Report } from '../../src/report/report.js'

const cli = join(import.meta.dirname ?? new URL('.', import.meta.url).pathname, '..', '..', 'dist', 'cli', 'index.js')
const modeOf = (path: string) => statSync(path).mode & 0o777

/** A fixture repository in a folder only its owner may enter, as a home folder often is. */
async function repoInClosedFolder() {
  const closed = await mkdtemp(join(tmpdir(), 'rtg-closed-home-'))
  const repo = await buildFixtureRepo('retry-budget', { dir: join(closed, 'repo') })
  await chmod(closed, 0o700)
  return { closed, repo, cleanup: () => rm(closed, { recursive: true, force: true }) }
}

describeWhereSandboxed('a folder closed to others above the checkout', () => {
  test('is open during the run and closed again once the run ends', async () => {
    const { closed, repo, cleanup } = await repoInClosedFolder()
    const out = await mkdtemp(join(tmpdir(), 'rtg-closed-out-'))
    try {
      const { stderr } = await promisify(execFile)(process.execPath, [cli, 'verify', '--repo', repo.dir, '--base', repo.base, '--head', repo.head, '--out', out], { env: { PATH: process.env.PATH, HOME: process.env.HOME } })
      const report = JSON.parse(await readFile(join(out, 'report.json'), 'utf8')) as Report
      expect({ verdict: report.verdict, isolation: report.isolation }).toEqual({ verdict: 'fail-to-pass', isolation: 'sandbox' })
      expect(stderr).toContain(`Sandbox: made ${closed} traversable by other users (o+x) for this run`)
      expect(stderr).toContain(`Sandbox: gave ${closed} its mode back`)
      expect(modeOf(closed)).toBe(0o700)
    } finally {
      await Promise.all([cleanup(), rm(out, { recursive: true, force: true })])
    }
  })

  test('and closed again when the run is interrupted', async () => {
    const { closed, repo, cleanup } = await repoInClosedFolder()
    // In the checkout, which the sandbox sees as the host does (its /tmp is its own).
    const tools = join(repo.dir, 'tools')
    const out = await mkdtemp(join(tmpdir(), 'rtg-closed-out-'))
    try {
      // A "test runner" that says it started, then hangs; it runs as the sandbox's user, so its folder is open to it.
      await mkdir(tools)
      await chmod(tools, 0o777)
      const started = join(tools, 'started')
      await writeFile(join(tools, 'hang.mjs'), `import { writeFileSync } from 'node:fs'\nwriteFileSync(${JSON.stringify(started)}, '')\nsetInterval(() => {}, 1000)\n`)
      const args = ['verify', '--repo', repo.dir, '--base', repo.base, '--head', repo.head, '--out', out, '--test-command', `node ${join(tools, 'hang.mjs')} {files}`]
      const child = spawn(process.execPath, [cli, ...args], { env: { PATH: process.env.PATH, HOME: process.env.HOME }, stdio: 'ignore' })
      const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)))
      for (let waited = 0; !existsSync(started) && waited < 60_000; waited += 50) await sleep(50)
      expect(modeOf(closed)).toBe(0o701)

      child.kill('SIGINT')
      expect(await exited).toBe(130)
      expect(modeOf(closed)).toBe(0o700)
    } finally {
      await Promise.all([cleanup(), rm(out, { recursive: true, force: true })])
    }
  }, 90_000)
})
