/**
 * The bundled action with the Actions services a runner gives it, all fakes on 127.0.0.1 driven by the real
 * libraries: the results service behind @actions/cache and @actions/artifact, GitHub's REST API for the
 * comment, and the model. What a user sees: the artifact's files, the link, the outputs, the comment, and a
 * re-run of the same pull request state answered from the cache.
 */
import { COMMENT_MARKER } from '../../src/github/comment.js'
import { runBundledAction, type ActionRunOptions } from '../support/action-run.js'
import { actionsEnv, startFakeActionsServices, type FakeActionsServices } from '../support/fake-actions-services.js'
import { startFakeAnthropic, type FakeAnthropic } from '../support/fake-anthropic.js'
import { startFakeGitHub, type FakeGitHub } from '../support/fake-github.js'
import { buildFixtureRepo, type FixtureRepo } from '../support/fixture-repo.js'
import { byStage, fixtureAnswers } from '../support/scripted-model.js'

const SUITE_PATH = 'test/regression/issue-4471.test.ts'
const USER_COMMENT = `${COMMENT_MARKER}\nA reviewer quoting the marker: not ours to edit.`

let repo: FixtureRepo
beforeAll(async () => (repo = await buildFixtureRepo('retry-budget', { withFixTest: false })))
afterAll(() => repo.cleanup())

interface Fakes {
  services: FakeActionsServices
  model: FakeAnthropic
  gitHub: FakeGitHub
}

async function withFakes(failCache: number | undefined, body: (fakes: Fakes) => Promise<void>): Promise<void> {
  const fakes = {
    services: await startFakeActionsServices({ failCache }),
    model: await startFakeAnthropic(byStage(fixtureAnswers('retry-budget'))),
    gitHub: await startFakeGitHub({ issues: { 'acme/transport#7': { title: 'Fix streaming retries', body: '', comments: [USER_COMMENT] } } })
  }
  try {
    await body(fakes)
  } finally {
    await Promise.all([fakes.services.close(), fakes.model.close(), fakes.gitHub.close()])
  }
}

function runAction({ services, model, gitHub }: Fakes, inputs: Record<string, string> = {}, runnerTemp?: string) {
  const pullRequest = { number: 7, title: 'Fix streaming retries', body: 'Streaming calls gave up after the first 429.', base: { sha: repo.base }, head: { sha: repo.head } }
  const options: ActionRunOptions = {
    event: 'pull_request',
    payload: { action: 'synchronize', number: 7, pull_request: pullRequest },
    workspace: repo.dir,
    inputs: { 'anthropic-api-key': 'test-key', 'anthropic-base-url': model.baseURL, 'github-token': 'ghs_test_token', ...inputs },
    env: { ...actionsEnv(services), GITHUB_API_URL: gitHub.url, GITHUB_GRAPHQL_URL: `${gitHub.url}/graphql`, GITHUB_RUN_ID: '42' },
    runnerTemp
  }
  return runBundledAction(options)
}

