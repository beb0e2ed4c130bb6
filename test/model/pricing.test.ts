import { costOfCalls, estimateCostUsd, priceOf, PRICES_AS_OF } from '../../src/model/pricing.js'

const usage = { inputTokens: 1_000_000, cacheWriteTokens: 0, cacheReadTokens: 0, outputTokens: 0 }

test('each kind of token is billed at its own price', () => {
  expect(estimateCostUsd('claude-sonnet-5-5', usage)).toBe(2)
  expect(estimateCostUsd('claude-sonnet-5-5', { ...usage, inputTokens: 0, outputTokens: 1_000_000 })).toBe(10)
  expect(estimateCostUsd('claude-sonnet-5-5', { ...usage, inputTokens: 0, cacheWriteTokens: 1_000_000 })).toBe(2.5)
  expect(estimateCostUsd('claude-sonnet-5-5', { ...usage, inputTokens: 0, cacheReadTokens: 1_000_000 })).toBe(0.1)
  expect(estimateCostUsd('claude-sonnet-5-5', { inputTokens: 1234, cacheWriteTokens: 0, cacheReadTokens: 0, outputTokens: 567 })).toBe(0.0081)
})

test('the model family decides the price; dated ids and old Opus 4 included; unknown models get none', () => {
  expect(priceOf('claude-sonnet-4-5-20250929')?.input).toBe(3)
  expect(priceOf('claude-opus-5-5')?.input).toBe(4)
  expect(priceOf('claude-opus-5')?.input).toBe(5)
  expect(priceOf('claude-opus-4-7')?.input).toBe(5)
  expect(priceOf('claude-opus-4-1')?.input).toBe(15)
  expect(priceOf('claude-opus-4-20250514')?.input).toBe(15)
  expect(priceOf('claude-haiku-4-5-20251001')?.output).toBe(5)
  expect(estimateCostUsd('my-proxy-model', usage)).toBeNull()
})

test('Opus 4 by its alias `claude-opus-4-0` keeps the old price', () => {
  expect(priceOf('claude-opus-4-0')?.input).toBe(15)
})

test('Haiku 5.5 bills a request whose prompt passes 100,000 tokens at its long-prompt rates, output included; each request on its own', () => {
  const short = { inputTokens: 60_000, cacheWriteTokens: 20_000, cacheReadTokens: 20_000, outputTokens: 1_000 }
  const long = { ...short, cacheReadTokens: 20_001 }
  // 60k × $0.10 + 20k × $0.125 + 20k × $0.01 + 1k × $0.50, per million
  expect(estimateCostUsd('claude-haiku-5-5', short)).toBe(0.0092)
  // 60k × $0.50 + 20k × $0.625 + 20,001 × $0.05 + 1k × $2.50, per million
  expect(estimateCostUsd('claude-haiku-5-5', long)).toBe(0.046)
  // Two short requests stay at the short rates, though their prompts add up past the threshold.
  expect(costOfCalls('claude-haiku-5-5', [short, short])).toBe(0.0184)
  expect(costOfCalls('claude-haiku-5-5', [short, long])).toBe(0.0552)
})

test('the price table says the day it was checked', () => {
  expect(PRICES_AS_OF).toMatch(/^\d{4}-\d{2}-\d{2}$/)
  expect(Number.isNaN(Date.parse(PRICES_AS_OF))).toBe(false)
})
