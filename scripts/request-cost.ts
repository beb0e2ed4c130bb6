/**
 * `npx tsx scripts/request-cost.ts DIR`: what a run's recorded requests cost. DIR holds `NNNN.request.json`
 * files (model-bridge.py's queue, or the fake server's FAKE_ANTHROPIC_RECORD_DIR), in the order sent. Per
 * request and per stage: input, cache write and cache read tokens under the API's caching rule
 * (test/support/prompt-cache.ts) and the estimated cost at list prices; output tokens only where a
 * `NNNN.response.json` beside the request says what came back (else the cost is the input side alone).
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import { cacheReadShare, usageByStage } from '../src/model/cost.js'
import type { ModelCall, TokenUsage } from '../src/model/model-port.js'
import { costOfCalls } from '../src/model/pricing.js'
import { cacheUsageOfRun } from '../test/support/prompt-cache.js'
import { stageOf } from '../test/support/scripted-model.js'

const dir = process.argv[2]
if (!dir) {
  console.error('usage: tsx scripts/request-cost.ts DIR (a folder of NNNN.request.json files)')
  process.exit(2)
}

const names = readdirSync(dir).filter((name) => /^\d+\.request\.json$/.test(name)).sort()
const bodies = names.map((name) => JSON.parse(readFileSync(join(dir, name), 'utf8')))
const model = String(bodies[0]?.model ?? '')
const usages = cacheUsageOfRun(bodies)
const calls: ModelCall[] = names.map((name, index) => ({
  stage: stageLabel(bodies[index]),
  durationMs: 0,
  cached: false,
  inputTokens: usages[index].input_tokens,
  cacheWriteTokens: usages[index].cache_creation_input_tokens,
  cacheReadTokens: usages[index].cache_read_input_tokens,
  outputTokens: outputTokens(join(dir, name.replace('.request.json', '.response.json')))
}))
// The run is one "stage" of every call: summed and priced (each request on its own) as the stages are.
const total = usageByStage(model, calls.map((call) => ({ ...call, stage: 'total' }))).total

console.log(table('Per request', calls.map((call, index) => [`${names[index].split('.')[0]} ${call.stage}`, call, costOfCalls(model, [call])])))
console.log(table('Per stage', Object.entries(usageByStage(model, calls)).map(([stage, usage]) => [stage, usage, usage.costUsd])))
console.log(table('Run', total ? [['total', total, total.costUsd]] : []))
const inputSide = total ? total.inputTokens + total.cacheWriteTokens + total.cacheReadTokens : 0
console.log(`\nCache reads: ${percent(total ? cacheReadShare(total) : null)} of ${inputSide} input tokens over ${calls.length} request(s).`)

function stageLabel(body: unknown): string {
  try {
    return stageOf({ body, headers: {} })
  } catch {
    return 'unknown'
  }
}

/** Chars / 4 of what a response file holds; 0 when there is none. */
function outputTokens(file: string): number {
  if (!existsSync(file)) return 0
  const response = JSON.parse(readFileSync(file, 'utf8'))
  const content = response.tool_use ? [response.tool_use] : response.content ?? (response.text === undefined ? [] : [response.text])
  return Math.ceil(JSON.stringify(content).length / 4)
}

function table(title: string, rows: Array<[label: string, usage: TokenUsage, cost: number | null]>): string {
  const header = '| | input | cache write | cache read | output | read share | cost (USD) |\n|---|---:|---:|---:|---:|---:|---:|'
  const line = ([label, usage, cost]: [string, TokenUsage, number | null]) =>
    `| ${label} | ${usage.inputTokens} | ${usage.cacheWriteTokens} | ${usage.cacheReadTokens} | ${usage.outputTokens} | ${percent(cacheReadShare(usage))} | ${cost === null ? 'unknown model' : cost.toFixed(4)} |`
  return `\n## ${title}\n\n${header}\n${rows.map(line).join('\n')}`
}

function percent(share: number | null): string {
  return share === null ? '-' : `${Math.round(share * 100)} %`
}
