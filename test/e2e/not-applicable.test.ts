/**
 * A change with nothing to prove ends `not-applicable` with its reason, exit 0, before a sandbox, a tree or
 * a model call: docs alone, tests alone, verify mode without tests, base == head, a reversed range. Through
 * the CLI in-process, the bundled CLI and the bundled action (neutral summary, a notice, no red check).
 */
import { execFile, execFileSync } from 'node:child_process'
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { basename, join } from 'node:path'
import { promisify } from 'node:util'
import { COMMENT_MARKER } from '../../src/github/comment.js'
import { runBundledAction } from '../support/action-run.js'
import { runCli } from '../../src/cli.js'
import { linesLogger, runCliOnFixture, type CliRun } from '../support/cli-run.js'
import { actionsEnv, startFakeActionsServices } from '../support/fake-actions-services.js'
import { startFakeAnthropic } from '../support/fake-anthropic.js'
import { startFakeGitHub, type FakeGitHubData } from '../support/fake-github.js'
import { buildFixtureRepo, commitOnFix, fixturesDir, type FixtureRepo } from '../support/fixture-repo.js'
import { byStage, fixtureAnswers } from '../support/scripted-model.js'

const root = join(new URL('.', import.meta.url).pathname, '..', '..')
const NO_SOURCE = 'the change has no source change to prove: it changes only'
const NOTHING_COULD_FAIL = 'so the pre-fix tree (head with the source changes taken back) would be head itself, and no test could fail before the fix'
const DOCS = { 'README.md': '# transport\n\nRetries are now documented.\n', 'docs/retries.md': 'How retries work.\n' }

/** The fix, then a commit changing only docs: the pull request under test. */
const docsAfterFix = async (repo: FixtureRepo) => ({ base: repo.head, head: await commitOnFix(repo, DOCS, 'Document retries') })

/** Nothing of the expensive part ran: no sandbox, no trees, no preflight; and nothing was a warning. */
function expectEndedEarly(run: CliRun): void {
  expect(run.log.filter((line) => /^(?:Sandbox|Pre-fix tree|Preflight|Build)\b/.test(line))).toEqual([])
  expect(run.log.filter((line) => line.startsWith('warning:'))).toEqual([])
  expect(run.report).toMatchObject({ preFixTree: null, preflight: null, tests: [], suite: { files: [] }, model: { calls: 0 } })
  expect(run.markdown).toContain('➖ **not-applicable**')
  expect(run.markdown).toContain(`Reason: ${run.report.reason}`)
  expect(run.markdown).not.toMatch(/✅|❌|⚠️/)
}

test('a docs-only change in generate mode: not-applicable, exit 0, no model call', async () => {
  const run = await runCliOnFixture({ script: fixtureAnswers('retry-budget'), range: docsAfterFix })
  expect(run.exitCode).toBe(0)
  expect(run.report.verdict).toBe('not-applicable')
  expect(run.report.reason).toBe(`${NO_SOURCE} 2 files that are not source (documentation, configuration, tooling), ${NOTHING_COULD_FAIL}`)
  expect(run.report.changedFiles).toEqual([
    { path: 'README.md', role: 'other', status: 'modified' },
    { path: 'docs/retries.md', role: 'other', status: 'added' }
  ])
  expect(run.model!.requests).toHaveLength(0)
  expect(run.log).toContain(`verdict: not-applicable (${run.report.reason})`)
  // Decided from the diff alone: not even the framework was looked for.
  expect(run.report.framework).toBeNull()
  expectEndedEarly(run)
})

test('a docs-only change in a repository with no test framework: not-applicable, not an error about the framework', async () => {
  const dir = await mkdtemp(join(tmpdir(), 'rtg-no-framework-'))
  const git = (...args: string[]) => execFileSync('git', ['-c', 'user.name=t', '-c', 'user.email=t@t', ...args], { cwd: dir, encoding: 'utf8' }).trim()
  git('init', '-q', '-b', 'main')
  await writeFile(join(dir, 'README.md'), '# tool\n')
  await writeFile(join(dir, 'tool.py'), 'print(1)\n')
  git('add', '-A')
  git('commit', '-qm', 'base')
  const base = git('rev-parse', 'HEAD')
  await writeFile(join(dir, 'README.md'), '# tool\n\nUsage.\n')
  git('commit', '-qam', 'docs')
  const log: string[] = []
  try {
    const exitCode = await runCli(['verify', '--repo', dir, '--base', base, '--head', 'HEAD', '--out', join(dir, '..', `${basename(dir)}-out`)], {}, linesLogger(log))
    expect(exitCode).toBe(0)
    expect(log).toContain(`verdict: not-applicable (${NO_SOURCE} 1 file that is not source (documentation, configuration, tooling), ${NOTHING_COULD_FAIL})`)
  } finally {
    await rm(dir, { recursive: true, force: true })
    await rm(join(dir, '..', `${basename(dir)}-out`), { recursive: true, force: true })
  }
})

