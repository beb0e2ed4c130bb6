/** A run's usage per stage and the prompt cache's share, from the ledger the model port fills. */
import { cacheReadShare, inputTokens, usageByStage } from '../../src/model/cost.js'
import { UsageLedger } from '../../src/model/model-port.js'
import { costOfCalls } from '../../src/model/pricing.js'

const usage = (inputTokens: number, cacheWriteTokens: number, cacheReadTokens: number, outputTokens: number) => ({ inputTokens, cacheWriteTokens, cacheReadTokens, outputTokens })

/** A generate run's ledger: the write-tests stage read once (two requests), the repair answered from the response cache. */
function generateRunLedger(): UsageLedger {
  const ledger = new UsageLedger()
  ledger.record('analyse', usage(400, 3000, 0, 500), 10)
  ledger.record('scenarios', usage(300, 200, 3000, 700), 10)
  ledger.record('write-tests', usage(250, 100, 3200, 40), 10)
  ledger.record('write-tests', usage(900, 0, 3300, 1200), 10)
  ledger.recordCached('repair', 1)
  return ledger
}

test('each stage sums its own requests, in the order the stages first asked; a replayed answer is no call and no token', () => {
  const stages = usageByStage('claude-sonnet-5-5', generateRunLedger().calls)
  expect(Object.keys(stages)).toEqual(['analyse', 'scenarios', 'write-tests', 'repair'])
  expect(stages['write-tests']).toMatchObject({ calls: 2, inputTokens: 1150, cacheWriteTokens: 100, cacheReadTokens: 6500, outputTokens: 1240 })
  expect(stages.repair).toEqual({ calls: 0, inputTokens: 0, cacheWriteTokens: 0, cacheReadTokens: 0, outputTokens: 0, costUsd: 0 })
  // Sonnet 5.5: $2 input, $2.50 cache writes, $0.10 cache reads, $10 output per million.
  expect(stages.analyse.costUsd).toBe(0.0133)
  expect(stages['write-tests'].costUsd).toBe(0.0156)
})

test("the stages' tokens add up to the run's, and their costs to its cost", () => {
  const ledger = generateRunLedger()
  const stages = Object.values(usageByStage('claude-sonnet-5-5', ledger.calls))
  for (const key of ['inputTokens', 'cacheWriteTokens', 'cacheReadTokens', 'outputTokens'] as const) {
    expect(stages.reduce((sum, stage) => sum + stage[key], 0)).toBe(ledger.usage[key])
  }
  expect(stages.reduce((sum, stage) => sum + stage.calls, 0)).toBe(ledger.sentCalls)
  const total = costOfCalls('claude-sonnet-5-5', ledger.calls)!
  expect(Math.abs(stages.reduce((sum, stage) => sum + stage.costUsd!, 0) - total)).toBeLessThan(0.0001 * stages.length)
})

test('the cache-read share counts every input token however billed; none sent: no share', () => {
  const ledger = generateRunLedger()
  // 9,500 read of 1,850 uncached + 3,300 written + 9,500 read.
  expect(inputTokens(ledger.usage)).toBe(14_650)
  expect(cacheReadShare(ledger.usage)).toBe(0.648)
  const replayed = new UsageLedger()
  replayed.recordCached('analyse', 1)
  expect(cacheReadShare(replayed.usage)).toBeNull()
})

test('a model without a price here: tokens per stage, no cost', () => {
  const stages = usageByStage('my-proxy-model', generateRunLedger().calls)
  expect(stages.analyse).toMatchObject({ calls: 1, inputTokens: 400, costUsd: null })
  expect(usageByStage(null, generateRunLedger().calls).analyse.costUsd).toBeNull()
})
