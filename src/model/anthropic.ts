/** The real model: the Anthropic SDK, streaming (long answers), with its own retries on 429/5xx/overloaded. */
import Anthropic from '@anthropic-ai/sdk'
import { ModelCallLimitError } from '../errors.js'
import type { ModelSettings } from '../settings.js'
import type { ModelPort, ModelReply, ModelRequest, UsageLedger } from './model-port.js'

/** Models before adaptive thinking (Claude 4.6): they get temperature 0 and a forced tool call instead. */
const WITHOUT_ADAPTIVE_THINKING = /^claude-(?:3|instant|2|(?:opus|sonnet|haiku)-4-(?:[0-5])(?:\D|$)|(?:opus|sonnet|haiku)-4(?:-\d{8})?$)/

export function supportsAdaptiveThinking(model: string): boolean {
  return !WITHOUT_ADAPTIVE_THINKING.test(model)
}

export function createAnthropicModel(settings: ModelSettings, ledger: UsageLedger): ModelPort {
  const client = new Anthropic({ apiKey: settings.apiKey, baseURL: settings.baseURL, maxRetries: settings.maxRetries })
  const thinking = supportsAdaptiveThinking(settings.model)
  return {
    async send(request: ModelRequest): Promise<ModelReply> {
      if (ledger.sentCalls >= settings.maxCalls) throw new ModelCallLimitError(settings.maxCalls, request.stage)
      const started = Date.now()
      const message = await client.messages
        .stream({
          model: settings.model,
          max_tokens: settings.maxTokens,
          system: request.system,
          messages: request.messages,
          tools: [request.tool],
          // Thinking rules out a forced tool choice and any temperature but the default; the prompt asks for
          // the tool and a missing call is retried. Without thinking: temperature 0 and the tool forced.
          ...(thinking
            ? { thinking: { type: 'adaptive' as const }, tool_choice: { type: 'auto' as const } }
            : { temperature: 0, tool_choice: { type: 'tool' as const, name: request.tool.name } })
        })
        .finalMessage()
      const usage = {
        inputTokens: message.usage.input_tokens,
        cacheWriteTokens: message.usage.cache_creation_input_tokens ?? 0,
        cacheReadTokens: message.usage.cache_read_input_tokens ?? 0,
        outputTokens: message.usage.output_tokens
      }
      ledger.record(request.stage, usage, Date.now() - started)
      return { content: message.content, stopReason: message.stop_reason, usage }
    }
  }
}
