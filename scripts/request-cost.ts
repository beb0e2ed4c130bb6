/**
 * `npx tsx scripts/request-cost.ts DIR|SHAPES.json`: what a run's recorded requests cost. DIR holds
 * `NNNN.request.json` files (model-bridge.py's queue, or the fake server's FAKE_ANTHROPIC_RECORD_DIR), in the
 * order sent; SHAPES.json is their record made by scripts/request-shapes.ts, which prices alike. Per
 * request and per stage: input, cache write and cache read tokens under the API's caching rule
 * (test/support/prompt-cache.ts) and the estimated cost at list prices; output tokens only where a
 * `NNNN.response.json` beside the request says what came back (else the cost is the input side alone).
 */
import { cacheReadShare, usageByStage } from '../src/model/cost.js'
import type { TokenUsage } from '../src/model/model-port.js'
import { costOfCalls } from '../src/model/pricing.js'
import { callsOf, readRecordedRun } from './recorded-run.js'

const path = process.argv[2]
if (!path) {
  console.error('usage: tsx scripts/request-cost.ts DIR|SHAPES.json (a folder of NNNN.request.json files, or a record of their shapes)')
  process.exit(2)
}

const run = readRecordedRun(path)
const model = run.model
const calls = callsOf(run)
// The run is one "stage" of every call: summed and priced (each request on its own) as the stages are.
const total = usageByStage(model, calls.map((call) => ({ ...call, stage: 'total' }))).total

console.log(table('Per request', calls.map((call, index) => [`${run.requests[index].name} ${call.stage}`, call, costOfCalls(model, [call])])))
console.log(table('Per stage', Object.entries(usageByStage(model, calls)).map(([stage, usage]) => [stage, usage, usage.costUsd])))
console.log(table('Run', total ? [['total', total, total.costUsd]] : []))
const inputSide = total ? total.inputTokens + total.cacheWriteTokens + total.cacheReadTokens : 0
console.log(`\nCache reads: ${percent(total ? cacheReadShare(total) : null)} of ${inputSide} input tokens over ${calls.length} request(s).`)

function table(title: string, rows: Array<[label: string, usage: TokenUsage, cost: number | null]>): string {
  const header = '| | input | cache write | cache read | output | read share | cost (USD) |\n|---|---:|---:|---:|---:|---:|---:|'
  const line = ([label, usage, cost]: [string, TokenUsage, number | null]) =>
    `| ${label} | ${usage.inputTokens} | ${usage.cacheWriteTokens} | ${usage.cacheReadTokens} | ${usage.outputTokens} | ${percent(cacheReadShare(usage))} | ${cost === null ? 'unknown model' : cost.toFixed(4)} |`
  return `\n## ${title}\n\n${header}\n${rows.map(line).join('\n')}`
}

function percent(share: number | null): string {
  return share === null ? '-' : `${Math.round(share * 100)} %`
}
