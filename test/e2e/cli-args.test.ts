import { execFileSync } from 'node:child_process'
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { CLI_OPTIONS, runCli, USAGE } from '../../src/cli.js'
import { linesLogger } from '../support/cli-run.js'
import { buildFixtureRepo } from '../support/fixture-repo.js'

const quiet = () => {
  const lines: string[] = []
  return { lines, log: linesLogger(lines) }
}

test('unknown commands and missing commits are usage errors (exit 2) that say what to do', async () => {
  const unknown = quiet()
  expect(await runCli(['deploy'], {}, unknown.log)).toBe(2)
  expect(unknown.lines).toEqual(['error: regression-testgen: Unknown command "deploy" (see --help)'])

  const missing = quiet()
  expect(await runCli(['verify', '--head', 'HEAD'], {}, missing.log)).toBe(2)
  expect(missing.lines).toEqual(['error: regression-testgen: Invalid --base: a commit SHA or ref is required (see --help)'])
})

test('the usage text documents exactly the options the parser accepts', () => {
  const documented = new Set([...USAGE.slice(USAGE.indexOf('Options:')).matchAll(/--([\w-]+)/g)].map((m) => m[1]))
  expect([...documented].sort()).toEqual(Object.keys(CLI_OPTIONS).sort())
})

