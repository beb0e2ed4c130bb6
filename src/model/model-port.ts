/** The model behind a small port: one request in, the assistant's content and its token usage out. */
import type Anthropic from '@anthropic-ai/sdk'

export type Message = Anthropic.MessageParam
export type ContentBlock = Anthropic.ContentBlock
export type ToolDefinition = Anthropic.Tool

export interface ModelRequest {
  stage: string
  system: string
  messages: Message[]
  tool: ToolDefinition
}

export interface ModelReply {
  content: ContentBlock[]
  stopReason: string | null
  inputTokens: number
  outputTokens: number
}

export interface ModelPort {
  send(request: ModelRequest): Promise<ModelReply>
}

export interface ModelCall {
  stage: string
  inputTokens: number
  outputTokens: number
  durationMs: number
}

/** Every call's stage and token usage, for the report. */
export class UsageLedger {
  readonly calls: ModelCall[] = []

  record(call: ModelCall): void {
    this.calls.push(call)
  }

  get inputTokens(): number {
    return this.calls.reduce((sum, call) => sum + call.inputTokens, 0)
  }

  get outputTokens(): number {
    return this.calls.reduce((sum, call) => sum + call.outputTokens, 0)
  }
}
