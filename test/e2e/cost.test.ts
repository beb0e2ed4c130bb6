/**
 * What a run cost, end to end: the bundled CLI's generate run against the fake API, whose report.json model
 * block must be the usage the API reported, call by call and stage by stage, priced at the list price; the
 * log and report.md say it in one line.
 */
import { costOfCalls, PRICES_AS_OF } from '../../src/model/pricing.js'
import type { TokenUsage } from '../../src/model/model-port.js'
import { DEFAULT_MODEL } from '../../src/settings.js'
import type { RecordedRequest } from '../support/fake-anthropic.js'
import { runBundledCliOnFixture } from '../support/cli-run.js'
import { stageOf } from '../support/scripted-model.js'

const tokensOf = (request: RecordedRequest): TokenUsage => ({
  inputTokens: request.usage!.input_tokens,
  cacheWriteTokens: request.usage!.cache_creation_input_tokens,
  cacheReadTokens: request.usage!.cache_read_input_tokens,
  outputTokens: request.usage!.output_tokens
})

const sum = (usages: TokenUsage[]): TokenUsage => ({
  inputTokens: usages.reduce((total, usage) => total + usage.inputTokens, 0),
  cacheWriteTokens: usages.reduce((total, usage) => total + usage.cacheWriteTokens, 0),
  cacheReadTokens: usages.reduce((total, usage) => total + usage.cacheReadTokens, 0),
  outputTokens: usages.reduce((total, usage) => total + usage.outputTokens, 0)
})

test("report.json's model block is the usage the API reported, per call and per stage, priced; the log and report.md carry the cost line", async () => {
  const run = await runBundledCliOnFixture('retry-budget', { generate: true })
  try {
    expect(run.report.verdict).toBe('fail-to-pass')
    const answered = run.model!.requests.filter((request) => request.usage)
    expect(answered.length).toBeGreaterThanOrEqual(3)
    const model = run.report.model
    expect(model.perCall.map(({ stage, inputTokens, cacheWriteTokens, cacheReadTokens, outputTokens }) => ({ stage, inputTokens, cacheWriteTokens, cacheReadTokens, outputTokens }))).toEqual(
      answered.map((request) => ({ stage: stageOf(request), ...tokensOf(request) }))
    )

    const byStage = new Map<string, TokenUsage[]>()
    for (const request of answered) byStage.set(stageOf(request), [...(byStage.get(stageOf(request)) ?? []), tokensOf(request)])
    expect(model.stages).toEqual(
      Object.fromEntries([...byStage].map(([stage, usages]) => [stage, { calls: usages.length, ...sum(usages), costUsd: costOfCalls(DEFAULT_MODEL, usages) }]))
    )

    const total = sum(answered.map(tokensOf))
    const cost = costOfCalls(DEFAULT_MODEL, answered.map(tokensOf))!
    const share = Math.round((1000 * total.cacheReadTokens) / (total.inputTokens + total.cacheWriteTokens + total.cacheReadTokens)) / 1000
    expect(model).toMatchObject({ name: DEFAULT_MODEL, calls: answered.length, cachedCalls: 0, ...total, costUsd: cost, pricesAsOf: PRICES_AS_OF, cacheReadShare: share })
    expect(cost).toBeGreaterThan(0)

    const line = `Model: ${answered.length} calls, ≈ $${cost.toFixed(4)} at list prices (as of ${PRICES_AS_OF}), ${Math.round(100 * share)} % of input read from the prompt cache`
    expect(run.log.filter((entry) => entry.endsWith(line))).toHaveLength(1)
    expect(run.markdown).toContain(`\n\n${line}\n\n`)
  } finally {
    await run.repo.cleanup()
  }
})
