/**
 * The events the action accepts: pull_request_target only when allowed, workflow_dispatch by pr-number, and
 * not on a fork's pull request unless allowed the same way.
 */
import { existsSync } from 'node:fs'
import { join } from 'node:path'
import { runBundledAction } from '../support/action-run.js'
import { startFakeGitHub, type FakeGitHub } from '../support/fake-github.js'
import { useFakeRunner } from '../support/fake-runner.js'
import { buildFixtureRepo, type FixtureRepo } from '../support/fixture-repo.js'

let repo: FixtureRepo
beforeAll(async () => (repo = await buildFixtureRepo('retry-budget')))
afterAll(() => repo.cleanup())
const payload = () => ({ number: 7, pull_request: { number: 7, title: 'Fix', body: '', base: { sha: repo.base }, head: { sha: repo.head } } })

test('pull_request_target is refused, saying why, unless allowed', async () => {
  const refused = await runBundledAction({ event: 'pull_request_target', payload: payload(), workspace: repo.dir })
  expect(refused.code).toBe(1)
  expect(refused.stdout).toContain("::error::Refusing to run on pull_request_target. pull_request_target runs with the base repository's secrets")
  expect(refused.report).toBeNull()

  const allowed = await runBundledAction({ event: 'pull_request_target', payload: payload(), workspace: repo.dir, inputs: { 'allow-pull-request-target': 'true' } })
  expect(allowed.code).toBe(0)
  expect(allowed.outputs).toMatch(/verdict<<.*\nfail-to-pass\n/)
})

test('workflow_dispatch reads the pull request named by pr-number from the API', async () => {
  const gitHub = await startFakeGitHub({ issues: {}, pulls: { 'acme/transport#7': { title: 'Fix', body: '', baseSha: repo.base, headSha: repo.head } } })
  try {
    const run = await runBundledAction({
      event: 'workflow_dispatch',
      payload: { inputs: { 'pr-number': '7' } },
      workspace: repo.dir,
      inputs: { 'pr-number': '7', 'github-token': 'ghs_x' },
      env: { GITHUB_API_URL: gitHub.url }
    })
    expect(run.code).toBe(0)
    expect(run.report).toMatchObject({ verdict: 'fail-to-pass', repository: { base: repo.base, head: repo.head } })
    expect(gitHub.requests.map((request) => request.path)).toEqual(['/repos/acme/transport/pulls/7'])
  } finally {
    await gitHub.close()
  }
})

test.each([
  [{ event: 'workflow_dispatch', inputs: { 'github-token': 'x' } }, '::error::Invalid pr-number: a workflow_dispatch run needs the pull request\'s number, got ""'],
  [{ event: 'pull_request', inputs: { 'allow-pull-request-target': 'yes' } }, '::error::Invalid allow-pull-request-target: "yes" is not true or false'],
  [{ event: 'push', inputs: {} }, '::error::regression-testgen runs on pull_request (or workflow_dispatch with pr-number) events, not push']
])('invalid runs fail fast, naming the input or event: %j', async ({ event, inputs }, error) => {
  const run = await runBundledAction({ event, payload: payload(), workspace: repo.dir, inputs })
  expect(run.code).toBe(1)
  expect(run.stdout).toContain(error)
})

