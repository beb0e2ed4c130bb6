/**
 * `deliver: commit` and `deliver: pull-request` through the bundled action (scripted model, real sandbox,
 * the real Octokit against the fake GitHub's git data API and pulls): the proven suite lands as one commit
 * on the pull request's branch or as one follow-up pull request; a fork, a branch that moved, or the
 * tool's own commit get the patch or nothing — and nothing is overwritten.
 */
import { existsSync } from 'node:fs'
import { readFile } from 'node:fs/promises'
import { join } from 'node:path'
import { DELIVERY_MARKER } from '../../src/deliver/delivery.js'
import { runBundledAction } from '../support/action-run.js'
import { startFakeAnthropic } from '../support/fake-anthropic.js'
import { commitSeedOf } from '../support/fake-github-git.js'
import { startFakeGitHub, type FakeGitHub, type FakeGitHubData, type FakeRepository } from '../support/fake-github.js'
import { buildFixtureRepo, commitOnFix, type FixtureRepo } from '../support/fixture-repo.js'
import { byStage, fixtureAnswers } from '../support/scripted-model.js'

const REPO = 'acme/transport'
const BRANCH = 'fix-retries'
const LATER = 'c0ffee'.padEnd(40, '0')

let repo: FixtureRepo
let gitHub: FakeGitHub | undefined
beforeEach(async () => (repo = await buildFixtureRepo('retry-budget', { withFixTest: false })))
afterEach(async () => {
  await gitHub?.close()
  gitHub = undefined
  await repo.cleanup()
})

/** The fake GitHub holding the fixture's two commits, the base on `main` and the head on the pull request's branch. */
async function gitHubWithFixture(changes: Partial<FakeRepository> = {}, pulls: FakeGitHubData['pulls'] = {}): Promise<FakeGitHub> {
  const commits = { [repo.base]: await commitSeedOf(repo.dir, repo.base), [repo.head]: await commitSeedOf(repo.dir, repo.head), [LATER]: { parents: [repo.head] } }
  gitHub = await startFakeGitHub({ issues: {}, pulls, repos: { [REPO]: { branches: { main: repo.base, [BRANCH]: repo.head }, commits, ...changes } } })
  return gitHub
}

interface RunOptions {
  deliver: 'commit' | 'pull-request'
  headRepository?: string
  head?: string
}

async function runAction(fake: FakeGitHub, { deliver, headRepository = REPO, head = repo.head }: RunOptions) {
  const model = await startFakeAnthropic(byStage(fixtureAnswers('retry-budget')))
  const side = (ref: string, sha: string, name: string) => ({ ref, sha, repo: { full_name: name } })
  const pullRequest = { number: 7, title: 'Fix streaming retries', body: '', merged: false, base: side('main', repo.base, REPO), head: side(BRANCH, head, headRepository) }
  try {
    const run = await runBundledAction({
      event: 'pull_request',
      payload: { action: 'synchronize', number: 7, pull_request: pullRequest },
      workspace: repo.dir,
      inputs: { 'anthropic-api-key': 'test-key', 'anthropic-base-url': model.baseURL, 'github-token': 'ghs_deliverToken0123456789', deliver },
      env: { GITHUB_API_URL: fake.url, GITHUB_GRAPHQL_URL: `${fake.url}/graphql`, GITHUB_RUN_ID: '42', GITHUB_SERVER_URL: 'https://github.com' }
    })
    expect(run.report).toMatchObject({ verdict: 'fail-to-pass' })
    return run
  } finally {
    await model.close()
  }
}

const gitWrites = (fake: FakeGitHub) => fake.requests.filter((request) => request.method !== 'GET' && /\/(git|pulls)\b/.test(request.path))
const suiteFile = (runnerTemp: string, path: string) => readFile(join(runnerTemp, 'regression-testgen', 'suite', path), 'utf8')
const patchOf = (runnerTemp: string) => join(runnerTemp, 'regression-testgen', 'suite.patch')

test("deliver: commit lands one commit on the pull request's branch: the head its parent, the suite in its tree", async () => {
  const fake = await gitHubWithFixture()
  const run = await runAction(fake, { deliver: 'commit' })

  const repository = fake.repository(REPO)
  const commitSha = repository.refs.get(`refs/heads/${BRANCH}`)!
  expect(commitSha).not.toBe(repo.head)
  const delivery = run.report!.delivery!
  expect(delivery).toMatchObject({ mode: 'commit', url: `https://github.com/${REPO}/commit/${commitSha}`, reason: null })
  expect(delivery.files.length).toBeGreaterThan(0)
  const commit = repository.commits.get(commitSha)!
  expect(commit.parents).toEqual([repo.head])
  expect(commit.message).toContain(DELIVERY_MARKER)
  // One commit: the head's files, and the delivered files with the suite's content.
  expect(repository.commits.size).toBe(4)
  const files = repository.filesAt(commitSha)
  const headFiles = Object.keys((await commitSeedOf(repo.dir, repo.head)).blobs!)
  expect(Object.keys(files).sort()).toEqual([...headFiles, ...delivery.files].sort())
  for (const path of delivery.files) expect(files[path]).toBe(await suiteFile(run.runnerTemp, path))
  // The branch moved from the head to the commit, without force.
  expect(gitWrites(fake).at(-1)).toMatchObject({ method: 'PATCH', path: `/repos/${REPO}/git/refs/heads%2F${BRANCH}`, body: { sha: commitSha, force: false } })
  expect(run.outputs).toMatch(/delivered<<.*\ncommit\n/)
  expect(run.outputs).toContain(`\nhttps://github.com/${REPO}/commit/${commitSha}\n`)
  expect(run.code).toBe(0)
})

