/** The bundled example as a real repository: two commits, and a fix whose own test is fail-to-pass under its real jest. */
import { execFile } from 'node:child_process'
import { existsSync, lstatSync, realpathSync } from 'node:fs'
import { mkdtemp, readFile, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join, relative } from 'node:path'
import { promisify } from 'node:util'
import { buildFixtureRepo, fixturesDir, type FixtureRepo } from './fixture-repo.js'

const run = promisify(execFile)
const git = async (dir: string, ...args: string[]) => (await run('git', args, { cwd: dir })).stdout.trim()

interface TestOutcome {
  file: string
  name: string
  status: string
  message: string
}

/** The fixture's own jest, as its CI would run it; a clean env so this suite's jest settings don't leak in. */
async function runJest(dir: string): Promise<TestOutcome[]> {
  const outputFile = join(dir, '.jest-results.json')
  const args = ['node_modules/jest/bin/jest.js', '--ci', '--json', `--outputFile=${outputFile}`, '--runInBand']
  await run(process.execPath, args, { cwd: dir, env: { PATH: process.env.PATH, HOME: process.env.HOME } }).catch(() => undefined)
  const results = JSON.parse(await readFile(outputFile, 'utf8')) as {
    testResults: { name: string; assertionResults: { fullName: string; status: string; failureMessages: string[] }[] }[]
  }
  await rm(outputFile)
  return results.testResults
    .flatMap((file) => file.assertionResults.map((t) => ({ file: relative(dir, file.name), name: t.fullName, status: t.status, message: t.failureMessages.join('\n') })))
    .sort((a, b) => a.file.localeCompare(b.file)) // files in a fixed order, tests in declaration order
}

const existingTests = ['starts full', 'charges until the budget runs out', 'clones into a fresh, full budget'].map((name) => ({
  file: 'test/retry-budget.test.ts',
  name: `RetryBudget ${name}`,
  status: 'passed'
}))
const fixTest = { file: 'test/streaming-transport.test.ts', name: 'StreamingTransport.stream retries a streaming call after a 429 (#4471)' }

describe('buildFixtureRepo', () => {
  let repo: FixtureRepo
  beforeAll(async () => (repo = await buildFixtureRepo('retry-budget')))
  afterAll(() => repo?.cleanup())

  it('commits the buggy base, then the fix, on main', async () => {
    const meta = JSON.parse(await readFile(join(fixturesDir(), 'retry-budget', 'fixture.json'), 'utf8'))
    expect(await git(repo.dir, 'log', '--format=%H %s', 'main')).toBe(`${repo.head} ${meta.fixMessage}\n${repo.base} ${meta.baseMessage}`)
    expect(await git(repo.dir, 'rev-parse', `${repo.head}^`)).toBe(repo.base)
    expect(await git(repo.dir, 'symbolic-ref', '--short', 'HEAD')).toBe('main')
  })

  it('changes the transport and adds its test in the fix commit', async () => {
    expect(await git(repo.dir, 'diff', '--name-status', repo.base, repo.head)).toBe('M\tsrc/streaming-transport.ts\nA\ttest/streaming-transport.test.ts')
  })

  it('links node_modules and leaves a clean working tree', async () => {
    expect(lstatSync(join(repo.dir, 'node_modules')).isSymbolicLink()).toBe(true)
    expect(realpathSync(join(repo.dir, 'node_modules'))).toBe(realpathSync(join(fixturesDir(), '..', 'node_modules')))
    expect(await git(repo.dir, 'status', '--porcelain')).toBe('')
    expect(repo.issuePath).toBe(join(fixturesDir(), 'retry-budget', 'issue.md'))
    expect(await readFile(repo.issuePath, 'utf8')).toMatch(/^# Streaming calls never retry after a 429 \(#4471\)\n/)
  })

  it("runs the fixture's jest: existing tests pass at both commits, the fix's test is fail-to-pass", async () => {
    // Base, with the fix's test brought over: the pre-fix code under the new test.
    await git(repo.dir, 'checkout', '-q', repo.base)
    await git(repo.dir, 'checkout', repo.head, '--', fixTest.file)
    const atBase = await runJest(repo.dir)
    expect(atBase).toEqual([...existingTests, { ...fixTest, status: 'failed' }].map((t) => expect.objectContaining(t)))
    expect(atBase[3].message).toContain('RetryBudgetExhaustedError: retry budget exhausted (last status 429)')

    await git(repo.dir, 'checkout', '-q', '-f', repo.head)
    expect(await runJest(repo.dir)).toEqual([...existingTests, { ...fixTest, status: 'passed' }].map((t) => expect.objectContaining(t)))
    expect(await git(repo.dir, 'status', '--porcelain')).toBe('')
  })
})

it('leaves out the fix\'s own tests when withFixTest is false, and builds in a given, missing folder', async () => {
  const parent = await mkdtemp(join(tmpdir(), 'fixture-parent-'))
  try {
    const repo = await buildFixtureRepo('retry-budget', { dir: join(parent, 'nested', 'repo'), withFixTest: false })
    expect(repo.dir).toBe(join(parent, 'nested', 'repo'))
    expect(await git(repo.dir, 'diff', '--name-status', repo.base, repo.head)).toBe('M\tsrc/streaming-transport.ts')
    expect(existsSync(join(repo.dir, 'test', 'retry-budget.test.ts'))).toBe(true)
    await repo.cleanup()
    expect(existsSync(repo.dir)).toBe(false)
  } finally {
    await rm(parent, { recursive: true, force: true })
  }
})

it('links an installed package\'s bin into node_modules/.bin when the fixture asks (installedBins), beside this project\'s', async () => {
  const repo = await buildFixtureRepo('median-wrapper')
  try {
    const bins = join(repo.dir, 'node_modules', '.bin')
    expect(lstatSync(bins).isSymbolicLink()).toBe(false)
    expect(realpathSync(join(bins, 'unit-kit'))).toBe(join(fixturesDir(), 'median-wrapper', 'installed', 'unit-kit', 'bin', 'unit-kit.js'))
    expect(realpathSync(join(bins, 'jest'))).toBe(realpathSync(join(fixturesDir(), '..', 'node_modules', '.bin', 'jest')))
    // Runnable by name, as a script runs it: it refuses any option.
    const refused = await run(join(bins, 'unit-kit'), ['test', '--ci'], { cwd: repo.dir }).catch((error: { code: number; stderr: string }) => error)
    expect(refused).toMatchObject({ code: 1, stderr: 'unit-kit: unknown or unexpected option: --ci\n' })
    expect(await git(repo.dir, 'status', '--porcelain')).toBe('')
  } finally {
    await repo.cleanup()
  }
})
