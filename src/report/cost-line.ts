/** What the run's model calls cost, in one line: for the summary (report.md) and the log's closing lines. */
import type { ModelUsage } from './report.js'

/** `Model: 4 calls, ≈ $0.0123 at list prices (as of 2026-11-27), 64 % of input read from the prompt cache`; null: no call. */
export function costLine(usage: ModelUsage): string | null {
  if (usage.calls + usage.cachedCalls === 0) return null
  const calls = `${usage.calls} call${usage.calls === 1 ? '' : 's'}${usage.cachedCalls ? ` (and ${usage.cachedCalls} answered from the response cache)` : ''}`
  // The model's name is left out: it is the user's setting, and the line goes into markdown too.
  const cost = usage.costUsd === null ? 'cost unknown for this model (no list price here)' : `≈ $${usage.costUsd.toFixed(4)} at list prices (as of ${usage.pricesAsOf})`
  const share = usage.cacheReadShare === null ? null : `${Math.round(100 * usage.cacheReadShare)} % of input read from the prompt cache`
  return `Model: ${[calls, cost, share].filter(Boolean).join(', ')}`
}