// In-process (the committed bundle predates the guard): the real Octokit against the fake GitHub.
describe("workflow_dispatch on a fork's pull request, which would run the fork's code with the secrets", () => {
  const runner = useFakeRunner()
  const fix = (headRepo?: string | null) => ({ title: 'Fix', body: '', baseSha: repo.base, headSha: repo.head, headRepo })
  let gitHub: FakeGitHub
  let modules: Awaited<ReturnType<typeof importAction>>
  const apiEnv = { GITHUB_API_URL: process.env.GITHUB_API_URL, GITHUB_REPOSITORY: process.env.GITHUB_REPOSITORY }

  beforeAll(async () => {
    gitHub = await startFakeGitHub({ issues: {}, pulls: { 'acme/transport#7': fix('mallory/transport'), 'acme/transport#8': fix(null), 'acme/transport#9': fix() } })
    // @actions/github reads the API URL once, when first imported: so it is imported after this.
    Object.assign(process.env, { GITHUB_API_URL: gitHub.url, GITHUB_REPOSITORY: 'acme/transport' })
    modules = await importAction()
  })
  afterAll(async () => {
    for (const [name, value] of Object.entries(apiEnv)) value === undefined ? delete process.env[name] : (process.env[name] = value)
    await gitHub.close()
  })
  let exitCode: typeof process.exitCode
  beforeEach(() => (exitCode = process.exitCode))
  // core.setFailed sets it; it must not become jest's own.
  afterEach(() => (process.exitCode = exitCode))

  /** The runner's variables and event for a dispatch with these inputs; the context is read from them, as at start. */
  function dispatch(inputs: Record<string, string>, eventName = 'workflow_dispatch', payload: object = { inputs }) {
    for (const [name, value] of Object.entries(inputs)) process.env[`INPUT_${name.toUpperCase()}`] = value
    Object.assign(process.env, { GITHUB_EVENT_NAME: eventName, GITHUB_WORKSPACE: repo.dir, RUNNER_TEMP: runner.work() })
    Object.assign(modules.github.context, { eventName: process.env.GITHUB_EVENT_NAME, payload })
  }

  test('is refused, saying why, before anything runs', async () => {
    dispatch({ 'pr-number': '7', 'github-token': 'ghs_x' })
    await modules.main.run()
    expect(process.exitCode).toBe(1)
    expect(runner.output()).toContain(
      "::error::Refusing to run on pull request #7: its head is in mallory/transport, not acme/transport. A workflow_dispatch run has the repository's secrets and token"
    )
    expect(existsSync(join(runner.work(), 'regression-testgen'))).toBe(false)
    expect(gitHub.requests.at(-1)).toMatchObject({ method: 'GET', path: '/repos/acme/transport/pulls/7' })
  })

  test('a deleted fork (no head repository) is a fork too', async () => {
    dispatch({})
    await expect(modules.pullRequest.pullRequestOfEvent({ allowPullRequestTarget: false, prNumber: '8', token: 'ghs_x' })).rejects.toThrow(
      'Refusing to run on pull request #8: its head is in a deleted fork, not acme/transport.'
    )
  })

  test('allow-pull-request-target: true lets it run, as it does pull_request_target', async () => {
    dispatch({})
    const pullRequest = await modules.pullRequest.pullRequestOfEvent({ allowPullRequestTarget: true, prNumber: '7', token: 'ghs_x' })
    expect(pullRequest).toMatchObject({ number: 7, baseSha: repo.base, headSha: repo.head })
  })

  test("the base repository's own pull request runs; so does a fork's on pull_request, which gets no secrets", async () => {
    dispatch({})
    const inputs = { allowPullRequestTarget: false, token: 'ghs_x' }
    expect(await modules.pullRequest.pullRequestOfEvent({ ...inputs, prNumber: '9' })).toMatchObject({ number: 9, headSha: repo.head })

    const forked = { number: 7, pull_request: { number: 7, title: 'Fix', body: '', base: { sha: repo.base, repo: { full_name: 'acme/transport' } }, head: { sha: repo.head, repo: { full_name: 'mallory/transport' } } } }
    dispatch({}, 'pull_request', forked)
    expect(await modules.pullRequest.pullRequestOfEvent({ ...inputs, prNumber: '' })).toMatchObject({ number: 7, headSha: repo.head })
  })

  test('where each side lives, for a delivery: from the API on workflow_dispatch, from the payload on pull_request', async () => {
    dispatch({})
    const inputs = { allowPullRequestTarget: true, token: 'ghs_x' }
    const sides = { headRef: 'fix', baseRef: 'main', baseRepository: 'acme/transport', merged: false }
    expect(await modules.pullRequest.pullRequestOfEvent({ ...inputs, prNumber: '9' })).toMatchObject({ ...sides, headRepository: 'acme/transport' })
    expect(await modules.pullRequest.pullRequestOfEvent({ ...inputs, prNumber: '8' })).toMatchObject({ ...sides, headRepository: null })

    const side = (ref: string, name: string) => ({ ref, sha: repo.head, repo: { full_name: name } })
    const merged = { number: 7, pull_request: { number: 7, title: 'Fix', body: '', merged: true, base: side('release', 'acme/transport'), head: side('retries', 'mallory/transport') } }
    dispatch({}, 'pull_request', merged)
    expect(await modules.pullRequest.pullRequestOfEvent({ ...inputs, prNumber: '' })).toMatchObject({
      headRef: 'retries',
      baseRef: 'release',
      headRepository: 'mallory/transport',
      baseRepository: 'acme/transport',
      merged: true
    })
  })
})

// One after the other: jest's ESM loader fails on concurrent imports of shared modules.
async function importAction() {
  const github = await import('@actions/github')
  const pullRequest = await import('../../src/github/pull-request.js')
  return { github, pullRequest, main: await import('../../src/main.js') }
}