test("a fork's pull request gets the patch: nothing pushed, the reason named", async () => {
  const fake = await gitHubWithFixture()
  const run = await runAction(fake, { deliver: 'commit', headRepository: 'mallory/transport' })
  expect(run.report!.delivery).toMatchObject({ mode: 'patch', url: null, reason: expect.stringContaining("the pull request's branch is in mallory/transport") })
  expect(existsSync(patchOf(run.runnerTemp))).toBe(true)
  expect(gitWrites(fake)).toEqual([])
  expect(run.stdout).toMatch(/::warning::Could not deliver the suite as a commit: the pull request's branch is in mallory\/transport/)
  expect(run.outputs).toMatch(/delivered<<.*\npatch\n/)
  expect(run.code).toBe(0)
})

test('a branch that moved after the run started gets the patch, and keeps its commit', async () => {
  const fake = await gitHubWithFixture({ branches: { main: repo.base, [BRANCH]: LATER } })
  const run = await runAction(fake, { deliver: 'commit' })
  expect(run.report!.delivery).toMatchObject({ mode: 'patch', reason: `the branch ${BRANCH} moved to ${LATER} after the run started at ${repo.head}: nothing was overwritten` })
  expect(fake.repository(REPO).refs.get(`refs/heads/${BRANCH}`)).toBe(LATER)
  expect(gitWrites(fake)).toEqual([])
  expect(existsSync(patchOf(run.runnerTemp))).toBe(true)
  expect(run.code).toBe(0)
})

test('deliver: pull-request opens one follow-up pull request into the branch, and a re-run updates it', async () => {
  const fake = await gitHubWithFixture()
  const first = await runAction(fake, { deliver: 'pull-request' })
  const url = `https://github.com/${REPO}/pull/1`
  expect(first.report!.delivery).toMatchObject({ mode: 'pull-request', url, reason: null })

  const second = await runAction(fake, { deliver: 'pull-request' })
  expect(second.report!.delivery).toMatchObject({ mode: 'pull-request', url, reason: null })
  const repository = fake.repository(REPO)
  expect(repository.pulls).toHaveLength(1)
  expect(repository.pulls[0]).toMatchObject({ state: 'open', head: { ref: 'regression-testgen/pr-7' }, base: { ref: BRANCH } })
  expect(repository.pulls[0].body).toContain(DELIVERY_MARKER)
  expect(gitWrites(fake).filter((request) => request.path.includes('/pulls')).map((request) => request.method)).toEqual(['POST', 'PATCH'])
  // The follow-up branch holds one commit on the head; the pull request's own branch is untouched.
  const followUp = repository.refs.get('refs/heads/regression-testgen/pr-7')!
  expect(repository.commits.get(followUp)!.parents).toEqual([repo.head])
  expect(repository.refs.get(`refs/heads/${BRANCH}`)).toBe(repo.head)
  expect(second.code).toBe(0)
})

test("a run on the tool's own commit delivers nothing again, and says why", async () => {
  const own = await commitOnFix(repo, { 'NOTES.md': 'regression tests delivered\n' }, `test: regression tests for #7\n\n${DELIVERY_MARKER}`)
  const fake = await gitHubWithFixture({ branches: { main: repo.base, [BRANCH]: own } })
  const run = await runAction(fake, { deliver: 'commit', head: own })
  expect(run.report!.delivery).toMatchObject({ mode: 'none', files: [], reason: expect.stringContaining("regression-testgen's own commit") })
  expect(gitWrites(fake)).toEqual([])
  expect(existsSync(patchOf(run.runnerTemp))).toBe(false)
  expect(run.code).toBe(0)
})

test('workflow_dispatch on a merged pull request (read from the API): the follow-up pull request goes into the base branch', async () => {
  const merged = { title: 'Fix streaming retries', body: '', baseSha: repo.base, headSha: repo.head, headRef: BRANCH, baseRef: 'main', merged: true }
  const fake = await gitHubWithFixture({}, { [`${REPO}#7`]: merged })
  const model = await startFakeAnthropic(byStage(fixtureAnswers('retry-budget')))
  try {
    const run = await runBundledAction({
      event: 'workflow_dispatch',
      payload: { inputs: { 'pr-number': '7' } },
      workspace: repo.dir,
      inputs: { 'pr-number': '7', 'anthropic-api-key': 'test-key', 'anthropic-base-url': model.baseURL, 'github-token': 'ghs_deliverToken0123456789', deliver: 'pull-request' },
      env: { GITHUB_API_URL: fake.url, GITHUB_GRAPHQL_URL: `${fake.url}/graphql` }
    })
    expect(run.report).toMatchObject({ verdict: 'fail-to-pass', delivery: { mode: 'pull-request', url: `https://github.com/${REPO}/pull/8`, reason: null } })
    expect(fake.repository(REPO).pulls.find((pull) => pull.number === 8)).toMatchObject({ state: 'open', head: { ref: 'regression-testgen/pr-7' }, base: { ref: 'main' } })
    expect(run.code).toBe(0)
  } finally {
    await model.close()
  }
})