test('the artifact holds the suite and reports, is linked from the summary, and a re-run is answered from the cache', async () => {
  await withFakes(undefined, async (fakes) => {
    const { services, model, gitHub } = fakes
    const first = await runAction(fakes, { comment: 'true', 'retention-days': '5' })
    expect(first.code).toBe(0)
    expect(first.report).toMatchObject({ verdict: 'fail-to-pass', model: { calls: 3, cachedCalls: 0 } })

    // The artifact: the run's output folder, the suite at its repository path.
    expect(services.artifacts).toHaveLength(1)
    const [artifact] = services.artifacts
    expect(artifact).toMatchObject({ name: 'regression-testgen', retentionDays: 5 })
    expect(Object.keys(artifact.files).sort()).toEqual(['report.json', 'report.md', 'run.log', `suite/${SUITE_PATH}`])
    expect(JSON.parse(artifact.files['report.json'].toString()).verdict).toBe('fail-to-pass')
    expect(artifact.files[`suite/${SUITE_PATH}`].toString()).toContain("from '../../src/streaming-transport'")
    // The run log: the job log's lines, and each test run's output.
    const runLog = artifact.files['run.log'].toString()
    expect(runLog).toMatch(/ info Run 1 at head: 6 passed in \d+\.\d s\n/)
    expect(runLog).toMatch(/ debug Run 4 on the pre-fix tree, the runner's output:\nFAIL test\/regression\/issue-4471\.test\.ts/)
    expect(runLog).toMatch(/ debug Run 4 on the pre-fix tree, failures:\n✗ test\/regression\/issue-4471\.test\.ts › StreamingTransport retry budget \(#4471\) › retries a streaming call after a single 429: /)
    expect(runLog).toMatch(/ info verdict: fail-to-pass\n/)

    expect(first.outputs).toMatch(new RegExp(`artifact-id<<.*\\n${artifact.id}\\n`))
    const link = `📦 Artifact [regression-testgen](https://github.com/acme/transport/actions/runs/42/artifacts/${artifact.id})`
    expect(first.summary).toContain(link)
    expect(first.summary).toMatch(/claude-sonnet-5-5: 3 call\(s\); \d+ input \([1-9]\d* from the prompt cache\) and \d+ output tokens, ≈ \$0\.0\d{3} at list prices/)
    expect(services.cacheEntries.map((entry) => entry.key)).toEqual([expect.stringMatching(/^regression-testgen-responses-v1-[0-9a-f]{16}-[0-9a-f]{16}$/)])

    // The comment: created once beside the reviewer's, which is left as it was.
    const written = () => gitHub.comments.filter((comment) => comment.user.type === 'Bot')
    expect(written()).toHaveLength(1)
    expect(written()[0].body.trimEnd()).toBe(`${COMMENT_MARKER}\n${first.summary.trimEnd()}`)
    expect(gitHub.comments[0].body).toBe(USER_COMMENT)

    // The same pull request state again, on a fresh runner: no model call, the same suite, the comment edited.
    const second = await runAction(fakes, { comment: 'true', 'artifact-name': 'regression-testgen-rerun' }, first.runnerTemp)
    expect(second.code).toBe(0)
    expect(model.requests).toHaveLength(3)
    expect(second.report).toMatchObject({ verdict: 'fail-to-pass', model: { calls: 0, cachedCalls: 3, costUsd: 0 } })
    expect(second.stdout).toContain('Model response cache: 3 repl(ies) restored from regression-testgen-responses-v1-')
    expect(services.artifacts[1].files[`suite/${SUITE_PATH}`]).toEqual(artifact.files[`suite/${SUITE_PATH}`])
    expect(services.cacheEntries).toHaveLength(1) // nothing new learnt, nothing new saved
    expect(written()).toHaveLength(1)
    expect(gitHub.requests.filter((request) => request.method === 'PATCH').map((request) => request.path)).toEqual([`/repos/acme/transport/issues/comments/${written()[0].id}`])
    expect(written()[0].body).toContain('0 call(s) and 3 answered from the response cache')
  })
}, 120_000)

test('a failing cache service only warns; an errored run still uploads its report and log, and fails', async () => {
  await withFakes(400, async (fakes) => {
    const run = await runAction(fakes, { 'max-model-calls': '1' })
    expect(run.report).toMatchObject({ verdict: 'error', reason: expect.stringContaining('The model call limit (1) was reached') })
    expect(run.code).toBe(1)
    expect(run.stdout).toMatch(/^::warning::Failed to restore: .*400/m)
    expect(run.stdout).toContain('::error::verdict error: The model call limit (1)')
    expect(fakes.services.cacheEntries).toEqual([])
    expect(fakes.services.artifacts).toHaveLength(1)
    expect(Object.keys(fakes.services.artifacts[0].files).sort()).toEqual(['report.json', 'report.md', 'run.log'])
    expect(run.outputs).toMatch(/verdict<<.*\nerror\n/)
  })
}, 120_000)

test.each([
  [{ 'retention-days': '91' }, 'Invalid retention-days: "91" is not a whole number of days from 1 to 90'],
  [{ 'artifact-name': 'a/b' }, 'Invalid artifact-name'],
  [{ comment: 'yes' }, 'Invalid comment: "yes" is not true or false'],
  [{ comment: 'true', 'github-token': '' }, 'Invalid comment'],
  // The same ceiling as the CLI's --reruns.
  [{ reruns: '21' }, 'Invalid reruns: "21" is above 20']
])('invalid inputs fail fast, naming the input: %j', async (inputs, error) => {
  await withFakes(undefined, async (fakes) => {
    const run = await runAction(fakes, inputs)
    expect(run.code).toBe(1)
    expect(run.stdout).toContain(`::error::${error}`)
    expect(run.report).toBeNull()
    expect(fakes.model.requests).toHaveLength(0)
    expect(fakes.services.requests).toEqual([])
  })
})
