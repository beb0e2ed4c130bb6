/**
 * scripts/request-shapes.ts keeps a run's requests as shapes without their text, and those shapes price as
 * the requests do: a small run built here (not the dev cases' recordings), through the real scripts.
 */
import { execFile } from 'node:child_process'
import { copyFile, mkdir, mkdtemp, readFile, readdir, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { promisify } from 'node:util'
import { priceRun, recordedCases, recordedRunsCost, RECORDED_RUNS_DIR } from '../../scripts/bench-cost.js'
import { callsOf, readRecordedRun, readShapes, SHAPES_FORMAT } from '../../scripts/recorded-run.js'
import { cacheUsageOfRun, cacheUsageOfShapes } from '../support/prompt-cache.js'

const run = promisify(execFile)
const projectRoot = fileURLToPath(new URL('../..', import.meta.url))
const tsx = (script: string, ...args: string[]) => run(process.execPath, ['--import', 'tsx', join('scripts', script), ...args], { cwd: projectRoot, encoding: 'utf8' })

// Words that must not reach a record: each stands for text of a repository or of the model.
const SECRETS = ['CONTEXT-WORD', 'SYSTEM-WORD', 'TOOL-WORD', 'ANSWER-WORD', 'RESULT-WORD', '中午十二点']
const cached = (text: string) => ({ type: 'text', text, cache_control: { type: 'ephemeral' } })
const tool = (name: string) => ({ name, description: `${name} TOOL-WORD ${'d'.repeat(600)}`, input_schema: { type: 'object' } })
const context = cached(`# The bug and its fix CONTEXT-WORD 中午十二点 ${'c'.repeat(9000)}`)
const task = (heading: string) => cached(`${heading}\n\nDo it now.`)
const shared = { model: 'claude-sonnet-5-5', max_tokens: 16000, system: `SYSTEM-WORD ${'s'.repeat(3000)}`, thinking: { type: 'adaptive' }, tool_choice: { type: 'auto' } }
const oneTools = [tool('record_root_cause'), tool('record_scenarios'), tool('write_test_files'), tool('read_file')]

/** A run's requests: one prefix, a read round, a stage that puts another tool first (a miss), a forced tool with a system array and a string message. */
const requests = [
  { ...shared, tools: oneTools, messages: [{ role: 'user', content: [context, task('# Task: root-cause analysis')] }] },
  {
    ...shared,
    tools: oneTools,
    messages: [
      { role: 'user', content: [context, { type: 'text', text: '# Task: root-cause analysis\n\nDo it now.' }] },
      { role: 'assistant', content: [{ type: 'tool_use', id: 'toolu_1', name: 'read_file', input: { path: 'src/a.js' } }] },
      { role: 'user', content: [{ type: 'tool_result', tool_use_id: 'toolu_1', content: `RESULT-WORD ${'r'.repeat(5000)}`, cache_control: { type: 'ephemeral' } }] }
    ]
  },
  { ...shared, tools: oneTools, messages: [{ role: 'user', content: [context, task('# Task: ranked regression scenarios')] }] },
  { ...shared, tools: [oneTools[2], oneTools[0], oneTools[1], oneTools[3]], messages: [{ role: 'user', content: [context, task('# Task: write the regression tests')] }] },
  {
    ...shared,
    tool_choice: { type: 'tool', name: 'write_test_files' },
    tools: [{ ...oneTools[2], cache_control: { type: 'ephemeral' } }],
    system: [{ type: 'text', text: `SYSTEM-WORD ${'t'.repeat(6000)}`, cache_control: { type: 'ephemeral' } }],
    messages: [{ role: 'user', content: '# Task: tests for what the fix may still get wrong\n\nCONTEXT-WORD' }]
  }
]
/** Replies in each form model-bridge.py and the fake server record; the last request has none. */
const responses = [
  { tool_use: { name: 'record_root_cause', input: { summary: 'ANSWER-WORD' } } },
  { content: [{ type: 'text', text: 'ANSWER-WORD, read.' }, { type: 'tool_use', id: 'toolu_2', name: 'record_root_cause', input: { summary: 'ANSWER-WORD' } }] },
  { text: 'ANSWER-WORD as text' },
  { tool_use: { name: 'write_test_files', input: { files: [{ path: 't.test.js', content: 'ANSWER-WORD '.repeat(100) }] } } }
]

let dir = ''
let record = ''
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'rtg-request-shapes-'))
  const queue = join(dir, 'queue')
  await mkdir(queue)
  for (const [index, request] of requests.entries()) {
    const name = String(index + 1).padStart(4, '0')
    await writeFile(join(queue, `${name}.request.json`), JSON.stringify(request, null, 1))
    if (responses[index]) await writeFile(join(queue, `${name}.response.json`), JSON.stringify(responses[index], null, 1))
  }
  await writeFile(join(queue, '0001.prompt.md'), 'not a request: left out')
  record = join(dir, 'run.json')
  await tsx('request-shapes.ts', queue, record)
})
afterAll(() => rm(dir, { recursive: true, force: true }))

