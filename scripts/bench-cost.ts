/**
 * `npm run bench`'s cost tables: a generate run's tokens and estimated cost per stage, as report.json counts
 * them from the usage the API (here the fake) reported, and the share of input read from the prompt cache;
 * and the same for the dev cases' recorded runs before and after issue 23 (bench/requests), priced from
 * their request shapes under the API's caching rule.
 */
import { existsSync, readdirSync } from 'node:fs'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { cacheReadShare, inputTokens, usageByStage, type StageUsage } from '../src/model/cost.js'
import { PRICES_AS_OF } from '../src/model/pricing.js'
import type { Report } from '../src/report/report.js'
import { callsOf, readShapes, type RecordedRun } from './recorded-run.js'

const cell = (value: number | string, width: number) => String(value).padStart(width)
const dollars = (value: number | null) => (value === null ? '?' : `$${value.toFixed(4)}`)

export function printModelCost(report: Report): void {
  const model = report.model
  const share = model.cacheReadShare === null ? 'no input sent' : `${Math.round(100 * model.cacheReadShare)} % of input tokens`
  console.log(`Model cost of the example's generate run (${model.name}, list prices as of ${model.pricesAsOf}; cache reads ${share}):`)
  console.log(`  ${'stage'.padEnd(14)}${usageHeader()}`)
  const rows: Array<[string, Report['model']['stages'][string]]> = [...Object.entries(model.stages), ['total', model]]
  for (const [stage, usage] of rows) console.log(`  ${stage.padEnd(14)}${usageRow(usage)}`)
}

function usageHeader(): string {
  return `${cell('calls', 6)}${cell('input', 9)}${cell('cache write', 13)}${cell('cache read', 12)}${cell('output', 9)}${cell('cost', 10)}`
}

function usageRow(usage: StageUsage): string {
  return `${cell(usage.calls, 6)}${cell(inputTokens(usage), 9)}${cell(usage.cacheWriteTokens, 13)}${cell(usage.cacheReadTokens, 12)}${cell(usage.outputTokens, 9)}${cell(dollars(usage.costUsd), 10)}`
}

/** Where `npm run bench` finds the dev cases' records: `<case>-before.json` and `<case>-after.json` (scripts/request-shapes.ts). */
export const RECORDED_RUNS_DIR = fileURLToPath(new URL('../bench/requests/', import.meta.url))
/** Issue 23's targets: cache reads on runs of 3+ calls, and the median run's cost at list prices. */
const READ_SHARE_TARGET = 0.6
const MEDIAN_COST_TARGET = 0.1

/** One recorded run priced: per stage and in all. */
export interface PricedRun {
  model: string
  stages: Record<string, StageUsage>
  total: StageUsage
}

export interface RecordedCase {
  name: string
  before: PricedRun
  after: PricedRun
}

/** Each case of DIR with a record from before and one from after, priced under the caching rule. */
export function recordedCases(dir: string): RecordedCase[] {
  const names = readdirSync(dir).flatMap((file) => /^(.+)-before\.json$/.exec(file)?.[1] ?? []).sort()
  return names.map((name) => {
    const after = join(dir, `${name}-after.json`)
    if (!existsSync(after)) throw new Error(`${join(dir, `${name}-before.json`)} has no ${name}-after.json beside it`)
    return { name, before: priceRun(readShapes(join(dir, `${name}-before.json`))), after: priceRun(readShapes(after)) }
  })
}

export function priceRun(run: RecordedRun): PricedRun {
  const calls = callsOf(run)
  const total = usageByStage(run.model, calls.map((call) => ({ ...call, stage: 'total' }))).total
  return { model: run.model, stages: usageByStage(run.model, calls), total }
}

