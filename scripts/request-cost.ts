/**
 * `npx tsx scripts/request-cost.ts DIR`: what a run's recorded requests cost. DIR holds `NNNN.request.json`
 * files (model-bridge.py's queue, or the fake server's FAKE_ANTHROPIC_RECORD_DIR), in the order sent. Per
 * request and per stage: input, cache write and cache read tokens under the API's caching rule
 * (test/support/prompt-cache.ts) and the estimated cost at list prices; output tokens only where a
 * `NNNN.response.json` beside the request says what came back (else the cost is the input side alone).
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import type { TokenUsage } from '../src/model/model-port.js'
import { estimateCostUsd } from '../src/model/pricing.js'
import { cacheUsageOfRun } from '../test/support/prompt-cache.js'
import { stageOf } from '../test/support/scripted-model.js'

interface Priced extends TokenUsage {
  label: string
  model: string
}

const dir = process.argv[2]
if (!dir) {
  console.error('usage: tsx scripts/request-cost.ts DIR (a folder of NNNN.request.json files)')
  process.exit(2)
}

const names = readdirSync(dir).filter((name) => /^\d+\.request\.json$/.test(name)).sort()
const bodies = names.map((name) => JSON.parse(readFileSync(join(dir, name), 'utf8')))
const usages = cacheUsageOfRun(bodies)
const calls: Priced[] = names.map((name, index) => ({
  label: `${name.split('.')[0]} ${stageLabel(bodies[index])}`,
  model: String(bodies[index].model),
  inputTokens: usages[index].input_tokens,
  cacheWriteTokens: usages[index].cache_creation_input_tokens,
  cacheReadTokens: usages[index].cache_read_input_tokens,
  outputTokens: outputTokens(join(dir, name.replace('.request.json', '.response.json')))
}))

const byStage = new Map<string, Priced>()
for (const call of calls) {
  const stage = call.label.split(' ')[1]
  byStage.set(stage, sum(stage, call.model, [byStage.get(stage), call]))
}

console.log(table('Per request', calls))
console.log(table('Per stage', [...byStage.values()]))
const total = sum('total', calls[0]?.model ?? '', calls)
console.log(table('Run', [total]))
const inputSide = total.inputTokens + total.cacheWriteTokens + total.cacheReadTokens
console.log(`\nCache reads: ${percent(total.cacheReadTokens, inputSide)} of ${inputSide} input tokens over ${calls.length} request(s).`)

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

function sum(label: string, model: string, parts: Array<TokenUsage | undefined>): Priced {
  const total: Priced = { label, model, inputTokens: 0, cacheWriteTokens: 0, cacheReadTokens: 0, outputTokens: 0 }
  for (const part of parts) {
    if (!part) continue
    total.inputTokens += part.inputTokens
    total.cacheWriteTokens += part.cacheWriteTokens
    total.cacheReadTokens += part.cacheReadTokens
    total.outputTokens += part.outputTokens
  }
  return total
}

function table(title: string, rows: Priced[]): string {
  const header = '| | input | cache write | cache read | output | read share | cost (USD) |\n|---|---:|---:|---:|---:|---:|---:|'
  const line = (row: Priced) => {
    const cost = estimateCostUsd(row.model, row)
    const inputSide = row.inputTokens + row.cacheWriteTokens + row.cacheReadTokens
    return `| ${row.label} | ${row.inputTokens} | ${row.cacheWriteTokens} | ${row.cacheReadTokens} | ${row.outputTokens} | ${percent(row.cacheReadTokens, inputSide)} | ${cost === null ? 'unknown model' : cost.toFixed(4)} |`
  }
  return `\n## ${title}\n\n${header}\n${rows.map(line).join('\n')}`
}

function percent(part: number, whole: number): string {
  return whole === 0 ? '-' : `${Math.round((part / whole) * 100)} %`
}
