/**
 * The action in-process (src/main.ts, not the bundle) on a pull request whose linked issue, model answers,
 * generated file name and test output all try to issue workflow commands: the job log shows their text,
 * and the runner would read no command from it but the action's own.
 */
import { readFile, writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import type { Report } from '../../src/report/report.js'
import { startFakeAnthropic, type FakeAnthropic } from '../support/fake-anthropic.js'
import { startFakeGitHub, type FakeGitHub } from '../support/fake-github.js'
import { buildFixtureRepo, type FixtureRepo } from '../support/fixture-repo.js'
import { useFakeRunner } from '../support/fake-runner.js'
import { runnerLines, runnerWouldParseCommand, type RunnerCommand } from '../support/runner-commands.js'
import { byStage, fixtureAnswers, type StageScript } from '../support/scripted-model.js'

const runner = useFakeRunner()

// Every payload is marked "pwned", so the test can show that each reached the log.
const ISSUE_TITLE = 'Streaming retries fail ##[error]pwned-title\u0085::add-mask::pwned-title-nel'
const ROOT_CAUSE_TAIL = ' ##[set-output name=verdict;]pwned-summary\n\u00a0::error::pwned-summary-nbsp\u2028::add-mask::pwned-summary-ls'
const HOSTILE_FILE = 'test/regression/##[error]pwned-file.test.ts'
// As JavaScript source: the generated test prints it with console.log, NEL and NBSP included.
const TEST_OUTPUT = '##[set-output name=verdict;]pwned-output\\n\\u0085::add-mask::pwned-output-nel\\n\\u00a0::error::pwned-output-nbsp'
const SECRETS = { apiKey: 'test-key-0123456789', gitHubToken: 'ghs_test_token_0123456789' }

/** The fixture's answers, with a hostile root cause and one more test file, hostile in name and output. */
function hostileScript(): StageScript {
  const answers = fixtureAnswers('retry-budget') as Record<string, { tool_use: { name: string; input: any } }>
  const analysis = answers.analyse.tool_use.input
  const suite = answers['write-tests'].tool_use.input
  const noisyTest = `// Scenario: the transport loads — its output is hostile.\ntest('prints hostile output', () => {\n  console.log('${TEST_OUTPUT}')\n  expect(1).toBe(1)\n})\n`
  return {
    ...answers,
    analyse: { tool_use: { name: 'record_root_cause', input: { ...analysis, summary: analysis.summary + ROOT_CAUSE_TAIL } } },
    'write-tests': {
      tool_use: {
        name: 'write_test_files',
        input: { files: [...suite.files, { path: HOSTILE_FILE, content: noisyTest, tests: [{ title: 'prints hostile output', scenario: 'stream retries after a single 429' }] }] }
      }
    }
  }
}

/** The variables and inputs a runner gives the action on a pull_request event. */
async function pointRunnerAt(repo: FixtureRepo, model: FakeAnthropic, gitHub: FakeGitHub): Promise<void> {
  const files = { event: join(runner.work(), 'event.json'), output: join(runner.work(), 'output'), summary: join(runner.work(), 'summary.md') }
  const pullRequest = { number: 7, title: 'Fix streaming retries', body: 'Fixes #4471', base: { sha: repo.base }, head: { sha: repo.head } }
  await writeFile(files.event, JSON.stringify({ action: 'opened', number: 7, pull_request: pullRequest }))
  await Promise.all([writeFile(files.output, ''), writeFile(files.summary, '')])
  Object.assign(process.env, {
    GITHUB_EVENT_NAME: 'pull_request',
    GITHUB_EVENT_PATH: files.event,
    GITHUB_WORKSPACE: repo.dir,
    GITHUB_REPOSITORY: 'acme/transport',
    GITHUB_OUTPUT: files.output,
    GITHUB_STEP_SUMMARY: files.summary,
    GITHUB_API_URL: gitHub.url,
    GITHUB_GRAPHQL_URL: `${gitHub.url}/graphql`,
    'INPUT_ANTHROPIC-API-KEY': SECRETS.apiKey,
    'INPUT_ANTHROPIC-BASE-URL': model.baseURL,
    'INPUT_GITHUB-TOKEN': SECRETS.gitHubToken,
    // The sandbox for model-written tests may not start on a developer's machine.
    'INPUT_ALLOW-UNISOLATED-TESTS': 'true'
  })
}

// The signature of the fake results service's signed URLs, which @actions/cache and @actions/artifact mask.
const SIGNED_URL_SIGNATURE = /^fake-[0-9a-f-]{36}$/

/** The action's own commands: at column 0, of the kinds @actions/core issues, masks only of its secrets. */
function isOwnCommand(command: RunnerCommand, secrets: string[]): boolean {
  if (command.syntax !== '::' || command.indented) return false
  if (command.name === 'add-mask') return secrets.includes(command.data) || SIGNED_URL_SIGNATURE.test(command.data)
  return ['debug', 'warning', 'notice', 'group', 'endgroup'].includes(command.name)
}

test('hostile text from the issue, the model, a file name and test output issues no workflow command', async () => {
  await runner.start()
  const repo = await buildFixtureRepo('retry-budget', { withFixTest: false })
  const model = await startFakeAnthropic(byStage(hostileScript()))
  const gitHub = await startFakeGitHub({ closing: ['acme/transport#4471'], issues: { 'acme/transport#4471': { title: ISSUE_TITLE, body: 'The first 429 fails at once.' } } })
  const exitCode = process.exitCode
  try {
    await pointRunnerAt(repo, model, gitHub)
    // Imported only now: @actions/github reads the event when it loads.
    const { run } = await import('../../src/main.js')
    await run()
  } finally {
    process.exitCode = exitCode
    await Promise.all([model.close(), gitHub.close(), repo.cleanup()])
  }

  const stdout = runner.output()
  const report = JSON.parse(await readFile(join(runner.work(), 'regression-testgen', 'report.json'), 'utf8')) as Report
  expect(report.verdict).toBe('fail-to-pass')
  expect(report.suite.files.map((file) => file.path)).toContain(HOSTILE_FILE)
  // Each payload reached the job log, as text.
  for (const marker of ['pwned-title', 'pwned-title-nel', 'pwned-summary', 'pwned-summary-nbsp', 'pwned-summary-ls', 'pwned-file', 'pwned-output', 'pwned-output-nel', 'pwned-output-nbsp']) {
    expect(stdout).toContain(marker)
  }
  const secrets = [SECRETS.apiKey, SECRETS.gitHubToken, process.env.ACTIONS_RUNTIME_TOKEN ?? '']
  const foreign = runnerLines(stdout).flatMap((line) => runnerWouldParseCommand(line).filter((command) => !isOwnCommand(command, secrets)).map((command) => ({ line, command })))
  expect(foreign).toEqual([])
}, 180_000)
