/** The model behind a small port: one request in, the assistant's content and its token usage out. */
import type Anthropic from '@anthropic-ai/sdk'
import type { Logger } from '../ports/logger.js'
import { withProgress } from '../ports/progress.js'

export type Message = Anthropic.MessageParam
export type ContentBlock = Anthropic.ContentBlock
export type ToolDefinition = Anthropic.Tool

export interface ModelRequest {
  stage: string
  system: string
  messages: Message[]
  /**
   * Every tool of the run, the same array in every request (the prompt cache's prefix starts here): all the
   * stages' answer tools, then the read-only tools when the model may read the repository. The stage's
   * task names its answer tool.
   */
  tools: ToolDefinition[]
  /** Ends the call when aborted (at the run's deadline), so no request outlives the run. */
  signal?: AbortSignal
}

export interface ModelReply {
  content: ContentBlock[]
  stopReason: string | null
  usage: TokenUsage
}

/** Tokens of one call, split the way they are billed. */
export interface TokenUsage {
  inputTokens: number
  cacheWriteTokens: number
  cacheReadTokens: number
  outputTokens: number
}

export interface ModelPort {
  send(request: ModelRequest): Promise<ModelReply>
}

/** Each request says it started, and that it is still running while it lasts: an answer can take minutes. */
export function withCallProgress(model: ModelPort, log: Logger): ModelPort {
  return { send: (request) => withProgress(log, `Asking the model: ${request.stage}`, () => model.send(request)) }
}

export interface ModelCall extends TokenUsage {
  stage: string
  durationMs: number
  /** Answered from the response cache: no request was sent, no token paid. */
  cached: boolean
}

/** A read the model asked for (a file, a search, a folder): for the log and the report. */
export interface ModelRead {
  stage: string
  tool: string
  /** What was read, in a line: `src/a.js lines 1-120 of 340 at head`. */
  summary: string
  /** Refused or failed: the model was told why. */
  isError: boolean
  /** Characters sent back to the model. */
  chars: number
}

const NO_TOKENS: TokenUsage = { inputTokens: 0, cacheWriteTokens: 0, cacheReadTokens: 0, outputTokens: 0 }

/** Every call's stage and token usage, for the report. */
export class UsageLedger {
  readonly calls: ModelCall[] = []
  readonly reads: ModelRead[] = []

  recordRead(read: ModelRead): void {
    this.reads.push(read)
  }

  record(stage: string, usage: TokenUsage, durationMs: number): void {
    this.calls.push({ stage, ...usage, durationMs, cached: false })
  }

  recordCached(stage: string, durationMs: number): void {
    this.calls.push({ stage, ...NO_TOKENS, durationMs, cached: true })
  }

  /** Requests actually sent to the API (the max-model-calls budget counts these). */
  get sentCalls(): number {
    return this.calls.filter((call) => !call.cached).length
  }

  get cachedCalls(): number {
    return this.calls.length - this.sentCalls
  }

  get usage(): TokenUsage {
    const total = { ...NO_TOKENS }
    for (const call of this.calls) for (const key of Object.keys(total) as Array<keyof TokenUsage>) total[key] += call[key]
    return total
  }
}
