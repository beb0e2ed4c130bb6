/** The one cost line: report.md (the job summary) shows it outside the folded sections, and the log ends with it. */
import { UsageLedger } from '../../src/model/model-port.js'
import { PRICES_AS_OF } from '../../src/model/pricing.js'
import { costLine } from '../../src/report/cost-line.js'
import { renderMarkdown } from '../../src/report/markdown.js'
import { emptyReport, modelUsage } from '../../src/report/report.js'

function ledgerOf(...calls: Array<[stage: string, input: number, write: number, read: number, output: number]>): UsageLedger {
  const ledger = new UsageLedger()
  for (const [stage, inputTokens, cacheWriteTokens, cacheReadTokens, outputTokens] of calls) ledger.record(stage, { inputTokens, cacheWriteTokens, cacheReadTokens, outputTokens }, 5)
  return ledger
}

const threeStages = () => ledgerOf(['analyse', 500, 3000, 0, 400], ['scenarios', 300, 100, 3000, 600], ['write-tests', 700, 0, 3100, 1500])

test('calls, the estimate with the price table’s date, and the share of input read from the prompt cache', () => {
  // (1,500 × $2 + 3,100 × $2.50 + 6,100 × $0.10 + 2,500 × $10) per million; 6,100 read of 10,700.
  expect(costLine(modelUsage('claude-sonnet-5-5', threeStages()))).toBe(`Model: 3 calls, ≈ $0.0364 at list prices (as of ${PRICES_AS_OF}), 57 % of input read from the prompt cache`)
})

test('a model without a list price here, one call, and answers replayed from the response cache', () => {
  const ledger = ledgerOf(['analyse', 1000, 0, 0, 10])
  ledger.recordCached('scenarios', 1)
  expect(costLine(modelUsage('my-proxy-model', ledger))).toBe('Model: 1 call (and 1 answered from the response cache), cost unknown for this model (no list price here), 0 % of input read from the prompt cache')
})

test('every answer replayed: nothing paid, no share; no call at all: no line', () => {
  const replayed = new UsageLedger()
  replayed.recordCached('analyse', 1)
  expect(costLine(modelUsage('claude-sonnet-5-5', replayed))).toBe(`Model: 0 calls (and 1 answered from the response cache), ≈ $0.0000 at list prices (as of ${PRICES_AS_OF})`)
  expect(costLine(modelUsage('claude-sonnet-5-5', new UsageLedger()))).toBeNull()
})

test('report.md shows the line unfolded, and each stage’s tokens and cost in the folded model section', () => {
  const report = { ...emptyReport('generate', '/repo', 'b', 'h'), verdict: 'fail-to-pass' as const, reason: null, model: modelUsage('claude-sonnet-5-5', threeStages()) }
  const markdown = renderMarkdown(report)
  const line = costLine(report.model)!
  expect(markdown.indexOf(line)).toBeGreaterThan(-1)
  expect(markdown.indexOf(line)).toBeLessThan(markdown.indexOf('<details>'))
  expect(markdown).toContain('| Stage | Calls | Input tokens | of which cache writes | of which cache reads | Output tokens | ≈ $ |')
  // analyse: 500 × $2 + 3,000 × $2.50 + 400 × $10 per million.
  expect(markdown).toContain('| analyse | 1 | 3500 | 3000 | 0 | 400 | 0.0125 |')
  expect(renderMarkdown({ ...report, model: modelUsage(null, new UsageLedger()) })).not.toContain('Model: ')
})
