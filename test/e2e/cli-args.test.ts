import { execFileSync } from 'node:child_process'
import { existsSync, mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { CLI_OPTIONS, runCli, USAGE } from '../../src/cli.js'
import { buildFixtureRepo } from '../support/fixture-repo.js'

const quiet = () => {
  const lines: string[] = []
  return { lines, log: { info: (m: string) => lines.push(m), warn: (m: string) => lines.push(m), debug: () => {} } }
}

test('unknown commands and missing commits are usage errors (exit 2) that say what to do', async () => {
  const unknown = quiet()
  expect(await runCli(['deploy'], {}, unknown.log)).toBe(2)
  expect(unknown.lines).toEqual(['regression-testgen: Unknown command "deploy" (see --help)'])

  const missing = quiet()
  expect(await runCli(['verify', '--head', 'HEAD'], {}, missing.log)).toBe(2)
  expect(missing.lines).toEqual(['regression-testgen: Invalid base: a commit SHA or ref is required'])

  const noKey = quiet()
  expect(await runCli(['--base', 'a', '--head', 'b'], {}, noKey.log)).toBe(2)
  expect(noKey.lines[0]).toContain('generate mode needs an Anthropic API key (ANTHROPIC_API_KEY); without one, use verify mode')
})

test('the usage text documents exactly the options the parser accepts', () => {
  const documented = new Set([...USAGE.slice(USAGE.indexOf('Options:')).matchAll(/--([\w-]+)/g)].map((m) => m[1]))
  expect([...documented].sort()).toEqual(Object.keys(CLI_OPTIONS).sort())
})

test('a --head that reads as a git option is a usage error naming head, before anything runs', async () => {
  // A checkout lacking head would fetch it from origin, a local repository: there an --upload-pack option runs its command.
  const [repo, origin] = await Promise.all([buildFixtureRepo('retry-budget'), buildFixtureRepo('retry-budget')])
  const scratch = mkdtempSync(join(tmpdir(), 'rtg-cli-option-'))
  try {
    execFileSync('git', ['remote', 'add', 'origin', `file://${origin.dir}`], { cwd: repo.dir })
    const marker = join(scratch, 'ran')
    const out = join(scratch, 'out')
    const run = quiet()
    const code = await runCli(['verify', '--repo', repo.dir, '--base', repo.base, `--head=--upload-pack=touch ${marker}`, '--out', out], {}, run.log)
    expect(code).toBe(2)
    expect(run.lines).toEqual([`regression-testgen: Invalid head: "--upload-pack=touch ${marker}" starts with "-": a commit SHA or ref never does`])
    expect(existsSync(marker)).toBe(false)
    expect(existsSync(out)).toBe(false)
  } finally {
    rmSync(scratch, { recursive: true, force: true })
    await Promise.all([repo.cleanup(), origin.cleanup()])
  }
})
