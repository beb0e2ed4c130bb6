/**
 * The deliver stage inside a whole run (real git, real jest, the sandbox, the fake model) with a scripted
 * destination in place of the action's GitHub: what it is handed (the redacted files, the message, the head
 * as the parent), and a refusal ending as the patch.
 */
import { mkdtemp } from 'node:fs/promises'
import { existsSync, readFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { DELIVERY_MARKER, type Delivery, type PushResult, type SuiteDestination } from '../../src/deliver/delivery.js'
import { runWithRealPorts } from '../../src/run.js'
import { buildSettings } from '../../src/settings.js'
import { linesLogger } from '../support/cli-run.js'
import { startFakeAnthropic } from '../support/fake-anthropic.js'
import { buildFixtureRepo } from '../support/fixture-repo.js'
import { byStage, fixtureAnswers } from '../support/scripted-model.js'

const SUITE_PATH = 'test/regression/issue-4471.test.ts'
const TOKEN = 'ghs_pushTokenNeverInTheFiles0123456789'

async function runWith(answer: PushResult) {
  const answers = fixtureAnswers('retry-budget')
  const written = answers['write-tests'] as { tool_use: { name: string; input: { files: Array<{ path: string; content: string; tests: unknown[] }> } } }
  const [file] = written.tool_use.input.files
  const leaky = { tool_use: { ...written.tool_use, input: { files: [{ ...file, content: `// ${TOKEN}\n${file.content}` }] } } }
  const model = await startFakeAnthropic(byStage({ ...answers, 'write-tests': leaky }))
  const repo = await buildFixtureRepo('retry-budget', { withFixTest: false })
  const pushes: Array<{ delivery: Delivery; mode: string }> = []
  const destination: SuiteDestination = { push: async (delivery, mode) => (pushes.push({ delivery, mode }), answer) }
  try {
    const out = join(await mkdtemp(join(tmpdir(), 'rtg-deliver-destination-')), 'out')
    const env = { GITHUB_SERVER_URL: 'https://github.com', GITHUB_REPOSITORY: 'acme/transport', GITHUB_RUN_ID: '42' }
    const settings = buildSettings({ mode: 'generate', repo: repo.dir, base: repo.base, head: repo.head, out, apiKey: 'test-key', baseURL: model.baseURL, issueFile: repo.issuePath, secrets: [TOKEN], deliver: 'commit' }, process.cwd(), env)
    const lines: string[] = []
    const outcome = await runWithRealPorts(settings, linesLogger(lines), null, destination)
    return { outcome, pushes, lines, repo, out }
  } finally {
    await model.close()
  }
}

test('commit: the destination gets the redacted files, the message ending in the marker, and the head as the parent', async () => {
  const { outcome, pushes, lines, repo, out } = await runWith({ pushed: true, url: 'https://github.com/acme/transport/commit/abc' })
  expect(outcome.report.verdict).toBe('fail-to-pass')
  expect(outcome.report.delivery).toEqual({ mode: 'commit', files: [SUITE_PATH], url: 'https://github.com/acme/transport/commit/abc', reason: null })
  expect(pushes).toHaveLength(1)
  const [{ delivery, mode }] = pushes
  expect(mode).toBe('commit')
  expect(delivery.head).toBe(repo.head)
  expect(delivery.files.map((file) => file.path)).toEqual([SUITE_PATH])
  expect(delivery.files[0].content.startsWith('// ***\n')).toBe(true)
  expect(JSON.stringify(delivery)).not.toContain(TOKEN)
  expect(delivery.title).toBe('test: regression tests for Streaming calls never retry after a 429 (#4471)')
  expect(delivery.body).toContain('Verdict: **fail-to-pass** — 6 test(s) fail on the pre-fix code and pass with the fix')
  expect(delivery.body).toContain('Run: https://github.com/acme/transport/actions/runs/42')
  expect(delivery.body.endsWith(`\n\n${DELIVERY_MARKER}`)).toBe(true)
  expect(lines).toContain(`Delivery: committed with 1 file(s): ${SUITE_PATH}: https://github.com/acme/transport/commit/abc`)
  // The record of what the commit added.
  expect(readFileSync(join(out, 'suite.patch'), 'utf8')).toContain(`+++ b/${SUITE_PATH}\n`)
})

test('a refused commit is delivered as the patch, the refusal in report.json and report.md', async () => {
  const { outcome, out } = await runWith({ pushed: false, reason: "the pull request's head branch is in a fork" })
  expect(outcome.report.delivery).toEqual({ mode: 'patch', files: [SUITE_PATH], url: null, reason: "the pull request's head branch is in a fork" })
  expect(existsSync(join(out, 'suite.patch'))).toBe(true)
  expect(readFileSync(outcome.paths.markdown, 'utf8')).toContain("Not pushed: the pull request's head branch is in a fork.")
  expect(outcome.deliveredFiles.map((file) => file.path)).toEqual([SUITE_PATH])
})