test('a test-only change says no test could fail before the fix, and exits 0 even with on-no-fail-to-pass fail', async () => {
  const fixTest = await readFile(join(fixturesDir(), 'retry-budget', 'fix', 'test', 'streaming-transport.test.ts'), 'utf8')
  const run = await runCliOnFixture({
    args: ['--on-no-fail-to-pass', 'fail'],
    range: async (repo) => ({ base: repo.head, head: await commitOnFix(repo, { 'test/streaming-transport.test.ts': `${fixTest}\ntest('one more', () => expect(1).toBe(1))\n` }) })
  })
  expect(run.exitCode).toBe(0)
  expect(run.report).toMatchObject({ mode: 'verify', verdict: 'not-applicable', reason: `${NO_SOURCE} 1 test file, ${NOTHING_COULD_FAIL}` })
  expectEndedEarly(run)
})

test('verify mode on a source change without a test change has nothing to verify', async () => {
  const run = await runCliOnFixture({ fixtureOptions: { withFixTest: false } })
  expect(run.exitCode).toBe(0)
  expect(run.report).toMatchObject({
    mode: 'verify',
    verdict: 'not-applicable',
    reason: "verify mode runs the change's own tests, and it changes 1 source file but adds or modifies no test file: there is nothing to verify (generate mode writes the tests)"
  })
  expectEndedEarly(run)
})

test('verify mode on a source change whose only test change is data no test reads: not-applicable, once the trees show it', async () => {
  const run = await runCliOnFixture({ fixtureOptions: { withFixTest: false, headChanges: { 'test/unused-case.json': '{"status": 429}\n' } } })
  expect(run.exitCode).toBe(0)
  expect(run.report).toMatchObject({
    verdict: 'not-applicable',
    reason: "verify mode runs the change's own tests, and it adds or modifies no jest test file, nor one using the test helpers or data it changes: there is nothing to verify (generate mode writes the tests)"
  })
  // This one is known only from the repository's tests at head: the trees were made, and are gone.
  expect(run.report.preFixTree).not.toBeNull()
  expect(run.log.filter((line) => line.startsWith('warning:') && !line.includes('No sandbox'))).toEqual([])
})

test('base == head: not-applicable, exit 0', async () => {
  const run = await runCliOnFixture({ range: async (repo) => ({ base: repo.head, head: repo.head }) })
  expect(run.exitCode).toBe(0)
  expect(run.report).toMatchObject({ verdict: 'not-applicable', reason: `base and head are the same commit (${run.repo.head.slice(0, 7)}): there is no change to prove`, changedFiles: [] })
  expectEndedEarly(run)
})

test('a reversed range (head an ancestor of base) in generate mode: not-applicable, asking whether they were swapped, no model call', async () => {
  const run = await runCliOnFixture({ script: fixtureAnswers('retry-budget'), range: async (repo) => ({ base: repo.head, head: repo.base }) })
  expect(run.exitCode).toBe(0)
  const { base, head } = { base: run.repo.head.slice(0, 7), head: run.repo.base.slice(0, 7) }
  expect(run.report).toMatchObject({
    verdict: 'not-applicable',
    reason: `head ${head} is an ancestor of base ${base}, so base...head holds no change: were base and head swapped? (base is the commit before the fix, head the fix)`
  })
  expect(run.model!.requests).toHaveLength(0)
  expectEndedEarly(run)
})

