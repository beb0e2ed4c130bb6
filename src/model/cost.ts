/** A run's model usage per stage, priced, and how much of its input the prompt cache served. */
import type { ModelCall, TokenUsage } from './model-port.js'
import { costOfCalls } from './pricing.js'

/** One stage's requests summed (a stage with reads makes several). */
export interface StageUsage extends TokenUsage {
  /** Requests sent to the API; answers replayed from the response cache are not counted and cost nothing. */
  calls: number
  /** At list prices; null without a model or with one whose price is unknown. */
  costUsd: number | null
}

/** All input tokens, however billed. */
export const inputTokens = (usage: TokenUsage) => usage.inputTokens + usage.cacheWriteTokens + usage.cacheReadTokens

/** Each stage's calls and tokens, in the order the stages first asked. */
export function usageByStage(model: string | null, calls: ModelCall[]): Record<string, StageUsage> {
  const stages: Record<string, StageUsage> = {}
  for (const stage of new Set(calls.map((call) => call.stage))) {
    const own = calls.filter((call) => call.stage === stage)
    const sum = (key: keyof TokenUsage) => own.reduce((total, call) => total + call[key], 0)
    stages[stage] = {
      calls: own.filter((call) => !call.cached).length,
      inputTokens: sum('inputTokens'),
      cacheWriteTokens: sum('cacheWriteTokens'),
      cacheReadTokens: sum('cacheReadTokens'),
      outputTokens: sum('outputTokens'),
      costUsd: model ? costOfCalls(model, own) : null
    }
  }
  return stages
}

/** Cache reads as a share of all input tokens (uncached, written to the cache, read from it), to 0.1 %; null: no input. */
export function cacheReadShare(usage: TokenUsage): number | null {
  const all = inputTokens(usage)
  return all === 0 ? null : Math.round((1000 * usage.cacheReadTokens) / all) / 1000
}
