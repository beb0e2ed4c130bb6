/** The events the bundled action accepts: pull_request_target only when allowed, workflow_dispatch by pr-number. */
import { runBundledAction } from '../support/action-run.js'
import { startFakeGitHub } from '../support/fake-github.js'
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
