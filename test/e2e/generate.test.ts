/** The CLI end to end on the bundled example: real git, real jest, the real SDK against a scripted fake model. */
import { execFileSync } from 'node:child_process'
import { existsSync, readFileSync } from 'node:fs'
import { mkdtemp } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { requestText, type ScriptedReply } from '../support/fake-anthropic.js'
import { runCliOnFixture } from '../support/cli-run.js'
import { fixtureAnswers, stageOf } from '../support/scripted-model.js'

const answers = fixtureAnswers('retry-budget')
const SUITE_PATH = 'test/regression/issue-4471.test.ts'
const scriptedSuite = (answers['write-tests'] as { tool_use: { input: { files: Array<{ content: string }> } } }).tool_use.input.files[0].content

const suite = (...files: Array<{ path?: string; content: string }>): ScriptedReply => ({
  tool_use: { name: 'write_test_files', input: { files: files.map((file) => ({ path: file.path ?? SUITE_PATH, content: file.content, tests: [] })) } }
})

const testFile = (body: string) => `import { StreamingTransport } from '../../src/streaming-transport'\n\ndescribe('regression #4471', () => {\n${body}\n})\n`
const passesOnBothTrees = testFile(`  // Scenario: plain send() still retries — bug #4471.
  it('send() retries after a 429', async () => {
    const queue = [429, 200]
    const transport = new StreamingTransport(async () => ({ status: queue.shift() ?? 200 }))
    await expect(transport.send({ url: '/x' })).resolves.toEqual({ status: 200 })
  })`)
const git = (dir: string, ...args: string[]) => execFileSync('git', args, { cwd: dir, encoding: 'utf8' }).trim()