describe('the bundles', () => {
  let repo: FixtureRepo
  let docsCommit: string
  beforeAll(async () => {
    repo = await buildFixtureRepo('retry-budget')
    docsCommit = await commitOnFix(repo, DOCS, 'Document retries')
  })
  afterAll(() => repo.cleanup())

  test('the bundled CLI on a docs-only change prints the verdict neutrally and exits 0', async () => {
    const out = await mkdtemp(join(tmpdir(), 'rtg-not-applicable-'))
    const args = ['verify', '--repo', repo.dir, '--base', repo.head, '--head', docsCommit, '--out', out]
    const { stderr } = await promisify(execFile)(process.execPath, [join(root, 'dist/cli/index.js'), ...args], { env: { PATH: process.env.PATH, HOME: process.env.HOME } })
    expect(stderr).toContain(`verdict: not-applicable (${NO_SOURCE} 2 files that are not source`)
    expect(stderr).not.toMatch(/warning|error/i)
    const report = JSON.parse(await readFile(join(out, 'report.json'), 'utf8'))
    expect(report).toMatchObject({ verdict: 'not-applicable', repository: { base: repo.head, head: docsCommit } })
  })

  /** The bundled action on a docs-only pull request, in generate mode, with the Actions services, GitHub and the model as fakes. */
  async function runOnDocsPullRequest(gitHubData: FakeGitHubData) {
    const services = await startFakeActionsServices()
    const model = await startFakeAnthropic(byStage(fixtureAnswers('retry-budget')))
    const gitHub = await startFakeGitHub(gitHubData)
    try {
      const pullRequest = { number: 7, title: 'Document retries', body: '', base: { sha: repo.head }, head: { sha: docsCommit } }
      const run = await runBundledAction({
        event: 'pull_request',
        payload: { action: 'synchronize', number: 7, pull_request: pullRequest },
        workspace: repo.dir,
        inputs: { 'anthropic-api-key': 'test-key', 'anthropic-base-url': model.baseURL, 'github-token': 'ghs_test_token', comment: 'true', 'on-no-fail-to-pass': 'fail' },
        env: { ...actionsEnv(services), GITHUB_API_URL: gitHub.url, GITHUB_GRAPHQL_URL: `${gitHub.url}/graphql`, GITHUB_RUN_ID: '42' }
      })
      return { run, modelRequests: model.requests.length, gitHub, artifacts: services.artifacts }
    } finally {
      await Promise.all([services.close(), model.close(), gitHub.close()])
    }
  }

  test('the bundled action on a docs-only pull request: output not-applicable, exit 0, a neutral summary and a notice, no new comment', async () => {
    const { run, modelRequests, gitHub, artifacts } = await runOnDocsPullRequest({ issues: { 'acme/transport#7': { title: 'Document retries', body: '' } } })
    expect(run.code).toBe(0)
    expect(run.outputs).toMatch(/verdict<<.*\nnot-applicable\n/)
    expect(run.outputs).toMatch(/fail-to-pass-count<<.*\n0\n/)
    expect(run.report).toMatchObject({ verdict: 'not-applicable', reason: expect.stringContaining(NO_SOURCE) })
    expect(run.summary).toContain('➖ **not-applicable** — the change has nothing to prove, so nothing ran.')
    expect(run.summary).toContain(`Reason: ${NO_SOURCE} 2 files`)
    expect(run.summary).not.toMatch(/✅|❌|⚠️/)
    expect(run.stdout).toMatch(/^::notice::Not applicable: the change has no source change to prove: /m)
    // No red and no yellow: no failure, no warning, no annotation on the diff.
    expect(run.stdout).not.toMatch(/^::(?:error|warning)/m)
    expect(run.stdout).not.toMatch(/^::notice (?:title|file)=/m)
    expect(modelRequests).toBe(0)
    // Nothing to prove starts no comment on the pull request; the artifact still holds the report.
    expect(gitHub.comments).toEqual([])
    expect(gitHub.requests.filter((request) => request.method === 'POST' && request.path.endsWith('/comments'))).toEqual([])
    expect(Object.keys(artifacts[0].files).sort()).toEqual(['report.json', 'report.md', 'run.log'])
  })

  test('the bundled action updates its earlier comment on the pull request with the not-applicable verdict', async () => {
    const earlier = `${COMMENT_MARKER}\n# Regression tests for this fix\n\n❌ **no-fail-to-pass** — an earlier push`
    const { run, gitHub } = await runOnDocsPullRequest({ tokenUser: 'octocat', issues: { 'acme/transport#7': { title: 'Document retries', body: '', comments: [{ body: earlier, login: 'octocat' }] } } })
    expect(run.code).toBe(0)
    expect(gitHub.comments).toHaveLength(1)
    expect(gitHub.comments[0].body).toContain('➖ **not-applicable**')
    expect(gitHub.comments[0].body).not.toContain('an earlier push')
  })
})
