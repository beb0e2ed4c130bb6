/**
 * The sandbox's private mounts on this machine: RUNNER_TEMP out of sight but for the run's own folder,
 * the masked file in place of the real one, and where mounts fail, a sandbox that still works and says so.
 */
import { chmodSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { createSandboxProvider, type Sandbox } from '../../src/ports/sandbox.js'
import { describeWhereSandboxed } from '../support/sandbox-probe.js'

const dirs: string[] = []
afterAll(() => dirs.forEach((dir) => rmSync(dir, { recursive: true, force: true })))

/** A job's folders: RUNNER_TEMP with the credentials file and the run's folder in it, the checkout. */
function jobFolders(): { top: string; runnerTemp: string; credentials: string; work: string; checkout: string } {
  const top = mkdtempSync(join(tmpdir(), 'rtg-mounts-'))
  dirs.push(top)
  chmodSync(top, 0o755)
  const runnerTemp = join(top, 'runner-temp')
  const work = join(runnerTemp, 'regression-testgen-work')
  const checkout = join(top, 'checkout')
  mkdirSync(work, { recursive: true })
  mkdirSync(join(checkout, '.git'), { recursive: true })
  const credentials = join(runnerTemp, 'git-credentials-1234.config')
  writeFileSync(credentials, '[http]\n\textraheader = AUTHORIZATION: basic c2VjcmV0\n', { mode: 0o644 })
  writeFileSync(join(checkout, '.git', 'config'), '[http]\n\textraheader = AUTHORIZATION: basic c2VjcmV0\n', { mode: 0o644 })
  writeFileSync(join(checkout, 'source.js'), 'module.exports = 1\n')
  return { top, runnerTemp, credentials, work, checkout }
}

/** What the command reads of each file: its content, or the error's code. */
async function reads(sandbox: Sandbox, cwd: string, files: string[]): Promise<string[]> {
  const script = `const fs = require('fs'); for (const file of ${JSON.stringify(files)}) { try { console.log(JSON.stringify(fs.readFileSync(file, 'utf8').trim())) } catch (error) { console.log(JSON.stringify(error.code)) } }`
  const result = await sandbox.processes.run({ command: process.execPath, args: ['-e', script], cwd, timeoutMs: 30_000 })
  return result.output.trim().split('\n').map((line) => JSON.parse(line))
}

describeWhereSandboxed('the sandbox’s own mounts', () => {
  test('RUNNER_TEMP is out of sight but for the run’s folder, and the masked file reads as its replacement', async () => {
    const job = jobFolders()
    writeFileSync(join(job.work, 'tree-file'), 'the run’s own', { mode: 0o644 })
    const replacement = join(job.work, 'git-config')
    writeFileSync(replacement, '[core]\n\tbare = false\n', { mode: 0o644 })
    // The whole job folder is one the sandbox keeps: RUNNER_TEMP is hidden by its own tmpfs, not by /tmp's.
    const sandbox = await createSandboxProvider({ ...process.env, RUNNER_TEMP: job.runnerTemp }).open(job.work, [job.top], [{ target: join(job.checkout, '.git', 'config'), replacement }])
    expect(sandbox.isolation).toBe('sandbox')
    expect(sandbox.detail).toContain('RUNNER_TEMP hidden, the git config without credentials')
    const seen = await reads(sandbox, job.checkout, [job.credentials, join(job.work, 'tree-file'), join(job.checkout, '.git', 'config'), join(job.checkout, 'source.js')])
    expect(seen).toEqual(['ENOENT', 'the run’s own', '[core]\n\tbare = false', 'module.exports = 1'])
    // Outside the sandbox, nothing changed.
    expect(readFileSync(join(job.checkout, '.git', 'config'), 'utf8')).toContain('extraheader')
  })

  test('where the mounts fail, the sandbox still runs the commands and says what it could not hide', async () => {
    const job = jobFolders()
    const fakes = mkdtempSync(join(tmpdir(), 'rtg-fake-mount-'))
    dirs.push(fakes)
    // As in a container without CAP_SYS_ADMIN.
    writeFileSync(join(fakes, 'mount'), '#!/bin/sh\necho "mount: permission denied" >&2\nexit 32\n', { mode: 0o755 })
    const sandbox = await createSandboxProvider({ ...process.env, PATH: `${fakes}:${process.env.PATH}`, RUNNER_TEMP: job.runnerTemp }).open(job.work, [job.checkout])
    expect(sandbox.isolation).toBe('sandbox')
    expect(sandbox.detail).toMatch(/the commands share this machine's \/tmp and \/dev\/shm and can read RUNNER_TEMP and the checkout's git config \(no private mounts here: .*mount: permission denied\)/)
    expect(await reads(sandbox, job.checkout, [join(job.checkout, 'source.js')])).toEqual(['module.exports = 1'])
  })
})
