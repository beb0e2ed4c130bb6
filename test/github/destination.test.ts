/**
 * The action's GitHub destination through the real Octokit against the fake GitHub: a commit on the pull
 * request's branch (only from the head the run proved, never overwriting), or a follow-up pull request
 * created once and updated after; every refusal a reason, never a failed run.
 */
import * as github from '@actions/github'
import { createHash } from 'node:crypto'
import { DELIVERY_MARKER, type Delivery } from '../../src/deliver/delivery.js'
import { createGitHubDestination } from '../../src/github/destination.js'
import type { PullRequestInfo } from '../../src/github/pull-request.js'
import { startFakeGitHub, type FakeGitHub, type FakeGitHubData } from '../support/fake-github.js'

const sha = (name: string) => createHash('sha1').update(name).digest('hex')
const BASE = sha('base')
const HEAD = sha('head')
const LATER = sha('someone else pushed')
const REPO = 'acme/transport'
const repository = { owner: 'acme', repo: 'transport' }

const pullRequest: PullRequestInfo = {
  number: 7,
  title: 'Fix streaming retries',
  body: '',
  baseSha: BASE,
  headSha: HEAD,
  headRef: 'fix-retries',
  baseRef: 'main',
  headRepository: REPO,
  baseRepository: REPO,
  merged: false
}

const TEST_FILE = { path: 'test/regression/retry-budget.test.js', content: "test('a retry is charged once', () => {})\n", tests: [] }
const delivery = (title = 'test: regression tests for #7'): Delivery => ({ files: [TEST_FILE], title, body: `Proven fail-to-pass.\n\n${DELIVERY_MARKER}`, head: HEAD })

function gitHubData(overrides: Partial<FakeGitHubData> = {}, branches: Record<string, string> = {}): FakeGitHubData {
  return {
    issues: {},
    pulls: { [`${REPO}#7`]: { title: pullRequest.title, body: '', baseSha: BASE, headSha: HEAD, headRef: 'fix-retries', baseRef: 'main' } },
    repos: {
      [REPO]: {
        branches: { main: BASE, 'fix-retries': HEAD, ...branches },
        commits: {
          [BASE]: { files: { 'src/retry.js': 'buggy\n' } },
          [HEAD]: { parents: [BASE], files: { 'src/retry.js': 'fixed\n' } },
          [LATER]: { parents: [HEAD], files: { 'src/retry.js': 'fixed again\n' } }
        }
      }
    },
    ...overrides
  }
}

let gitHub: FakeGitHub
afterEach(() => gitHub?.close())

async function destinationOn(data: FakeGitHubData, info: PullRequestInfo = pullRequest) {
  gitHub = await startFakeGitHub(data)
  return createGitHubDestination(github.getOctokit('ghs_token', { baseUrl: gitHub.url }), repository, info)
}

const writes = () => gitHub.requests.filter((request) => request.method !== 'GET')
const branchAt = (branch: string) => gitHub.repository(REPO).refs.get(`refs/heads/${branch}`)