/** `npm run bench`'s table of the dev cases' recorded requests: per case and stage before and after, then per run and the targets. */
export function recordedRunsCost(dir: string): string {
  const cases = recordedCases(dir)
  const models = [...new Set(cases.flatMap((one) => [one.before.model, one.after.model]))].join(', ')
  const lines = [
    `Model cost of the dev cases' recorded generate runs (${cases.length} in bench/requests; ${models}, list prices as of ${PRICES_AS_OF}; the API's caching rule; input counts every input token, cached or not):`,
    `  ${'stage'.padEnd(14)}${'run'.padEnd(7)}${usageHeader()}`
  ]
  for (const one of cases) {
    lines.push(`  ${one.name}`)
    const stages = [...new Set([...Object.keys(one.before.stages), ...Object.keys(one.after.stages)]), 'total']
    for (const stage of stages) {
      for (const side of ['before', 'after'] as const) {
        const usage = stage === 'total' ? one[side].total : one[side].stages[stage] ?? NO_CALLS
        lines.push(`  ${(side === 'before' ? `  ${stage}` : '').padEnd(14)}${side.padEnd(7)}${usageRow(usage)}`)
      }
    }
  }
  lines.push('Per run, before and after:', `  ${'case'.padEnd(14)}${cell('calls', 8)}${cell('cost before', 13)}${cell('cost after', 12)}${cell('reads before', 14)}${cell('reads after', 13)}`)
  for (const one of cases) {
    const calls = `${one.before.total.calls}/${one.after.total.calls}`
    lines.push(`  ${one.name.padEnd(14)}${cell(calls, 8)}${cell(dollars(one.before.total.costUsd), 13)}${cell(dollars(one.after.total.costUsd), 12)}${cell(percent(one.before.total), 14)}${cell(percent(one.after.total), 13)}`)
  }
  const all = (side: 'before' | 'after') => sumUsage(cases.map((one) => one[side].total))
  lines.push(`  ${'all'.padEnd(14)}${cell(`${all('before').calls}/${all('after').calls}`, 8)}${cell(dollars(all('before').costUsd), 13)}${cell(dollars(all('after').costUsd), 12)}${cell(percent(all('before')), 14)}${cell(percent(all('after')), 13)}`)
  const median = (side: 'before' | 'after') => medianOf(cases.map((one) => one[side].total.costUsd ?? Number.NaN))
  lines.push(`  ${'median'.padEnd(14)}${cell('', 8)}${cell(dollars(median('before')), 13)}${cell(dollars(median('after')), 12)}`)
  const readsMet = (side: 'before' | 'after') => {
    const runs = cases.filter((one) => one[side].total.calls >= 3)
    return `${runs.filter((one) => (cacheReadShare(one[side].total) ?? 0) >= READ_SHARE_TARGET).length} of ${runs.length}`
  }
  const costMet = (side: 'before' | 'after') => (median(side) <= MEDIAN_COST_TARGET ? 'met' : 'missed')
  lines.push(
    `Targets: cache reads >= ${100 * READ_SHARE_TARGET} % of input tokens on runs of 3+ calls: before ${readsMet('before')} runs, after ${readsMet('after')};` +
      ` median cost per run <= $${MEDIAN_COST_TARGET.toFixed(2)}: before ${dollars(median('before'))} (${costMet('before')}), after ${dollars(median('after'))} (${costMet('after')})`
  )
  return lines.join('\n')
}

export function printRecordedRunsCost(dir = RECORDED_RUNS_DIR): void {
  console.log(recordedRunsCost(dir))
}

const NO_CALLS: StageUsage = { calls: 0, inputTokens: 0, cacheWriteTokens: 0, cacheReadTokens: 0, outputTokens: 0, costUsd: 0 }

function sumUsage(usages: StageUsage[]): StageUsage {
  const sum = (key: 'calls' | 'inputTokens' | 'cacheWriteTokens' | 'cacheReadTokens' | 'outputTokens') => usages.reduce((total, usage) => total + usage[key], 0)
  const costs = usages.map((usage) => usage.costUsd)
  const costUsd = costs.includes(null) ? null : Math.round(10_000 * costs.reduce((total: number, cost) => total + (cost ?? 0), 0)) / 10_000
  return { calls: sum('calls'), inputTokens: sum('inputTokens'), cacheWriteTokens: sum('cacheWriteTokens'), cacheReadTokens: sum('cacheReadTokens'), outputTokens: sum('outputTokens'), costUsd }
}

/** The middle value; of an even count, the mean of the two middle ones. */
function medianOf(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b)
  const middle = Math.floor(sorted.length / 2)
  return sorted.length % 2 === 1 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2
}

function percent(usage: StageUsage): string {
  const share = cacheReadShare(usage)
  return share === null ? '-' : `${Math.round(100 * share)} %`
}
