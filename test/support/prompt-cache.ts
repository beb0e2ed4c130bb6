/**
 * The Messages API's prompt cache, as its documentation states the rule, for the fake server and for
 * `scripts/request-cost.ts`: a pure function over a run's requests, in the order they were sent.
 *
 * - The prompt is `tools`, then `system`, then the messages' content blocks, in that order; a block marked
 *   `cache_control` is a breakpoint, and the prefix up to and including it is what the cache keeps.
 * - A prefix matches only byte for byte, under the same model; `tool_choice` and `thinking` are part of the
 *   key from the messages on (changing them keeps a tools/system cache, never a messages one).
 * - At most 4 breakpoints a request (the API answers 400 past that).
 * - A prefix shorter than the model's minimum is not cached.
 * - A hit is looked for at the breakpoint and at each block boundary up to 20 blocks before it.
 * - Tokens are estimated at 4 characters each (of each block's JSON). The 5-minute lifetime is ignored.
 */
import { createHash } from 'node:crypto'

export const MAX_BREAKPOINTS = 4
/** Block boundaries looked at for a hit, counting the breakpoint's own. */
export const LOOKBACK_BLOCKS = 20

export interface CacheUsage {
  input_tokens: number
  cache_creation_input_tokens: number
  cache_read_input_tokens: number
}

/** The request the API would refuse (400 invalid_request_error). */
export class PromptCacheRequestError extends Error {}

/** The shortest prefix (tokens) a model caches: 4096 on Opus 4.5 and later and Haiku 4.5 and later, 2048 on older Haiku, else 1024. */
export function minimumCacheableTokens(model: string): number {
  const version = /^claude-(opus|sonnet|haiku)-(\d+)(?:-(\d)(?!\d))?/.exec(model)
  if (!version) return /haiku/.test(model) ? 2048 : 1024
  const [, family, major, minor = '0'] = version
  const atLeast45 = Number(major) > 4 || (Number(major) === 4 && Number(minor) >= 5)
  if ((family === 'opus' || family === 'haiku') && atLeast45) return 4096
  return family === 'haiku' ? 2048 : 1024
}

interface Block {
  /** The prefix up to and including this block, as the cache keys it. */
  id: string
  /** Tokens of the prefix up to and including this block. */
  tokensThrough: number
  breakpoint: boolean
}

const estimateTokens = (value: unknown) => Math.ceil(JSON.stringify(value).length / 4)

/** Each request's usage, as the API would report it had the requests been sent in this order. */
export function cacheUsageOfRun(requests: unknown[]): CacheUsage[] {
  const written = new Set<string>()
  return requests.map((request) => usageOf(request, written))
}

function usageOf(request: any, written: Set<string>): CacheUsage {
  const blocks = blocksOf(request)
  const total = blocks.at(-1)?.tokensThrough ?? 0
  const breakpoints = blocks.flatMap((block, index) => (block.breakpoint ? [index] : []))
  if (breakpoints.length > MAX_BREAKPOINTS) throw new PromptCacheRequestError(`A maximum of ${MAX_BREAKPOINTS} blocks with cache_control may be provided. Found ${breakpoints.length}.`)
  const tokensBefore = (index: number) => (index < 0 ? 0 : blocks[index].tokensThrough)
  let readThrough = -1
  for (const breakpoint of breakpoints) {
    for (let index = breakpoint; index >= 0 && index > breakpoint - LOOKBACK_BLOCKS; index--) {
      if (written.has(blocks[index].id)) {
        readThrough = Math.max(readThrough, index)
        break
      }
    }
  }
  const minimum = minimumCacheableTokens(String(request.model ?? ''))
  let writtenThrough = readThrough
  for (const breakpoint of breakpoints) {
    if (breakpoint <= readThrough || blocks[breakpoint].tokensThrough < minimum) continue
    written.add(blocks[breakpoint].id)
    writtenThrough = breakpoint
  }
  const read = tokensBefore(readThrough)
  const creation = tokensBefore(writtenThrough) - read
  return { input_tokens: total - read - creation, cache_creation_input_tokens: creation, cache_read_input_tokens: read }
}

/** tools, system, then every message's content blocks, each with the id of the prefix it ends. */
function blocksOf(request: any): Block[] {
  const parts: Array<{ section: 'tools' | 'system' | 'messages'; value: unknown; breakpoint: boolean }> = []
  for (const tool of request.tools ?? []) parts.push({ section: 'tools', ...withoutBreakpoint(tool) })
  const system = request.system
  if (typeof system === 'string') parts.push({ section: 'system', value: system, breakpoint: false })
  else for (const block of system ?? []) parts.push({ section: 'system', ...withoutBreakpoint(block) })
  for (const message of request.messages ?? []) {
    const content = typeof message.content === 'string' ? [{ type: 'text', text: message.content }] : message.content
    content.forEach((block: unknown, index: number) => {
      const { value, breakpoint } = withoutBreakpoint(block)
      // The role starts each message: the same text as another role's is another prompt.
      parts.push({ section: 'messages', value: index === 0 ? { role: message.role, block: value } : value, breakpoint })
    })
  }
  const messageSettings = JSON.stringify({ tool_choice: request.tool_choice ?? null, thinking: request.thinking ?? null })
  let chain = createHash('sha256').update(String(request.model ?? '')).digest('hex')
  let tokens = 0
  return parts.map((part) => {
    chain = createHash('sha256').update(chain).update(JSON.stringify(part.value)).digest('hex')
    tokens += estimateTokens(part.value)
    const id = part.section === 'messages' ? createHash('sha256').update(chain).update(messageSettings).digest('hex') : chain
    return { id, tokensThrough: tokens, breakpoint: part.breakpoint }
  })
}

function withoutBreakpoint(block: any): { value: unknown; breakpoint: boolean } {
  if (typeof block !== 'object' || block === null || !('cache_control' in block)) return { value: block, breakpoint: false }
  const { cache_control, ...rest } = block
  return { value: rest, breakpoint: Boolean(cache_control) }
}