describe('deliver: commit', () => {
  test("one commit on the pull request's branch, its parent the head, the branch fast-forwarded from the head", async () => {
    const destination = await destinationOn(gitHubData())
    const result = await destination.push(delivery(), 'commit')

    const commitSha = branchAt('fix-retries')!
    expect(result).toEqual({ pushed: true, url: `https://github.com/${REPO}/commit/${commitSha}` })
    const commit = gitHub.repository(REPO).commits.get(commitSha)!
    expect(commit.parents).toEqual([HEAD])
    expect(commit.message).toBe(`test: regression tests for #7\n\nProven fail-to-pass.\n\n${DELIVERY_MARKER}`)
    // The head's tree, plus the suite.
    expect(gitHub.repository(REPO).filesAt(commitSha)).toEqual({ 'src/retry.js': 'fixed\n', [TEST_FILE.path]: TEST_FILE.content })
    // The branch was read at the head before it moved, and moved without force.
    const refRead = gitHub.requests.findIndex((request) => request.method === 'GET' && request.path === `/repos/${REPO}/git/ref/heads%2Ffix-retries`)
    const refUpdate = gitHub.requests.findIndex((request) => request.method === 'PATCH')
    expect(refRead).toBeGreaterThan(-1)
    expect(refUpdate).toBeGreaterThan(refRead)
    expect(gitHub.requests[refUpdate]).toMatchObject({ path: `/repos/${REPO}/git/refs/heads%2Ffix-retries`, body: { sha: commitSha, force: false } })
    expect(writes().map((request) => request.path.replace(`/repos/${REPO}`, ''))).toEqual(['/git/blobs', '/git/trees', '/git/commits', '/git/refs/heads%2Ffix-retries'])
  })

  test("refused on a fork's pull request: nothing is written", async () => {
    const destination = await destinationOn(gitHubData(), { ...pullRequest, headRepository: 'mallory/transport' })
    expect(await destination.push(delivery(), 'commit')).toEqual({
      pushed: false,
      reason: "the pull request's branch is in mallory/transport, not acme/transport: the job's token cannot push to it"
    })
    expect(gitHub.requests).toEqual([])
  })

  test('a branch that moved since the run started is left where it is', async () => {
    const destination = await destinationOn(gitHubData({}, { 'fix-retries': LATER }))
    expect(await destination.push(delivery(), 'commit')).toEqual({
      pushed: false,
      reason: `the branch fix-retries moved to ${LATER} after the run started at ${HEAD}: nothing was overwritten`
    })
    expect(branchAt('fix-retries')).toBe(LATER)
    expect(writes()).toEqual([])
  })

  test('a branch that moves between the check and the update is not overwritten either', async () => {
    const destination = await destinationOn(gitHubData())
    gitHub.before('POST', /\/git\/commits$/, () => gitHub.repository(REPO).refs.set('refs/heads/fix-retries', LATER))
    expect(await destination.push(delivery(), 'commit')).toEqual({
      pushed: false,
      reason: `the branch fix-retries moved to ${LATER} after the run started at ${HEAD}: nothing was overwritten`
    })
    expect(branchAt('fix-retries')).toBe(LATER)
    expect(writes().at(-1)).toMatchObject({ method: 'PATCH', body: { force: false } })
  })

  test('a protected branch is refused before anything is written', async () => {
    const destination = await destinationOn({ ...gitHubData(), repos: { [REPO]: { ...gitHubData().repos![REPO], protectedBranches: ['fix-retries'] } } })
    expect(await destination.push(delivery(), 'commit')).toEqual({ pushed: false, reason: 'fix-retries is a protected branch: the action does not push to it' })
    expect(writes()).toEqual([])
    expect(branchAt('fix-retries')).toBe(HEAD)
  })

  test("a ruleset's refusal of the ref update is the reason, in GitHub's words", async () => {
    const destination = await destinationOn({ ...gitHubData(), repos: { [REPO]: { ...gitHubData().repos![REPO], rulesetBranches: ['fix-retries'] } } })
    const result = await destination.push(delivery(), 'commit')
    expect(result).toEqual({ pushed: false, reason: expect.stringMatching(/^GitHub refused to move fix-retries \(a branch protection rule or ruleset\): Repository rule violations found/) })
    expect(branchAt('fix-retries')).toBe(HEAD)
  })

  test('without contents: write, the reason names the permission', async () => {
    const destination = await destinationOn(gitHubData({ permissions: { contents: 'read' } }))
    expect(await destination.push(delivery(), 'commit')).toEqual({
      pushed: false,
      reason: 'the job needs `permissions: contents: write` (GitHub answered 403: Resource not accessible by integration)'
    })
    expect(branchAt('fix-retries')).toBe(HEAD)
  })

  test('a branch deleted since the run started is said to be gone, not a permission', async () => {
    const data = gitHubData()
    delete data.repos![REPO].branches['fix-retries']
    const destination = await destinationOn(data)
    expect(await destination.push(delivery(), 'commit')).toEqual({ pushed: false, reason: 'the branch fix-retries no longer exists' })
    expect(writes()).toEqual([])
  })

  test('a merged pull request gets no commit on its old branch', async () => {
    const destination = await destinationOn(gitHubData(), { ...pullRequest, merged: true })
    const result = await destination.push(delivery(), 'commit')
    expect(result).toEqual({ pushed: false, reason: 'the pull request is merged: a commit on fix-retries would not reach main (deliver: pull-request opens one into it)' })
    expect(gitHub.requests).toEqual([])
  })
})

