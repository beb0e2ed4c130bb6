import { estimateCostUsd, priceOf } from '../../src/model/pricing.js'

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