test('a record of shapes prices exactly as the folder of requests it was made from', async () => {
  const fromFolder = callsOf(readRecordedRun(join(dir, 'queue')))
  const fromRecord = callsOf(readRecordedRun(record))
  expect(fromRecord).toEqual(fromFolder)
  // The same usage the fake server reports for these requests, and a run where every part of the rule shows.
  expect(fromRecord.map((call) => [call.inputTokens, call.cacheWriteTokens, call.cacheReadTokens])).toEqual(
    cacheUsageOfRun(requests).map((usage) => [usage.input_tokens, usage.cache_creation_input_tokens, usage.cache_read_input_tokens])
  )
  expect(fromRecord.map((call) => call.stage)).toEqual(['analyse', 'analyse', 'scenarios', 'write-tests', 'concerns'])
  expect(fromRecord[0].cacheWriteTokens).toBeGreaterThan(1024)
  // The read round reads all its first request wrote (its task block without cache_control is the same bytes);
  // the next stage reads the context alone, not the first stage's task block after it.
  expect(fromRecord[1].cacheReadTokens).toBe(fromRecord[0].cacheWriteTokens)
  const { cache_control, ...firstTask } = task('# Task: root-cause analysis')
  expect(fromRecord[2].cacheReadTokens).toBe(fromRecord[0].cacheWriteTokens - Math.ceil(JSON.stringify(firstTask).length / 4))
  expect(fromRecord[3].cacheReadTokens).toBe(0) // another tool first: nothing before the breakpoint matches
  expect(fromRecord[4].inputTokens).toBeGreaterThan(0)
  expect(fromRecord.map((call) => call.outputTokens > 0)).toEqual([true, true, true, true, false])

  // The scripts' own output: request-cost prints the same tables for the record as for the folder.
  const [folderOutput, recordOutput] = [(await tsx('request-cost.ts', join(dir, 'queue'))).stdout, (await tsx('request-cost.ts', record)).stdout]
  expect(recordOutput).toBe(folderOutput)
  expect(folderOutput).toContain('| 0004 write-tests |')
})

test('the record keeps none of the requests\' text: only labels, token counts and sha256 digests', async () => {
  const text = await readFile(record, 'utf8')
  for (const secret of SECRETS) expect(text).not.toContain(secret)
  expect([...new Set(stringsOf(JSON.parse(text)).filter((value) => !/^[0-9a-f]{64}$/.test(value)))].sort()).toEqual(
    ['0001', '0002', '0003', '0004', '0005', 'adaptive', 'analyse', 'auto', 'claude-sonnet-5-5', 'concerns', 'messages', SHAPES_FORMAT, 'scenarios', 'system', 'tool', 'tools', 'write-tests', 'write_test_files'].sort()
  )
  // Read back as the caching rule reads it: the same usage as the requests.
  expect(cacheUsageOfShapes(readShapes(record).requests.map((request) => request.shape))).toEqual(cacheUsageOfRun(requests))
})

test('the bench table: each case before and after per stage, per run, the median and the targets', async () => {
  const bench = join(dir, 'bench')
  await mkdir(bench)
  // One case whose "after" is its "before" and one whose "after" is a run of the first request alone.
  await copyFile(record, join(bench, 'same-before.json'))
  await copyFile(record, join(bench, 'same-after.json'))
  await copyFile(record, join(bench, 'short-before.json'))
  const short = readShapes(record)
  await writeFile(join(bench, 'short-after.json'), JSON.stringify({ ...short, requests: short.requests.slice(0, 1) }))
  const priced = priceRun(readShapes(record))
  const first = priceRun({ ...short, requests: short.requests.slice(0, 1) })

  expect(recordedCases(bench).map((one) => one.name)).toEqual(['same', 'short'])
  const table = recordedRunsCost(bench)
  const row = (label: string, side: string, usage: typeof priced.total) =>
    new RegExp(`^ *${label} *${side} +${usage.calls} +${usage.inputTokens + usage.cacheWriteTokens + usage.cacheReadTokens} +${usage.cacheWriteTokens} +${usage.cacheReadTokens} +${usage.outputTokens} +\\$${usage.costUsd!.toFixed(4).replace('.', '\\.')}$`, 'm')
  expect(table).toMatch(row('analyse', 'before', priced.stages.analyse))
  expect(table).toMatch(row('total', 'before', priced.total))
  expect(table).toMatch(row('', 'after', first.total))
  expect(table).toMatch(new RegExp(`^ +short +5/1 +\\$${priced.total.costUsd!.toFixed(4)} +\\$${first.total.costUsd!.toFixed(4)} `, 'm'))
  const median = (priced.total.costUsd! + first.total.costUsd!) / 2
  expect(table).toMatch(new RegExp(`^ +median +\\$${priced.total.costUsd!.toFixed(4)} +\\$${median.toFixed(4)}$`, 'm'))
  // The 5-call runs read under 60 % of their input; the 1-call run does not count.
  expect(table).toContain('on runs of 3+ calls: before 0 of 2 runs, after 0 of 1;')

  await rm(join(bench, 'short-after.json'))
  expect(() => recordedCases(bench)).toThrow('short-before.json has no short-after.json beside it')
})

test('the committed records are records of the dev cases before and after, and hold no text', async () => {
  const files = await readdir(RECORDED_RUNS_DIR)
  const cases = recordedCases(RECORDED_RUNS_DIR)
  expect(cases.length).toBeGreaterThanOrEqual(5)
  expect(files.sort()).toEqual(cases.flatMap((one) => [`${one.name}-after.json`, `${one.name}-before.json`]).sort())
  for (const file of files) {
    const values = stringsOf(readShapes(join(RECORDED_RUNS_DIR, file)))
    expect(values.filter((value) => !/^[0-9a-f]{64}$/.test(value) && !/^[\w. -]+$/.test(value))).toEqual([])
    expect(Math.max(...values.map((value) => value.length))).toBeLessThanOrEqual(64)
  }
})

function stringsOf(value: unknown): string[] {
  if (typeof value === 'string') return [value]
  if (Array.isArray(value)) return value.flatMap(stringsOf)
  if (value && typeof value === 'object') return Object.values(value).flatMap(stringsOf)
  return []
}