describe('deliver: pull-request', () => {
  const FOLLOW_UP = 'regression-testgen/pr-7'

  test("created into the pull request's branch, then updated (not duplicated) on the next run", async () => {
    const destination = await destinationOn(gitHubData())
    const first = await destination.push(delivery(), 'pull-request')
    expect(first).toEqual({ pushed: true, url: `https://github.com/${REPO}/pull/8` })
    const firstCommit = branchAt(FOLLOW_UP)!
    expect(gitHub.repository(REPO).commits.get(firstCommit)!.parents).toEqual([HEAD])
    expect(gitHub.repository(REPO).filesAt(firstCommit)[TEST_FILE.path]).toBe(TEST_FILE.content)

    const second = await destination.push(delivery('test: regression tests for #7 (re-run)'), 'pull-request')
    expect(second).toEqual({ pushed: true, url: `https://github.com/${REPO}/pull/8` })
    const followUps = gitHub.repository(REPO).pulls.filter((pull) => pull.head.ref === FOLLOW_UP)
    expect(followUps).toHaveLength(1)
    expect(followUps[0]).toMatchObject({ title: 'test: regression tests for #7 (re-run)', state: 'open', base: { ref: 'fix-retries' } })
    // The tool's own branch is replaced, not stacked: the new commit's parent is the head again.
    const secondCommit = branchAt(FOLLOW_UP)!
    expect(secondCommit).not.toBe(firstCommit)
    expect(gitHub.repository(REPO).commits.get(secondCommit)!.parents).toEqual([HEAD])
    expect(writes().filter((request) => request.path.includes('/pulls')).map((request) => request.method)).toEqual(['POST', 'PATCH'])
    expect(branchAt('fix-retries')).toBe(HEAD)
  })

  test('once the pull request is merged, into the base branch', async () => {
    const destination = await destinationOn(gitHubData(), { ...pullRequest, merged: true })
    const result = await destination.push(delivery(), 'pull-request')
    expect(result).toEqual({ pushed: true, url: `https://github.com/${REPO}/pull/8` })
    expect(gitHub.repository(REPO).pulls.find((pull) => pull.number === 8)).toMatchObject({ head: { ref: FOLLOW_UP }, base: { ref: 'main' } })
  })

  test("a fork's open pull request gets none: its branch is in the fork", async () => {
    const destination = await destinationOn(gitHubData(), { ...pullRequest, headRepository: 'mallory/transport' })
    expect(await destination.push(delivery(), 'pull-request')).toEqual({
      pushed: false,
      reason: "the pull request's branch is in mallory/transport, not acme/transport: a pull request into it can only be opened there"
    })
    expect(gitHub.requests).toEqual([])
  })

  test('where the repository does not let Actions open pull requests, the reason names the setting', async () => {
    const destination = await destinationOn({ ...gitHubData(), repos: { [REPO]: { ...gitHubData().repos![REPO], actionsMayCreatePullRequests: false } } })
    const result = await destination.push(delivery(), 'pull-request')
    expect(result).toEqual({
      pushed: false,
      reason:
        'the repository does not let GitHub Actions open pull requests: allow it in Settings → Actions → General → "Allow GitHub Actions to create and approve pull requests" ' +
        '(GitHub answered 403: GitHub Actions is not permitted to create or approve pull requests.); the commit is on regression-testgen/pr-7'
    })
  })

  test.each([
    [{ contents: 'read' as const }, 'the job needs `permissions: contents: write` (GitHub answered 403: Resource not accessible by integration)'],
    [{ pullRequests: 'read' as const }, 'the job needs `permissions: pull-requests: write` (GitHub answered 403: Resource not accessible by integration); the commit is on regression-testgen/pr-7']
  ])('a missing permission is named: %j', async (permissions, reason) => {
    const destination = await destinationOn(gitHubData({ permissions }))
    expect(await destination.push(delivery(), 'pull-request')).toEqual({ pushed: false, reason })
    expect(gitHub.repository(REPO).pulls.map((pull) => pull.number)).toEqual([7])
  })
})

test("a body over GitHub's 65,536 characters is cut for the pull request; the commit keeps it whole", async () => {
  const destination = await destinationOn(gitHubData())
  const scenarios = Array.from({ length: 3000 }, (_, index) => `- scenario ${index}: ${'a retry is charged once '.repeat(2)}`).join('\n')
  const long = { ...delivery(), body: `Scenarios:\n${scenarios}\n\n${DELIVERY_MARKER}` }
  expect(await destination.push(long, 'pull-request')).toMatchObject({ pushed: true })
  const pull = gitHub.repository(REPO).pulls.find((candidate) => candidate.head.ref === 'regression-testgen/pr-7')!
  expect(long.body.length).toBeGreaterThan(65_536)
  expect(pull.body.length).toBeLessThanOrEqual(65_000)
  expect(pull.body).toContain('- scenario 0:')
  expect(gitHub.repository(REPO).commits.get(branchAt('regression-testgen/pr-7')!)!.message).toBe(`${long.title}\n\n${long.body}`)
})
