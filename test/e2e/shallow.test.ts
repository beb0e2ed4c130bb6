/** A shallow checkout (actions/checkout's default) lacks the base commit: the run fetches it and says so. */
import { execFileSync } from 'node:child_process'
import { mkdtempSync, rmSync, symlinkSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { runCli } from '../../src/cli.js'
import { linesLogger } from '../support/cli-run.js'
import { buildFixtureRepo } from '../support/fixture-repo.js'

test('verify on a depth-1 clone fetches the base and the history, then proves the fix', async () => {
  const origin = await buildFixtureRepo('retry-budget')
  const shallow = join(mkdtempSync(join(tmpdir(), 'rtg-shallow-')), 'checkout')
  try {
    execFileSync('git', ['clone', '--quiet', '--depth', '1', `file://${origin.dir}`, shallow])
    symlinkSync(join(origin.dir, 'node_modules'), join(shallow, 'node_modules'))
    const log: string[] = []
    const out = join(shallow, '..', 'out')
    const code = await runCli(['verify', '--repo', shallow, '--base', origin.base, '--head', origin.head, '--out', out], {}, linesLogger(log))
    expect(log[0]).toBe(`The checkout lacks ${origin.base}: fetching the history from origin (use fetch-depth: 0 in actions/checkout to skip this).`)
    expect(code).toBe(0)
    expect(execFileSync('git', ['rev-parse', '--is-shallow-repository'], { cwd: shallow, encoding: 'utf8' }).trim()).toBe('false')
  } finally {
    rmSync(join(shallow, '..'), { recursive: true, force: true })
    await origin.cleanup()
  }
})