describe('every bad input is refused before any work, with the flag or variable to change', () => {
  // Neither exists: work would start by writing <out>/run.log, then git would look at the repository.
  let scratch: string
  let out: string
  let repo: string
  beforeEach(() => {
    scratch = mkdtempSync(join(tmpdir(), 'rtg-cli-input-'))
    out = join(scratch, 'out')
    repo = join(scratch, 'no-such-repo')
  })
  afterEach(() => rmSync(scratch, { recursive: true, force: true }))

  const KEY = { ANTHROPIC_API_KEY: 'sk-test-key-0123456789' }
  const run = async (args: string[], env: NodeJS.ProcessEnv = KEY) => {
    const { lines, log } = quiet()
    const code = await runCli([...args, '--repo', repo, '--base', 'main', '--head', 'fix', '--out', out], env, log)
    // Nothing was done: not even the run log was written.
    expect(existsSync(out)).toBe(false)
    return { code, lines }
  }

  test('a missing API key in generate mode names ANTHROPIC_API_KEY and the verify command', async () => {
    expect(await run([], {})).toEqual({
      code: 2,
      lines: ["error: regression-testgen: generate mode needs an Anthropic API key: set ANTHROPIC_API_KEY (or run `regression-testgen verify …` to prove the change's own tests without a model)"]
    })
    expect((await run([], { ANTHROPIC_API_KEY: '  ' })).lines[0]).toContain('set ANTHROPIC_API_KEY')
  })

  test('an issue file that is missing, a folder, or blank is refused, naming --issue', async () => {
    const missing = join(scratch, 'bug.md')
    expect(await run(['--issue', missing])).toEqual({ code: 2, lines: [`error: regression-testgen: Cannot read the issue file ${missing}: it does not exist (pass --issue a readable markdown file)`] })

    const folder = join(scratch, 'issues')
    mkdirSync(folder)
    expect((await run(['--issue', folder])).lines).toEqual([`error: regression-testgen: Cannot read the issue file ${folder}: it is a folder (pass --issue a readable markdown file)`])

    // A heading with no title, blank lines and an HTML comment: nothing a model could read as the bug.
    const blank = join(scratch, 'blank.md')
    writeFileSync(blank, '# \n\n   \n<!-- describe the bug here -->\n')
    expect((await run(['--issue', blank])).lines).toEqual([
      `error: regression-testgen: The issue file ${blank} is empty: an empty issue is not a bug report (pass --issue a markdown file whose first line is the title)`
    ])
  })

  test("a bad issue file is refused before git runs at all: not even to read the checkout's credentials", async () => {
    // git on PATH is a wrapper that notes each call: the tool's git finds it through the PATH it passes on.
    const calls = join(scratch, 'git-calls')
    const bin = join(scratch, 'bin')
    mkdirSync(bin)
    const realGit = execFileSync('sh', ['-c', 'command -v git'], { encoding: 'utf8' }).trim()
    writeFileSync(join(bin, 'git'), `#!/bin/sh\necho "$*" >> '${calls}'\nexec '${realGit}' "$@"\n`, { mode: 0o755 })
    execFileSync('git', ['init', '--quiet', repo])
    const path = process.env.PATH
    process.env.PATH = `${bin}:${path}`
    try {
      expect((await run(['--issue', join(scratch, 'bug.md')])).lines).toEqual([expect.stringMatching(/^error: regression-testgen: Cannot read the issue file .*bug\.md: it does not exist/)])
      expect(existsSync(calls)).toBe(false)
      // The wrapper does see the tool's git: a refusal that needs git (an --out inside the repository) goes through it.
      const insideRepository = quiet()
      expect(await runCli(['verify', '--repo', repo, '--base', 'main', '--head', 'fix', '--out', join(repo, 'out')], {}, insideRepository.log)).toBe(2)
      expect(insideRepository.lines).toEqual([expect.stringContaining('is inside the repository under test')])
      expect(readFileSync(calls, 'utf8')).toMatch(/rev-parse/)
    } finally {
      process.env.PATH = path
    }
  })

  test('an empty --issue-text, or both --issue and --issue-text, is refused', async () => {
    expect(await run(['--issue-text', '  \n '])).toEqual({ code: 2, lines: ['error: regression-testgen: Invalid --issue-text: the text is empty, and an empty text is not a bug report (see --help)'] })
    expect((await run(['--issue', join(scratch, 'bug.md'), '--issue-text', 'Crash on empty input'])).lines).toEqual([
      'error: regression-testgen: Invalid --issue-text: the bug report comes from issue (a file) or issue-text, not both (see --help)'
    ])
  })

  test('--issue and --issue-text in verify mode are refused, naming the mode, instead of going unused', async () => {
    const issue = join(scratch, 'bug.md')
    writeFileSync(issue, '# Crash on empty input\n')
    expect(await run(['verify', '--issue', issue], {})).toEqual({
      code: 2,
      lines: ["error: regression-testgen: Invalid --issue: verify mode reads no bug report (it runs the change's own tests, without a model): leave it out, or run generate mode (see --help)"]
    })
    expect((await run(['verify', '--issue-text', 'Crash on empty input'], {})).lines[0]).toMatch(/^error: regression-testgen: Invalid --issue-text: verify mode reads no bug report/)
  })

  test('--reruns is 2 to 20', async () => {
    expect(await run(['verify', '--reruns', '21'], {})).toEqual({
      code: 2,
      lines: ['error: regression-testgen: Invalid --reruns: "21" is above 20: more runs at head add minutes, not confidence (a flaky test shows within a few) (see --help)']
    })
    expect((await run(['verify', '--reruns', '1'], {})).lines[0]).toMatch(/^error: regression-testgen: Invalid --reruns: "1" is below 2/)
  })

  test("unknown flags and flags without their value get a line naming the flag, not the parser's text", async () => {
    expect(await run(['verify', '--isue', 'bug.md'])).toEqual({ code: 2, lines: ['error: regression-testgen: Unknown option --isue (see --help for the options)'] })
    expect((await run(['verify', '-x'])).lines).toEqual(['error: regression-testgen: Unknown option -x (see --help for the options)'])
    expect((await run(['verify', '--print=yes'])).lines).toEqual(['error: regression-testgen: --print takes no value (see --help)'])
    expect((await run(['verify', '--help=1'])).lines).toEqual(['error: regression-testgen: --help takes no value (see --help)'])
    // The flag's value is missing: the next flag would be taken for it.
    expect((await run(['verify', '--timeout-minutes'])).lines).toEqual(['error: regression-testgen: --timeout-minutes needs a value (see --help)'])
    const { lines, log } = quiet()
    expect(await runCli(['verify', '--base', 'main', '--head'], {}, log)).toBe(2)
    expect(lines).toEqual(['error: regression-testgen: --head needs a value (see --help)'])
  })
})

test('a run that cannot finish ends with an error line, not a warning', async () => {
  const scratch = mkdtempSync(join(tmpdir(), 'rtg-cli-fatal-'))
  try {
    const notARepository = join(scratch, 'plain-folder')
    mkdirSync(notARepository)
    const { lines, log } = quiet()
    expect(await runCli(['verify', '--repo', notARepository, '--base', 'main', '--head', 'fix', '--out', join(scratch, 'out')], {}, log)).toBe(2)
    expect(lines.filter((line) => line.includes('could not finish'))).toEqual([expect.stringMatching(/^error: regression-testgen could not finish: /)])
    expect(lines.filter((line) => line.startsWith('warning:'))).toEqual([])
  } finally {
    rmSync(scratch, { recursive: true, force: true })
  }
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
    expect(run.lines).toEqual([`error: regression-testgen: Invalid --head: "--upload-pack=touch ${marker}" starts with "-": a commit SHA or ref never does (see --help)`])
    expect(existsSync(marker)).toBe(false)
    expect(existsSync(out)).toBe(false)
  } finally {
    rmSync(scratch, { recursive: true, force: true })
    await Promise.all([repo.cleanup(), origin.cleanup()])
  }
})
