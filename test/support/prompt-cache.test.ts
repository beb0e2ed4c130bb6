import { cacheUsageOfRun, minimumCacheableTokens, PromptCacheRequestError } from './prompt-cache.js'

// Each block well over the minimum on its own, so what is cached depends only on the rule under test.
const big = (label: string, chars = 8000) => `${label} ${'x'.repeat(chars)}`
const tool = (name: string) => ({ name, description: big(name, 2000), input_schema: { type: 'object' } })
const cached = (text: string) => ({ type: 'text', text, cache_control: { type: 'ephemeral' } })
const plain = (text: string) => ({ type: 'text', text })
const request = (content: object[], extra: object = {}) => ({
  model: 'claude-sonnet-5-5',
  tools: [tool('answer_a'), tool('answer_b')],
  system: 'system text',
  messages: [{ role: 'user', content }],
  ...extra
})
const total = (usage: { input_tokens: number; cache_creation_input_tokens: number; cache_read_input_tokens: number }) =>
  usage.input_tokens + usage.cache_creation_input_tokens + usage.cache_read_input_tokens

test('the same prefix up to a breakpoint is written by the first request and read by the next; the rest is input', () => {
  const context = cached(big('context'))
  const [first, second] = cacheUsageOfRun([request([context, plain('task one')]), request([context, plain('task two, longer')])])
  expect(first.cache_read_input_tokens).toBe(0)
  expect(first.cache_creation_input_tokens).toBeGreaterThan(2000)
  expect(second).toEqual({ cache_read_input_tokens: first.cache_creation_input_tokens, cache_creation_input_tokens: 0, input_tokens: expect.any(Number) })
  expect(second.input_tokens).toBeLessThan(20)
  expect(total(second) - total(first)).toBe(Math.ceil(JSON.stringify(plain('task two, longer')).length / 4) - Math.ceil(JSON.stringify(plain('task one')).length / 4))
})

test('one byte before the breakpoint differs (another tool first, another system text): a miss, written again', () => {
  const context = cached(big('context'))
  const base = request([context, plain('task')])
  const [, otherTools, otherSystem] = cacheUsageOfRun([base, { ...base, tools: [tool('answer_b'), tool('answer_a')] }, { ...base, system: 'system text.' }])
  for (const usage of [otherTools, otherSystem]) {
    expect(usage.cache_read_input_tokens).toBe(0)
    expect(usage.cache_creation_input_tokens).toBeGreaterThan(2000)
  }
})

test('tool_choice and thinking key the messages, not the tools and system', () => {
  const context = cached(big('context'))
  const system = [{ type: 'text', text: big('system'), cache_control: { type: 'ephemeral' } }]
  const forced = (name: string) => request([context, plain('task')], { system, tool_choice: { type: 'tool', name } })
  const [first, otherChoice, sameChoice] = cacheUsageOfRun([forced('answer_a'), forced('answer_b'), forced('answer_b')])
  const toolsAndSystem = first.cache_creation_input_tokens - otherChoice.cache_creation_input_tokens
  expect(otherChoice.cache_read_input_tokens).toBe(toolsAndSystem)
  expect(otherChoice.cache_creation_input_tokens).toBeGreaterThan(2000)
  expect(sameChoice.cache_read_input_tokens).toBe(first.cache_creation_input_tokens)
  const [, thinking] = cacheUsageOfRun([request([context]), request([context], { thinking: { type: 'adaptive' } })])
  expect(thinking.cache_read_input_tokens).toBe(0)
})

test('a prefix under the model\'s minimum is not cached', () => {
  const small = { model: 'claude-sonnet-5-5', system: 'short', messages: [{ role: 'user', content: [cached('a short context'), plain('task')] }] }
  expect(cacheUsageOfRun([small, small]).map((usage) => usage.cache_read_input_tokens + usage.cache_creation_input_tokens)).toEqual([0, 0])
  // About 1,500 tokens: cached on Sonnet (1024), not on Haiku 4.5 (4096).
  const medium = (model: string) => ({ model, messages: [{ role: 'user', content: [cached('y'.repeat(6000)), plain('task')] }] })
  expect(cacheUsageOfRun([medium('claude-sonnet-4-5'), medium('claude-sonnet-4-5')])[1].cache_read_input_tokens).toBeGreaterThan(1024)
  expect(cacheUsageOfRun([medium('claude-haiku-4-5'), medium('claude-haiku-4-5')])[1].cache_read_input_tokens).toBe(0)
})

test('minimum cacheable lengths per model, as documented', () => {
  expect(minimumCacheableTokens('claude-sonnet-4-5')).toBe(1024)
  expect(minimumCacheableTokens('claude-sonnet-5-5')).toBe(1024)
  expect(minimumCacheableTokens('claude-opus-4-1')).toBe(1024)
  expect(minimumCacheableTokens('claude-opus-4-20250514')).toBe(1024)
  expect(minimumCacheableTokens('claude-opus-4-5')).toBe(4096)
  expect(minimumCacheableTokens('claude-opus-5')).toBe(4096)
  expect(minimumCacheableTokens('claude-haiku-4-5-20251001')).toBe(4096)
  expect(minimumCacheableTokens('claude-3-5-haiku-20241022')).toBe(2048)
})

test('a hit is found at an earlier block boundary up to 20 blocks before the breakpoint, not further', () => {
  const context = cached(big('context'))
  const blocks = (count: number) => Array.from({ length: count }, (_, index) => plain(`block ${index}`))
  // The context unmarked here: only the last block is a breakpoint.
  const grown = (count: number) => request([plain(context.text), ...blocks(count).slice(0, -1), { ...blocks(count).at(-1)!, cache_control: { type: 'ephemeral' } }])
  const [first, near] = cacheUsageOfRun([request([context]), grown(19)])
  expect(near.cache_read_input_tokens).toBe(first.cache_creation_input_tokens)
  const [, far] = cacheUsageOfRun([request([context]), grown(20)])
  expect(far.cache_read_input_tokens).toBe(0)
})

test('a later breakpoint writes only what follows the part read', () => {
  const context = cached(big('context'))
  const earlier = cached(big('earlier work'))
  const [first, second, third] = cacheUsageOfRun([request([context, plain('a')]), request([context, earlier, plain('b')]), request([context, earlier, plain('c')])])
  expect(second.cache_read_input_tokens).toBe(first.cache_creation_input_tokens)
  expect(second.cache_creation_input_tokens).toBe(Math.ceil(JSON.stringify(plain(earlier.text)).length / 4))
  expect(third.cache_read_input_tokens).toBe(second.cache_read_input_tokens + second.cache_creation_input_tokens)
})

test('more than 4 breakpoints: the request is refused, as the API does', () => {
  expect(() => cacheUsageOfRun([request(Array.from({ length: 5 }, (_, index) => cached(`part ${index}`)))])).toThrow(PromptCacheRequestError)
  expect(() => cacheUsageOfRun([request(Array.from({ length: 4 }, (_, index) => cached(`part ${index}`)))])).not.toThrow()
})
