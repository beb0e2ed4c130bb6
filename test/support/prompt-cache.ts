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

/**
 * A request as the caching rule sees it, without its text: the settings that key its messages' cache, and each
 * block of its prompt in order as a digest of its bytes, a token estimate and whether it is a breakpoint.
 * Enough to price a run exactly as its requests are priced (scripts/request-shapes.ts records these).
 */
export interface PromptShape {
  model: string
  /** `tool_choice` and `thinking` as sent (null when absent): part of the key from the messages on. */
  toolChoice: unknown
  thinking: unknown
  blocks: PromptBlock[]
}

export interface PromptBlock {
  section: 'tools' | 'system' | 'messages'
  /** sha256 (hex) of the block's JSON; a message's first block is keyed with its role. */
  sha256: string
  /** 4 characters a token, of the same JSON. */
  tokens: number
  breakpoint: boolean
}

interface Block {
  /** The prefix up to and including this block, as the cache keys it. */
  id: string
  /** Tokens of the prefix up to and including this block. */
  tokensThrough: number
  breakpoint: boolean
}

const sha256 = (...parts: string[]) => parts.reduce((hash, part) => hash.update(part), createHash('sha256')).digest('hex')

/** Each request's usage, as the API would report it had the requests been sent in this order. */
export function cacheUsageOfRun(requests: unknown[]): CacheUsage[] {
  return cacheUsageOfShapes(requests.map(promptShape))
}

/** The same, from the requests' shapes. */
export function cacheUsageOfShapes(shapes: PromptShape[]): CacheUsage[] {
  const written = new Set<string>()
  return shapes.map((shape) => usageOf(shape, written))
}

function usageOf(shape: PromptShape, written: Set<string>): CacheUsage {
  const blocks = blocksOf(shape)
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
  const minimum = minimumCacheableTokens(shape.model)
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

/** tools, system, then every message's content blocks, each as a digest of its JSON. */
export function promptShape(request: any): PromptShape {
  const blocks: PromptBlock[] = []
  const add = (section: PromptBlock['section'], value: unknown, breakpoint: boolean) => {
    const json = JSON.stringify(value)
    blocks.push({ section, sha256: sha256(json), tokens: Math.ceil(json.length / 4), breakpoint })
  }
  for (const tool of request.tools ?? []) add('tools', ...withoutBreakpoint(tool))
  const system = request.system
  if (typeof system === 'string') add('system', system, false)
  else for (const block of system ?? []) add('system', ...withoutBreakpoint(block))
  for (const message of request.messages ?? []) {
    const content = typeof message.content === 'string' ? [{ type: 'text', text: message.content }] : message.content
    content.forEach((block: unknown, index: number) => {
      const [value, breakpoint] = withoutBreakpoint(block)
      // The role starts each message: the same text as another role's is another prompt.
      add('messages', index === 0 ? { role: message.role, block: value } : value, breakpoint)
    })
  }
  return { model: String(request.model ?? ''), toolChoice: request.tool_choice ?? null, thinking: request.thinking ?? null, blocks }
}

/** Each block with the id of the prefix it ends: a hash chain over the blocks' digests. */
function blocksOf(shape: PromptShape): Block[] {
  const messageSettings = JSON.stringify({ tool_choice: shape.toolChoice, thinking: shape.thinking })
  let chain = sha256(shape.model)
  let tokens = 0
  return shape.blocks.map((block) => {
    chain = sha256(chain, block.sha256)
    tokens += block.tokens
    const id = block.section === 'messages' ? sha256(chain, messageSettings) : chain
    return { id, tokensThrough: tokens, breakpoint: block.breakpoint }
  })
}

function withoutBreakpoint(block: any): [value: unknown, breakpoint: boolean] {
  if (typeof block !== 'object' || block === null || !('cache_control' in block)) return [block, false]
  const { cache_control, ...rest } = block
  return [rest, Boolean(cache_control)]
}
