/**
 * The bundled action with `deliver: patch` (issue 24): suite.patch in the artifact, the `delivered` and
 * `delivery-url` outputs, and the commands that apply it folded in the summary and the sticky comment.
 * (commit and pull-request against the fake GitHub: the push part's tests.) Run `npm run build` first.
 */
import { runBundledAction } from '../support/action-run.js'
import { actionsEnv, startFakeActionsServices } from '../support/fake-actions-services.js'
import { startFakeAnthropic } from '../support/fake-anthropic.js'
import { startFakeGitHub } from '../support/fake-github.js'
import { buildFixtureRepo, type FixtureRepo } from '../support/fixture-repo.js'
import { byStage, fixtureAnswers } from '../support/scripted-model.js'

const SUITE_PATH = 'test/regression/issue-4471.test.ts'

let repo: FixtureRepo
beforeAll(async () => (repo = await buildFixtureRepo('retry-budget', { withFixTest: false })))
afterAll(() => repo.cleanup())

test('deliver: patch puts suite.patch in the artifact, says so in the outputs, and folds the commands into the summary and the comment', async () => {
  const services = await startFakeActionsServices({})
  const model = await startFakeAnthropic(byStage(fixtureAnswers('retry-budget')))
  const gitHub = await startFakeGitHub({ issues: {} })
  try {
    const pullRequest = { number: 7, title: 'Fix streaming retries', body: 'Streaming calls gave up after the first 429.', base: { sha: repo.base }, head: { sha: repo.head } }
    const run = await runBundledAction({
      event: 'pull_request',
      payload: { action: 'synchronize', number: 7, pull_request: pullRequest },
      workspace: repo.dir,
      inputs: { 'anthropic-api-key': 'test-key', 'anthropic-base-url': model.baseURL, 'github-token': 'ghs_test_token', deliver: 'patch', comment: 'true' },
      env: { ...actionsEnv(services), GITHUB_API_URL: gitHub.url, GITHUB_GRAPHQL_URL: `${gitHub.url}/graphql`, GITHUB_RUN_ID: '42' }
    })
    expect(run.code).toBe(0)
    expect(run.report).toMatchObject({ verdict: 'fail-to-pass', delivery: { mode: 'patch', files: [SUITE_PATH], url: null, reason: null } })
    expect(run.outputs).toMatch(/delivered<<.*\npatch\n/)
    expect(run.outputs).toMatch(/delivery-url<<.*\n\n/)

    const [artifact] = services.artifacts
    expect(Object.keys(artifact.files).sort()).toEqual(['report.json', 'report.md', 'run.log', 'suite.patch', `suite/${SUITE_PATH}`])
    expect(artifact.files['suite.patch'].toString()).toContain(`diff --git a/${SUITE_PATH} b/${SUITE_PATH}\nnew file mode 100644\n`)

    const commands = [
      '<details><summary>Apply the suite to this pull request</summary>',
      '',
      '```sh',
      'gh pr checkout 7',
      "gh run download 42 --name 'regression-testgen' --dir /tmp/regression-testgen && git apply --index /tmp/regression-testgen/suite.patch"
    ].join('\n')
    const line = `📬 **Delivered as a patch**: \`suite.patch\` in the output folder (and the artifact) adds \`${SUITE_PATH}\`; \`git apply suite.patch\` at the head.`
    expect(run.summary).toContain(`${line}\n\n${commands}`)
    const comment = gitHub.comments.find((written) => written.user.type === 'Bot')
    expect(comment?.body).toContain(`${line}\n\n${commands}`)
  } finally {
    await Promise.all([services.close(), model.close(), gitHub.close()])
  }
})

test('deliver: commit without github-token is refused before any work, naming the input', async () => {
  const pullRequest = { number: 7, title: 'Fix', body: '', base: { sha: repo.base }, head: { sha: repo.head } }
  const run = await runBundledAction({ event: 'pull_request', payload: { action: 'opened', number: 7, pull_request: pullRequest }, workspace: repo.dir, inputs: { 'anthropic-api-key': 'test-key', deliver: 'commit', 'github-token': '' } })
  expect(run.code).not.toBe(0)
  expect(run.stdout).toContain('::error::Invalid deliver: commit pushes through the GitHub API and needs github-token')
  expect(run.report).toBeNull()
})
