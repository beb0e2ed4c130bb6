/**
 * The prompt cache carries from stage to stage: a generate run of the bundled example through the real SDK
 * against the fake Messages API, whose usage follows the API's caching rule (test/support/prompt-cache.ts).
 */
import { join } from 'node:path'
import type { RecordedRequest } from '../support/fake-anthropic.js'
import { MAX_BREAKPOINTS } from '../support/prompt-cache.js'
import { runCliOnFixture } from '../support/cli-run.js'
import { fixtureAnswers, stageOf } from '../support/scripted-model.js'

const answers = fixtureAnswers('retry-budget')
const issue = ['--issue', join('__fixtures__', 'retry-budget', 'issue.md')]

/** tools, system and the messages' blocks up to the first cache_control: what the shared context's breakpoint caches. */
function prefixToFirstBreakpoint(request: RecordedRequest): string {
  const first = request.body.messages[0].content as Array<{ cache_control?: object }>
  const end = first.findIndex((block) => block.cache_control)
  return JSON.stringify({ model: request.body.model, tool_choice: request.body.tool_choice, thinking: request.body.thinking, tools: request.body.tools, system: request.body.system, blocks: first.slice(0, end + 1) })
}

const breakpoints = (request: RecordedRequest) =>
  [request.body.tools, request.body.system, ...request.body.messages.map((message: { content: unknown }) => message.content)]
    .flatMap((part) => (Array.isArray(part) ? part : []))
    .filter((block: { cache_control?: object }) => block.cache_control).length

test('every request of a run shares one prefix up to the shared context; stage 2 onward reads it', async () => {
  const run = await runCliOnFixture({ script: answers, args: issue })
  expect(run.report.verdict).toBe('fail-to-pass')
  const requests = run.model!.requests
  expect(requests.map(stageOf)).toEqual(['analyse', 'scenarios', 'write-tests'])
  // Byte for byte: the same tools (every answer tool, then the read tools), system text and context.
  const prefix = prefixToFirstBreakpoint(requests[0])
  expect(requests.map(prefixToFirstBreakpoint)).toEqual(requests.map(() => prefix))
  expect(requests[0].body.tools.map((tool: { name: string }) => tool.name)).toEqual(['record_root_cause', 'record_scenarios', 'write_test_files', 'read_file', 'search', 'list_files'])
  expect(prefix).toContain('# The bug and its fix')
  for (const request of requests) expect(breakpoints(request)).toBeLessThanOrEqual(MAX_BREAKPOINTS)

  const calls = run.report.model.perCall
  expect(calls[0].cacheReadTokens).toBe(0)
  expect(calls[0].cacheWriteTokens).toBeGreaterThan(1024)
  // Each later stage reads at least what the one before it wrote of the shared part.
  expect(calls[1].cacheReadTokens).toBeGreaterThanOrEqual(Math.ceil(prefix.length / 4) - 100)
  // ... and the analysis, which the scenario stage wrote.
  expect(calls[2].cacheReadTokens).toBeGreaterThan(calls[1].cacheReadTokens)
  // After the first call, what is read outweighs what is cached anew (each stage's own task and answer) many times.
  const later = calls.slice(1)
  expect(sum(later, 'cacheReadTokens')).toBeGreaterThan(3 * sum(later, 'cacheWriteTokens'))
})

test('a run with read rounds: each round reads the rounds before it, and cache reads are at least 60 % of the input tokens', async () => {
  const read = (path: string) => ({ content: [{ type: 'tool_use', id: `toolu_${path.replace(/\W/g, '_')}`, name: 'read_file', input: { path } }], stop_reason: 'tool_use' })
  const run = await runCliOnFixture({ script: { ...answers, analyse: [read('src/streaming-transport.ts'), read('src/retry-budget.ts'), answers.analyse!].flat() }, args: issue })
  expect(run.report.verdict).toBe('fail-to-pass')
  const calls = run.report.model.perCall
  expect(calls.map((call) => call.stage)).toEqual(['analyse', 'analyse', 'analyse', 'scenarios', 'write-tests'])
  // Each read round reads the round before it (the conversation's tail was a breakpoint).
  expect(calls[1].cacheReadTokens).toBe(calls[0].cacheWriteTokens)
  expect(calls[2].cacheReadTokens).toBe(calls[1].cacheReadTokens + calls[1].cacheWriteTokens)
  // The test writer reads the analysis's reads and the analysis from the cache: the scenario stage wrote them.
  expect(calls[4].cacheReadTokens).toBeGreaterThanOrEqual(calls[3].cacheReadTokens + calls[3].cacheWriteTokens - 1000)
  for (const request of run.model!.requests) expect(breakpoints(request)).toBeLessThanOrEqual(MAX_BREAKPOINTS)
  const usage = run.report.model
  expect(usage.cacheReadTokens / (usage.inputTokens + usage.cacheWriteTokens + usage.cacheReadTokens)).toBeGreaterThanOrEqual(0.6)
})

const sum = (calls: Array<Record<'cacheReadTokens' | 'cacheWriteTokens', number>>, key: 'cacheReadTokens' | 'cacheWriteTokens') => calls.reduce((total, call) => total + call[key], 0)

test('a repair round reuses the cached prefix with the analysis and the scenarios: it reads more than the test writer did', async () => {
  const written = answers['write-tests'] as { tool_use: { name: string; input: { files: Array<{ content: string }> } } }
  const broken = { tool_use: { ...written.tool_use, input: { files: written.tool_use.input.files.map((file) => ({ ...file, content: file.content.replace("'../../src/streaming-transport'", "'../src/streaming-transport'") })) } } }
  const run = await runCliOnFixture({ script: { ...answers, 'write-tests': broken, repair: answers['write-tests'] }, args: issue })
  expect(run.report).toMatchObject({ verdict: 'fail-to-pass', rounds: { repair: 1 } })
  const requests = run.model!.requests
  expect(requests.map(stageOf)).toEqual(['analyse', 'scenarios', 'write-tests', 'repair'])
  expect(new Set(requests.map(prefixToFirstBreakpoint)).size).toBe(1)
  const [, , writeTests, repair] = run.report.model.perCall
  expect(repair.cacheReadTokens).toBeGreaterThan(writeTests.cacheReadTokens)
  // What it reads holds the analysis and the scenarios, sent as the test writer sent them.
  const blocks = (request: RecordedRequest) => (request.body.messages[0].content as Array<{ text: string }>).map((block) => block.text)
  expect(blocks(requests[3]).slice(0, -1)).toEqual(blocks(requests[2]).slice(0, -1))
  expect(blocks(requests[3]).map((text) => text.split('\n')[0])).toEqual(['# The bug and its fix', '## Root-cause analysis', '## Scenarios', '# Task: repair the regression tests'])
})