test('(a) the scripted model gives a fail-to-pass suite, and the report says so', async () => {
  const run = await runCliOnFixture({ script: answers, args: ['--issue', join('__fixtures__', 'retry-budget', 'issue.md')] })
  expect(run.exitCode).toBe(0)
  const { report } = run
  expect(report).toMatchObject({ verdict: 'fail-to-pass', reason: null, mode: 'generate', framework: 'jest' })
  expect(report.tests).toHaveLength(6)
  expect(report.tests.every((t) => t.kind === 'fail-to-pass' && t.head === 'passed' && t.preFix === 'failed')).toBe(true)
  expect(report.tests[0]).toMatchObject({ file: SUITE_PATH, name: 'StreamingTransport retry budget (#4471) › retries a streaming call after a single 429' })
  expect(report.model).toMatchObject({ calls: 3, name: 'claude-sonnet-5-5' })
  // Input tokens, most of them from the prompt cache (e2e/prompt-cache.test.ts).
  expect(report.model.inputTokens + report.model.cacheWriteTokens + report.model.cacheReadTokens).toBeGreaterThan(1000)
  expect(report.model.outputTokens).toBeGreaterThan(100)
  expect(Object.keys(report.timings)).toEqual(expect.arrayContaining(['diff', 'context', 'analyse', 'scenarios', 'write-tests', 'prepare-trees', 'run-head', 'run-pre-fix']))
  expect(report.preFixTree).toEqual({ reverted: ['src/streaming-transport.ts'], dependencies: 'reused' })
  expect(report.bugReport).toMatchObject({ source: 'issue-file', title: 'Streaming calls never retry after a 429 (#4471)' })
  expect(readFileSync(join(run.outDir, 'suite', SUITE_PATH), 'utf8')).toBe(scriptedSuite)
  expect(report.diffCoverage).toEqual({ covered: 2, total: 2, files: [{ file: 'src/streaming-transport.ts', covered: 2, total: 2, uncoveredLines: [] }] })
  expect(run.markdown).toContain('2 of 2 changed executable lines run by the suite at head (100%)')
  expect(run.markdown).toContain('✅ **fail-to-pass**')
  // Each scenario with its test's results, by the titles the model gave.
  expect(report.tests[0].scenario).toBe('stream retries after a single 429')
  expect(run.markdown).toContain('| P0 | stream retries after a single 429 | regression | yes | passed | failed |')
  expect(run.markdown).toContain('| P2 | plain send() still retries up to maxAttempts | neighbour | no | not written (P2) |  |')
  // At a glance: the verdict, a one-line root cause, the scenarios, then the tests; the analysis folded away.
  const at = (text: string) => run.markdown.indexOf(text)
  expect(run.markdown).toContain('**Root cause:** StreamingTransport.\\_open shared the transport')
  expect(at('✅ **fail-to-pass**')).toBeLessThan(at('**Root cause:**'))
  expect(at('**Root cause:**')).toBeLessThan(at('## Scenarios'))
  expect(at('## Scenarios')).toBeLessThan(at('## Tests'))
  expect(run.markdown).toMatch(/<details><summary><b>Root-cause analysis<\/b><\/summary>\n\n[\s\S]*### Defect 2: shared mutable state[\s\S]*<\/details>/)
  expect(run.markdown).toContain('<details><summary><b>Model calls and tokens</b></summary>')

  // What the model was shown: the bug report as quoted data, the fix, and the exact import to use.
  const [analyse, scenarios, write] = run.model!.requests
  expect(requestText(analyse)).toContain('<bug_report>\nTitle: Streaming calls never retry after a 429 (#4471)')
  expect(requestText(analyse)).toContain('-    const budget = this.budget\n')
  expect(requestText(scenarios)).toContain('"bugClass": "shared mutable state"')
  expect(requestText(write)).toContain('Import `src/streaming-transport.ts` as `../../src/streaming-transport`')
  expect(requestText(write)).toContain("import { RetryBudget } from '../src/retry-budget'")
  // The module the fixed code imports is shown too, with how a regression test imports it.
  expect(requestText(write)).toContain('### src/retry-budget.ts (imported by the changed code)')
  expect(requestText(write)).toContain('Import `src/retry-budget.ts` as `../../src/retry-budget`')
  expect(requestText(write)).toContain('- Framework: jest 30.')

  // The user's checkout is untouched, and no worktree is left behind.
  expect(git(run.repo.dir, 'status', '--porcelain')).toBe('')
  expect(existsSync(join(run.repo.dir, SUITE_PATH))).toBe(false)
  expect(git(run.repo.dir, 'worktree', 'list').split('\n')).toHaveLength(1)
})

test('a suite that fails before the fix only because its file cannot load there gets a strengthen round asking for a real failure', async () => {
  // The fix adds a module (reverted in the pre-fix tree); the first suite only imports it.
  const budgetModule = "export const fullBudget = (capacity: number): number => capacity\n"
  const loadOnly = `import { fullBudget } from '../../src/stream-budget'\n\n// Scenario: each streaming call gets the whole budget — bug #4471.\nit('gives a streaming call the whole budget (#4471)', () => {\n  expect(fullBudget(3)).toBe(3)\n})\n`
  const script = { ...answers, 'write-tests': suite({ content: loadOnly }), strengthen: answers['write-tests'] }
  const run = await runCliOnFixture({ script, fixtureOptions: { headChanges: { 'src/stream-budget.ts': budgetModule } } })
  expect(run.report).toMatchObject({ verdict: 'fail-to-pass', reason: null, rounds: { strengthen: 1 } })
  expect(run.report.tests.filter((test) => test.kind === 'fail-to-pass').every((test) => test.preFixFailure !== 'load')).toBe(true)
  const strengthen = run.model!.requests.find((request) => stageOf(request) === 'strengthen')!
  expect(requestText(strengthen)).toContain('the only ones that fail against the code BEFORE the fix fail because their file cannot load there')
  // It reuses the run's cached prefix: everything before its task is what the test writer was sent.
  const write = run.model!.requests.find((request) => stageOf(request) === 'write-tests')!
  expect(JSON.stringify({ ...strengthen.body, messages: strengthen.body.messages[0].content.slice(0, -1) })).toBe(JSON.stringify({ ...write.body, messages: write.body.messages[0].content.slice(0, -1) }))
  expect(run.report.model.perCall.at(-1)!.cacheReadTokens).toBeGreaterThan(run.report.model.perCall[2].cacheReadTokens)
  expect(run.log).toContain('Strengthen: tests failed on the pre-fix tree only because their file could not load there; the model rewrites the suite to reach the bug')
})

test('(b) a suite that passes on both trees gets one strengthen round, then no-fail-to-pass (exit 1, or 0 with warn)', async () => {
  const script = { ...answers, 'write-tests': suite({ content: passesOnBothTrees }), strengthen: suite({ content: passesOnBothTrees }) }
  const run = await runCliOnFixture({ script })
  expect(run.exitCode).toBe(1)
  expect(run.report).toMatchObject({ verdict: 'no-fail-to-pass', reason: 'none of the 1 test(s) passing at head failed on the pre-fix tree', rounds: { repair: 0, strengthen: 1 } })
  expect(run.report.tests).toEqual([expect.objectContaining({ head: 'passed', preFix: 'passed', kind: 'pass-to-pass' })])
  // send() never reaches the fixed lines in _open: the diff coverage shows it.
  expect(run.report.diffCoverage).toEqual({ covered: 0, total: 2, files: [{ file: 'src/streaming-transport.ts', covered: 0, total: 2, uncoveredLines: [[56, 56], [59, 59]] }] })
  const strengthen = run.model!.requests.find((request) => stageOf(request) === 'strengthen')!
  expect(requestText(strengthen)).toContain('-      const cost = response.status')
  expect(requestText(strengthen)).toContain('passed: test/regression/issue-4471.test.ts › regression #4471 › send() retries after a 429')

  const warned = await runCliOnFixture({ script, args: ['--on-no-fail-to-pass', 'warn'] })
  expect(warned.exitCode).toBe(0)
  expect(warned.report.verdict).toBe('no-fail-to-pass')
})

test('(c) a broken import is repaired from the failure output', async () => {
  const broken = scriptedSuite.replace("'../../src/streaming-transport'", "'../src/streaming-transport'")
  const run = await runCliOnFixture({ script: { ...answers, 'write-tests': suite({ content: broken }), repair: answers['write-tests'] } })
  expect(run.exitCode).toBe(0)
  expect(run.report).toMatchObject({ verdict: 'fail-to-pass', rounds: { repair: 1, strengthen: 0 } })
  expect(run.report.tests).toHaveLength(6)
  const repair = run.model!.requests.find((request) => stageOf(request) === 'repair')!
  expect(requestText(repair)).toContain("Cannot find module '../src/streaming-transport'")
  expect(readFileSync(join(run.outDir, 'suite', SUITE_PATH), 'utf8')).toBe(scriptedSuite)
})

test('(c) a test still failing after the repair rounds leaves the suite but stays in the report', async () => {
  const failing = testFile(`  // Scenario: a wrong expectation — bug #4471.
  it('expects the wrong status', async () => {
    const transport = new StreamingTransport(async () => ({ status: 200 }))
    await expect(transport.stream({ url: '/x' })).resolves.toEqual({ status: 201 })
  })`)
  // Each repair changes the file, yet it still fails (an identical answer would end the loop at once).
  const stillWrong = (status: number) => suite({ content: failing.replace('status: 201', `status: ${status}`) })
  const run = await runCliOnFixture({ script: { ...answers, 'write-tests': suite({ content: failing }), repair: [stillWrong(202), stillWrong(203)] } })
  expect(run.exitCode).toBe(1)
  expect(run.report).toMatchObject({ verdict: 'no-fail-to-pass', reason: 'no test passed at head', rounds: { repair: 2 } })
  expect(run.report.tests).toEqual([expect.objectContaining({ kind: 'fails-at-head', head: 'failed', preFix: 'missing' })])
  expect(run.report.suite).toMatchObject({ files: [], dropped: [{ path: SUITE_PATH, reason: 'still fails at head' }] })
  expect(existsSync(join(run.outDir, 'suite', SUITE_PATH))).toBe(false)
})

test('(d) malformed model JSON is retried once, then verdict error with a clear reason (exit 2)', async () => {
  const malformed: ScriptedReply = { tool_use: { name: 'record_root_cause', input: { summary: 'x', defects: 'not a list' } } }
  const run = await runCliOnFixture({ script: { analyse: [malformed, malformed] } })
  expect(run.exitCode).toBe(2)
  expect(run.report.verdict).toBe('error')
  expect(run.report.reason).toMatch(/^The model's analyse answer was invalid twice: \/defects must be array/)
  expect(run.report.model.calls).toBe(2)
  expect(requestText(run.model!.requests[1])).toContain('/defects must be array')
  expect(run.markdown).toContain('⚠️ **error**')
})

test('(f) generated tests cannot see the API key, GITHUB_TOKEN, runtime tokens or inputs of the parent', async () => {
  const secrets = { ANTHROPIC_API_KEY: 'sk-ant-parent-secret', GITHUB_TOKEN: 'ghs_parent_secret', ACTIONS_RUNTIME_TOKEN: 'runtime-secret', INPUT_ANTHROPIC_API_KEY: 'sk-ant-input-secret' }
  const sniffer = testFile(`  // Scenario: the test environment is allow-listed — not a bug of #4471, a guard of the harness.
  it('sees no secrets of the parent process', () => {
    const seen = JSON.stringify(process.env)
    for (const secret of ${JSON.stringify(Object.values(secrets))}) expect(seen).not.toContain(secret)
    for (const name of ${JSON.stringify(Object.keys(secrets))}) expect(process.env[name]).toBeUndefined()
  })`)
  const saved = { ...process.env }
  Object.assign(process.env, secrets)
  try {
    const run = await runCliOnFixture({ script: { ...answers, 'write-tests': suite({ content: sniffer }, { path: 'test/regression/issue-4471-more.test.ts', content: scriptedSuite }) } })
    const sniff = run.report.tests.find((t) => t.name.endsWith('sees no secrets of the parent process'))
    expect(sniff).toMatchObject({ head: 'passed', preFix: 'passed' })
    expect(run.report.verdict).toBe('fail-to-pass')
  } finally {
    for (const name of Object.keys(secrets)) if (!(name in saved)) delete process.env[name]
  }
})

test('(g) paths that escape the regression folder or overwrite a file are refused', async () => {
  const run = await runCliOnFixture({
    script: {
      ...answers,
      'write-tests': suite(
        { path: '../../etc/x', content: 'pwned' },
        { path: 'test/retry-budget.test.ts', content: 'overwritten' },
        { path: 'test/regression/../../src/streaming-transport.test.ts', content: 'escaped' },
        { content: scriptedSuite }
      )
    }
  })
  expect(run.report.suite.refused).toEqual([
    { path: '../../etc/x', reason: 'the path contains ".."' },
    { path: 'test/retry-budget.test.ts', reason: 'a file already exists at that path' },
    { path: 'test/regression/../../src/streaming-transport.test.ts', reason: 'the path contains ".."' }
  ])
  expect(run.report.verdict).toBe('fail-to-pass')
  expect(run.report.suite.files.map((file) => file.path)).toEqual([SUITE_PATH])
  expect(existsSync(join(run.repo.dir, '../../etc/x'))).toBe(false)
  expect(readFileSync(join(run.repo.dir, 'test/retry-budget.test.ts'), 'utf8')).not.toBe('overwritten')
})

test('every file refused is an error, not an empty suite', async () => {
  const run = await runCliOnFixture({ script: { ...answers, 'write-tests': suite({ path: '/etc/passwd.test.ts', content: 'x' }) } })
  expect(run.exitCode).toBe(2)
  expect(run.report.reason).toBe('Every test file the model wrote was refused: /etc/passwd.test.ts (the path is absolute)')
})

test('a test that passes once and fails on a second run at head is flaky: left out, reported', async () => {
  // In the run's temp folder (the test's os.tmpdir()), which lasts the whole run: the sandbox's /tmp lasts one command.
  const flaky = testFile(`  // Scenario: depends on leftover state — bug #4471.
  it('passes only the first time', () => {
    const fs = require('fs')
    const marker = require('path').join(require('os').tmpdir(), 'rtg-flaky-marker')
    const seen = fs.existsSync(marker)
    fs.writeFileSync(marker, 'x')
    expect(seen).toBe(false)
  })`)
  const run = await runCliOnFixture({ script: { ...answers, 'write-tests': suite({ content: flaky }, { path: 'test/regression/issue-4471-stable.test.ts', content: scriptedSuite }) } })
  expect(run.report.verdict).toBe('fail-to-pass')
  expect(run.report.tests.find((t) => t.name.endsWith('passes only the first time'))).toMatchObject({
    kind: 'flaky',
    head: 'failed',
    flaky: true,
    message: expect.stringMatching(/^flaky: passed, then on run 2 at head failed: /)
  })
  expect(run.report.suite.dropped).toEqual([{ path: SUITE_PATH, reason: 'flaky at head: a test changed its result between runs' }])
  expect(run.report.suite.files.map((f) => f.path)).toEqual(['test/regression/issue-4471-stable.test.ts'])
})

test('max-model-calls: a repair round past the limit is skipped; a stage past it is an error', async () => {
  const broken = scriptedSuite.replace("'../../src/streaming-transport'", "'../src/streaming-transport'")
  const capped = await runCliOnFixture({ script: { ...answers, 'write-tests': suite({ content: broken }), repair: answers['write-tests'] }, args: ['--max-model-calls', '3'] })
  expect(capped.report).toMatchObject({ verdict: 'error', rounds: { repair: 0 }, model: { calls: 3 } })
  expect(capped.report.reason).toMatch(/^no test could run at head: 1 test file\(s\) could not run \(test\/regression\/issue-4471\.test\.ts: /)

  const tooFew = await runCliOnFixture({ script: answers, args: ['--max-model-calls', '2'] })
  expect(tooFew.exitCode).toBe(2)
  expect(tooFew.report).toMatchObject({ verdict: 'error', reason: 'The model call limit (2) was reached before the write-tests call (raise max-model-calls)', model: { calls: 2 } })
})

test('--response-cache: a second run of the same state asks the model nothing and writes the same suite', async () => {
  const cacheDir = await mkdtemp(join(tmpdir(), 'rtg-responses-'))
  const broken = scriptedSuite.replace("'../../src/streaming-transport'", "'../src/streaming-transport'")
  const first = await runCliOnFixture({ script: { ...answers, 'write-tests': suite({ content: broken }), repair: answers['write-tests'] }, args: ['--response-cache', cacheDir] })
  expect(first.report).toMatchObject({ verdict: 'fail-to-pass', rounds: { repair: 1 }, model: { calls: 4, cachedCalls: 0 } })

  const second = await runCliOnFixture({ script: {}, args: ['--response-cache', cacheDir] })
  expect(second.model!.requests).toHaveLength(0)
  expect(second.report).toMatchObject({ verdict: 'fail-to-pass', rounds: { repair: 1 }, model: { calls: 0, cachedCalls: 4, inputTokens: 0, outputTokens: 0, costUsd: 0 } })
  expect(readFileSync(join(second.outDir, 'suite', SUITE_PATH), 'utf8')).toBe(readFileSync(join(first.outDir, 'suite', SUITE_PATH), 'utf8'))
  expect(second.markdown).toContain('0 call(s) and 4 answered from the response cache')
})

test('a repair answer identical to the file it repairs ends the repair loop', async () => {
  const broken = scriptedSuite.replace("'../../src/streaming-transport'", "'../src/streaming-transport'")
  const run = await runCliOnFixture({ script: { ...answers, 'write-tests': suite({ content: broken }), repair: [suite({ content: broken }), answers['write-tests'] as ScriptedReply] } })
  // One repair call came back unchanged: no second repair call, no run of the same files again.
  expect(run.report).toMatchObject({ verdict: 'error', rounds: { repair: 0 }, model: { calls: 4 } })
  expect(run.model!.requests.filter((request) => stageOf(request) === 'repair')).toHaveLength(1)
  expect(run.log.filter((line) => /^Run \d+ at head/.test(line))).toHaveLength(1)
})

test('a suite the repository\'s configuration does not collect ends as an error, with no repair round', async () => {
  // The repository's jest looks only at test/*.test.ts, not in subfolders: the regression folder is never run.
  const run = await runCliOnFixture({
    script: { ...answers, repair: answers['write-tests'] },
    fixtureOptions: { headChanges: { 'jest.config.js': "module.exports = { preset: 'ts-jest', testEnvironment: 'node', testMatch: ['<rootDir>/test/*.test.ts'] }\n" } }
  })
  expect(run.report).toMatchObject({ verdict: 'error', rounds: { repair: 0 }, model: { calls: 3 } })
  expect(run.report.preflight).toMatchObject({ ok: true })
  expect(run.report.reason).toMatch(/^The suite cannot run here, for a reason outside its files: the runner's configuration does not collect the suite's files \(.*No tests found/)
  expect(run.report.reason).toContain('set test-command to a command that runs the files given ({files}), or move the suite where the configuration looks')
})
