/**
 * Nothing outlives the run in shared space, nothing there is seen: a pull request's test writes files into
 * /tmp and /dev/shm, looks for one the machine has in /tmp, and uses os.tmpdir() as tests do — run through
 * the bundled CLI in verify mode. The sandbox's /tmp, /var/tmp and /dev/shm are its own (a tmpfs per
 * command, the run's folders bound back in), so the files are gone when the command ends.
 */
import { Ajv } from 'ajv'
import { execFile } from 'node:child_process'
import { randomBytes } from 'node:crypto'
import { existsSync, readFileSync } from 'node:fs'
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { promisify } from 'node:util'
import { buildFixtureRepo } from '../support/fixture-repo.js'
import { describeWhereSandboxed } from '../support/sandbox-probe.js'
import type { Report } from '../../src/report/report.js'

const root = join(import.meta.dirname ?? new URL('.', import.meta.url).pathname, '..', '..')
const validateReport = new Ajv({ allErrors: true, strict: false }).compile(JSON.parse(readFileSync(join(root, 'src/report/report.schema.json'), 'utf8')))

interface Paths {
  /** What the test writes: into /tmp and into /dev/shm. */
  written: string[]
  /** A file of the machine's in /tmp, readable by anyone, that the test tries to read. */
  machines: string
}

/** A node:test file whose test titles say what it could do in the shared folders. */
function sharedSpaceTestFile(paths: Paths): string {
  return `import { test } from 'node:test'
import assert from 'node:assert/strict'
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'

const attempt = (action) => { try { action(); return 'ok' } catch (error) { return error.code } }
const written = ${JSON.stringify(paths.written)}.map((file) => attempt(() => fs.writeFileSync(file, 'left behind')))
const machines = attempt(() => fs.readFileSync(${JSON.stringify(paths.machines)}))

test('writes the shared folders: ' + written.join(' '), () => {})
test("reads the machine's /tmp file: " + machines, () => {})
test('its own temp folder works as usual', () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'scratch-'))
  fs.writeFileSync(path.join(dir, 'a.txt'), 'kept for the test')
  assert.equal(fs.readFileSync(path.join(dir, 'a.txt'), 'utf8'), 'kept for the test')
  fs.rmSync(dir, { recursive: true })
})
`
}

async function runBundledCliVerify(paths: Paths): Promise<Report> {
  const repo = await buildFixtureRepo('csv-esm', { headChanges: { 'test/shared-space.test.js': sharedSpaceTestFile(paths) } })
  const out = await mkdtemp(join(tmpdir(), 'rtg-mounts-out-'))
  try {
    const args = [join(root, 'dist/cli/index.js'), 'verify', '--repo', repo.dir, '--base', repo.base, '--head', repo.head, '--out', out]
    await promisify(execFile)(process.execPath, args, { env: { PATH: process.env.PATH, HOME: process.env.HOME } }).catch((error: { stderr?: string }) => {
      throw new Error(`the CLI failed: ${error.stderr}`)
    })
    const report = JSON.parse(await readFile(join(out, 'report.json'), 'utf8')) as Report
    if (!validateReport(report)) throw new Error(`report.json does not match its schema: ${JSON.stringify(validateReport.errors)}`)
    return report
  } finally {
    await repo.cleanup()
    await rm(out, { recursive: true, force: true })
  }
}

describeWhereSandboxed('the sandbox has its own /tmp and /dev/shm', () => {
  test('what a test writes there is gone after the run, what the machine has there is not seen, and os.tmpdir() still works', async () => {
    const tag = randomBytes(6).toString('hex')
    // The machine's own /tmp and /dev/shm, not the test run's temp root (os.tmpdir() here).
    const paths: Paths = { written: [`/tmp/rtg-mounts-${tag}-x`, `/dev/shm/rtg-mounts-${tag}-y`], machines: `/tmp/rtg-mounts-${tag}-machine` }
    await writeFile(paths.machines, 'the machine’s', { mode: 0o644 })
    try {
      const report = await runBundledCliVerify(paths)
      expect(report.isolation).toBe('sandbox')
      // Written (the titles below say so), yet not on the machine after the run.
      expect(paths.written.filter((file) => existsSync(file))).toEqual([])
      const head = Object.fromEntries(report.tests.filter((test) => test.file === 'test/shared-space.test.js').map((test) => [test.name, test.head]))
      expect(head).toEqual({
        'writes the shared folders: ok ok': 'passed',
        "reads the machine's /tmp file: ENOENT": 'passed',
        'its own temp folder works as usual': 'passed'
      })
      // The fixture's own test still proves the fix.
      expect(report.verdict).toBe('fail-to-pass')
      expect(report.isolationDetail).toContain('a private /tmp, /var/tmp and /dev/shm')
    } finally {
      await Promise.all([...paths.written, paths.machines].map((file) => rm(file, { force: true })))
    }
  }, 300_000)
})
