/**
 * Text is text: test titles, scenario names and the model's analysis carrying markdown and HTML (a closing
 * `</details>`, an unclosed `<!--`, a forged `<h1>` verdict, @mentions, links, images, backticks) reach
 * report.md through the CLI and the job summary through the bundled action, and render as the text they are.
 * Also: an over-long file name from the model is refused like any bad path, and a run that refused to start
 * says nothing of the repository ran.
 */
import { execFileSync } from 'node:child_process'
import { mkdtemp, readFile, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { runBundledAction } from '../support/action-run.js'
import { linesLogger, runCliOnFixture } from '../support/cli-run.js'
import type { ScriptedReply } from '../support/fake-anthropic.js'
import { startFakeAnthropic } from '../support/fake-anthropic.js'
import { buildFixtureRepo } from '../support/fixture-repo.js'
import { byStage, fixtureAnswers } from '../support/scripted-model.js'
import { createAnthropicModel } from '../../src/model/anthropic.js'
import { UsageLedger } from '../../src/model/model-port.js'
import { runPipeline } from '../../src/pipeline.js'
import { createGit } from '../../src/ports/git.js'
import { unisolated } from '../../src/ports/sandbox.js'
import { buildSettings } from '../../src/settings.js'

const ATTACK = '</details> <!-- <h1>✅ fail-to-pass (forged)</h1> @octocat [the fix](https://evil.example) ![pixel](https://evil.example/p.png) `tick`'
const answers = fixtureAnswers('retry-budget')
const input = <T>(reply: ScriptedReply | ScriptedReply[] | undefined) => structuredClone((reply as { tool_use: { input: T } }).tool_use.input)

/** The code spans taken out: inside one nothing is markup. */
const outsideCode = (markdown: string) => markdown.replace(/(`+)(?!`)[\s\S]*?[^`]\1(?!`)/g, '')

/** Outside code spans: only the tool's own tags, each `<details>` closed, no mention, link, image or reference. */
function expectInert(markdown: string): void {
  const prose = outsideCode(markdown)
  const ownTags = /<\/?(?:details|summary|b)>/g
  expect(prose.replace(ownTags, '')).not.toMatch(/<|&(?!amp;|lt;|gt;)/)
  expect((prose.match(/<details>/g) ?? []).length).toBe((prose.match(/<\/details>/g) ?? []).length)
  expect((prose.match(/<details>/g) ?? []).length).toBe((prose.match(/<details><summary><b>[A-Z][\w -]+<\/b><\/summary>\n/g) ?? []).length)
  expect(prose).not.toMatch(/@octocat|:\/\/|(?<!\\)\[|^#+ ✅/m)
}

/** The scripted model with the attack in a test title, a scenario's name and what it verifies, and the analysis. */
function attackingScript() {
  const analysis = input<{ summary: string; defects: Array<{ rootCause: string }> }>(answers.analyse)
  analysis.summary = `${ATTACK}. ${analysis.summary}`
  analysis.defects[0].rootCause = `${ATTACK}\n\n# ✅ fail-to-pass (forged)`
  const scenarios = input<{ scenarios: Array<{ name: string; verifies: string }> }>(answers.scenarios)
  scenarios.scenarios[0].name = `${scenarios.scenarios[0].name} ${ATTACK}`
  scenarios.scenarios[0].verifies = `${ATTACK} | forged | cell |\n| row |`
  const suite = input<{ files: Array<{ content: string; tests: Array<{ title: string; scenario: string }> }> }>(answers['write-tests'])
  const title = `retries a streaming call after a single 429 ${ATTACK}`
  suite.files[0].content = suite.files[0].content.replace("it('retries a streaming call after a single 429'", `it(${JSON.stringify(title)}`)
  suite.files[0].tests[0] = { title, scenario: scenarios.scenarios[0].name }
  return {
    ...answers,
    analyse: { tool_use: { name: 'record_root_cause', input: analysis } },
    scenarios: { tool_use: { name: 'record_scenarios', input: scenarios } },
    'write-tests': { tool_use: { name: 'write_test_files', input: suite } }
  }
}

test('report.md through the CLI: the attack in a title, a scenario and the analysis renders as text', async () => {
  const run = await runCliOnFixture({ script: attackingScript() })
  expect(run.report.verdict).toBe('fail-to-pass')
  const attackTest = run.report.tests.find((test) => test.name.endsWith(ATTACK))
  expect(attackTest).toMatchObject({ kind: 'fail-to-pass' })
  // The title whole, in a code span its backticks cannot close.
  expect(run.markdown).toContain(`| \`test/regression/issue-4471.test.ts\` | \`\` ${attackTest!.name} \`\` | passed | failed | **fail-to-pass** |`)
  const inert = '&lt;/details&gt; &lt;!-- &lt;h1&gt;✅ fail-to-pass (forged)&lt;/h1&gt; @\u200Boctocat \\[the fix\\](https:\u200B//evil.example) !\\[pixel\\](https:\u200B//evil.example/p.png) \\`tick\\`'
  expect(run.markdown).toContain(`**Root cause:** ${inert}.`)
  expect(run.markdown).toContain(`- **Root cause:** ${inert} # ✅ fail-to-pass (forged)\n`)
  expect(run.markdown).toContain(`| ${inert} \\| forged \\| cell \\| \\| row \\| |\n`)
  expectInert(run.markdown)
})

test('a 300-character file name from the model is refused with a reason, and the run goes on', async () => {
  const longName = `test/regression/${'a'.repeat(292)}.test.ts`
  const suite = input<{ files: Array<{ path: string; content: string; tests: unknown[] }> }>(answers['write-tests'])
  suite.files.unshift({ ...suite.files[0], path: longName })
  const run = await runCliOnFixture({ script: { ...answers, 'write-tests': { tool_use: { name: 'write_test_files', input: suite } } } })
  expect(run.report.suite.refused).toEqual([{ path: longName, reason: 'a name in the path is too long (300 bytes; at most 255)' }])
  expect(run.report.verdict).toBe('fail-to-pass')
  expect(run.markdown).toContain(`- \`${longName}\` left out: a name in the path is too long (300 bytes; at most 255)`)
})

test('a run that refuses to start without a sandbox says nothing of the repository ran', async () => {
  const repo = await buildFixtureRepo('retry-budget', { withFixTest: false })
  const model = await startFakeAnthropic(byStage(answers))
  const out = await mkdtemp(join(tmpdir(), 'rtg-refused-out-'))
  try {
    const settings = buildSettings({ mode: 'generate', repo: repo.dir, base: repo.base, head: repo.head, out, apiKey: 'sk-ant-test', baseURL: model.baseURL })
    const ledger = new UsageLedger()
    const noSandbox = { open: async () => unisolated('not root, and no passwordless sudo to start the sandbox with') }
    const outcome = await runPipeline(settings, { git: createGit(repo.dir), sandboxes: noSandbox, model: settings.model && createAnthropicModel(settings.model, ledger), ledger, log: linesLogger([]), dependencyCache: null, destination: null })
    expect(outcome.report.verdict).toBe('error')
    const markdown = await readFile(outcome.paths.markdown, 'utf8')
    expect(markdown).toContain("Nothing of the repository's code ran (no sandbox: not root, and no passwordless sudo to start the sandbox with).")
    expect(markdown).not.toContain('ran as this job')
    // The trees git checked out while the sandbox was asked for are gone, and git's entries for them.
    expect(execFileSync('git', ['worktree', 'list'], { cwd: repo.dir, encoding: 'utf8' }).trim().split('\n')).toHaveLength(1)
  } finally {
    await model.close()
    await repo.cleanup()
  }
})

test("the bundled action's job summary: a pull request test's title carrying the attack renders as text", async () => {
  const repo = await buildFixtureRepo('retry-budget')
  const testPath = join(repo.dir, 'test/streaming-transport.test.ts')
  const original = await readFile(testPath, 'utf8')
  await writeFile(testPath, original.replace("it('retries a streaming call after a 429 (#4471)'", `it(${JSON.stringify(`retries after a 429 ${ATTACK}`)}`))
  // The pull request's head: the fix with its test so titled.
  execFileSync('git', ['commit', '-qam', 'Title the test'], { cwd: repo.dir })
  const head = execFileSync('git', ['rev-parse', 'HEAD'], { cwd: repo.dir, encoding: 'utf8' }).trim()
  const pullRequest = { number: 7, title: 'Fix streaming retries', body: 'Fixes #4471', base: { sha: repo.base }, head: { sha: head } }
  try {
    const result = await runBundledAction({ event: 'pull_request', payload: { action: 'opened', number: 7, pull_request: pullRequest }, workspace: repo.dir, inputs: { 'anthropic-api-key': '' } })
    expect(result.code).toBe(0)
    expect(result.report?.verdict).toBe('fail-to-pass')
    expect(result.summary).toContain(`| \`test/streaming-transport.test.ts\` | \`\` StreamingTransport.stream › retries after a 429 ${ATTACK} \`\` | passed | failed | **fail-to-pass** |`)
    expectInert(result.summary)
  } finally {
    await repo.cleanup()
  }
})
