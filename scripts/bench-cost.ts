/**
 * `npm run bench`'s cost table: a generate run's tokens and estimated cost per stage, as report.json counts
 * them from the usage the API (here the fake) reported, and the share of input read from the prompt cache.
 */
import { inputTokens } from '../src/model/cost.js'
import type { Report } from '../src/report/report.js'

const cell = (value: number | string, width: number) => String(value).padStart(width)
const dollars = (value: number | null) => (value === null ? '?' : `$${value.toFixed(4)}`)

export function printModelCost(report: Report): void {
  const model = report.model
  const share = model.cacheReadShare === null ? 'no input sent' : `${Math.round(100 * model.cacheReadShare)} % of input tokens`
  console.log(`Model cost of the example's generate run (${model.name}, list prices as of ${model.pricesAsOf}; cache reads ${share}):`)
  console.log(`  ${'stage'.padEnd(14)}${cell('calls', 6)}${cell('input', 9)}${cell('cache write', 13)}${cell('cache read', 12)}${cell('output', 9)}${cell('cost', 10)}`)
  const rows: Array<[string, Report['model']['stages'][string]]> = [...Object.entries(model.stages), ['total', model]]
  for (const [stage, usage] of rows) {
    console.log(`  ${stage.padEnd(14)}${cell(usage.calls, 6)}${cell(inputTokens(usage), 9)}${cell(usage.cacheWriteTokens, 13)}${cell(usage.cacheReadTokens, 12)}${cell(usage.outputTokens, 9)}${cell(dollars(usage.costUsd), 10)}`)
  }
}
