/**
 * What a run's tokens cost at Anthropic's list prices (USD per million tokens), for the report and the summary.
 * An estimate: prices change, and a proxy (anthropic-base-url) may bill differently. Unknown models get no figure.
 */
import type { TokenUsage } from './model-port.js'

/** The day the table below was checked against Anthropic's pricing page; the report names it beside every cost. */
export const PRICES_AS_OF = '2026-11-27'

interface Rates {
  input: number
  output: number
  cacheRead: number
}

interface Price extends Rates {
  /** Haiku 5.5 bills a request whose prompt (input, cache writes and reads) is longer than this at other rates, output included. */
  longPrompt?: { overTokens: number; rates: Rates }
}

/** Longest prefix first. 5-minute cache writes cost 1.25× the input price on every model. */
const PRICES: Array<[prefix: string, price: Price]> = [
  ['claude-fable-5-1', { input: 10, output: 50, cacheRead: 0.25 }],
  ['claude-mythos-5-1', { input: 10, output: 50, cacheRead: 0.25 }],
  ['claude-fable-5', { input: 10, output: 50, cacheRead: 1 }],
  ['claude-mythos-5', { input: 10, output: 50, cacheRead: 1 }],
  ['claude-opus-5-5', { input: 4, output: 20, cacheRead: 0.2 }],
  ['claude-opus-5', { input: 5, output: 25, cacheRead: 0.5 }],
  ['claude-opus-4-1', { input: 15, output: 75, cacheRead: 1.5 }],
  ['claude-opus-4-0', { input: 15, output: 75, cacheRead: 1.5 }],
  ['claude-opus-4-', { input: 5, output: 25, cacheRead: 0.5 }],
  ['claude-sonnet-5-5', { input: 2, output: 10, cacheRead: 0.1 }],
  ['claude-sonnet-5', { input: 2, output: 10, cacheRead: 0.2 }],
  ['claude-sonnet-4', { input: 3, output: 15, cacheRead: 0.3 }],
  ['claude-haiku-5-5', { input: 0.1, output: 0.5, cacheRead: 0.01, longPrompt: { overTokens: 100_000, rates: { input: 0.5, output: 2.5, cacheRead: 0.05 } } }],
  ['claude-haiku-4-5', { input: 1, output: 5, cacheRead: 0.1 }]
]

const CACHE_WRITE_FACTOR = 1.25

export function priceOf(model: string): Price | null {
  // Opus 4 (`claude-opus-4`, `claude-opus-4-20250514`) kept the old price; Opus 4.5 and later are cheaper.
  if (model === 'claude-opus-4' || /^claude-opus-4-\d{8}$/.test(model)) return { input: 15, output: 75, cacheRead: 1.5 }
  return PRICES.find(([prefix]) => model.startsWith(prefix))?.[1] ?? null
}

/** US dollars to a hundredth of a cent, or null when the model's price is not known here. */
export function estimateCostUsd(model: string, usage: TokenUsage): number | null {
  return costOfCalls(model, [usage])
}

/**
 * What these requests cost together, to a hundredth of a cent; null for a model without a price here. Each
 * request is priced on its own: a long-prompt rate applies to the request whose prompt is long.
 */
export function costOfCalls(model: string, calls: TokenUsage[]): number | null {
  const price = priceOf(model)
  if (!price) return null
  const perMillion = calls.reduce((sum, call) => sum + callPerMillion(price, call), 0)
  return Math.round(perMillion / 100) / 10_000
}

function callPerMillion(price: Price, call: TokenUsage): number {
  const prompt = call.inputTokens + call.cacheWriteTokens + call.cacheReadTokens
  const rates = price.longPrompt && prompt > price.longPrompt.overTokens ? price.longPrompt.rates : price
  return (
    call.inputTokens * rates.input +
    call.cacheWriteTokens * rates.input * CACHE_WRITE_FACTOR +
    call.cacheReadTokens * rates.cacheRead +
    call.outputTokens * rates.output
  )
}
