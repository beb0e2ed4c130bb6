/** The real model: the Anthropic SDK, streaming (long answers), with its own retries on 429/5xx/overloaded. */
import Anthropic, { APIConnectionError, APIConnectionTimeoutError, APIError, APIUserAbortError } from '@anthropic-ai/sdk'
import { ModelCallLimitError, UserFacingError } from '../errors.js'
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
          tools: request.tools,
          // Thinking rules out a forced tool choice and any temperature but the default; the prompt asks for
          // the tool and a missing call is retried. Without thinking: temperature 0 and some tool call forced,
          // never one named tool: a tool_choice that changes between stages invalidates the cached messages
          // (the shared context), so it stays the same for the whole run and the task names the tool.
          ...(thinking
            ? { thinking: { type: 'adaptive' as const }, tool_choice: { type: 'auto' as const } }
            : { temperature: 0, tool_choice: { type: 'any' as const } })
        }, { signal: request.signal })
        .finalMessage()
        .catch((error: unknown) => {
          throw apiFailure(error, { model: settings.model, baseURL: client.baseURL, apiKey: settings.apiKey, retries: settings.maxRetries })
        })
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

interface CallSettings {
  model: string
  baseURL: string
  apiKey: string
  retries: number
}

// `user:password@` in a URL (a proxy's base URL), which fetch's own errors quote.
const URL_CREDENTIALS = /\b([a-z][\w+.-]*:\/\/)[^\s/@]*@/gi

/**
 * The SDK's errors as what went wrong and what to do about it, per kind, with the API's own message kept
 * short and the key never in it; anything else (a bug, an abort) goes on unchanged.
 */
export function apiFailure(error: unknown, call: CallSettings): unknown {
  if (!(error instanceof APIError) || error instanceof APIUserAbortError) return error
  const hide = (text: string) => (call.apiKey ? text.split(call.apiKey).join('[key]') : text).replace(URL_CREDENTIALS, '$1')
  const [message, hint] = describeApiError(error, call, hide)
  return new UserFacingError(hide(message), hint)
}

function describeApiError(error: APIError, call: CallSettings, hide: (text: string) => string): [message: string, hint: string] {
  const where = displayUrl(call.baseURL)
  if (error instanceof APIConnectionTimeoutError) return [`The Anthropic API at ${where} did not answer in time, after ${call.retries} retries`, 'check the network, or anthropic-base-url']
  if (error instanceof APIConnectionError) return [`Cannot reach the Anthropic API at ${where}${causeOf(error)}`, 'check anthropic-base-url (ANTHROPIC_BASE_URL on the command line) and the network']
  // An error event in a stream has no status, and the SDK does not retry it.
  const code = error.status === undefined ? `${error.type ?? 'error'} in the stream` : `${error.status}${error.type ? ` ${error.type}` : ''}`
  const what = `(${code})${shortMessage(hide(error.apiMessage ?? ''))}`
  const retried = error.status === undefined ? '' : `, still after ${call.retries} retries`
  switch (error.status) {
    case 401: return [`The Anthropic API did not accept the API key ${what}`, 'the key is wrong or revoked: check anthropic-api-key (ANTHROPIC_API_KEY)']
    case 403: return [`The API key may not do this ${what}`, `the key lacks access to ${call.model} or to the API: use a key of a workspace that has it`]
    case 404: return [`The model ${call.model} was not found ${what}`, `check the model name, and that ${where} serves the Messages API`]
    case 400: return [`The Anthropic API refused the request ${what}`, 'the message says why; a max-tokens above the model\'s limit is a common cause']
    case 429: return [`The Anthropic API rate limit was exceeded${retried} ${what}`, 'wait and re-run, lower max-model-calls, or raise the rate limit']
  }
  if (error.status === 529 || error.type === 'overloaded_error') return [`The Anthropic API is overloaded${retried} ${what}`, 're-run later']
  return [`The Anthropic API failed ${what}`, error.status === undefined || error.status >= 500 ? 're-run later' : '']
}

/** `: <the API's message>`, on one line, at most 200 characters (cut after the key is hidden, so no part of it shows). */
function shortMessage(apiMessage: string): string {
  const text = apiMessage.replace(/\s+/g, ' ').trim()
  return text ? `: ${text.length > 200 ? `${text.slice(0, 199)}…` : text}` : ''
}

/** The network's own reason (`connect ECONNREFUSED …`, a DNS failure), under the SDK's and fetch's wrappers. */
function causeOf(error: Error): string {
  let cause: unknown = error.cause
  while (isErrorLike(cause) && isErrorLike(cause.cause)) cause = cause.cause
  return isErrorLike(cause) && cause.message ? ` (${cause.message})` : ''
}

// Not `instanceof Error`: fetch's errors may come from another realm.
const isErrorLike = (value: unknown): value is { message: string; cause?: unknown } => typeof value === 'object' && value !== null && typeof (value as { message?: unknown }).message === 'string'

/** The base URL without credentials, query or fragment: it goes into logs. */
function displayUrl(baseURL: string): string {
  try {
    const url = new URL(baseURL)
    return `${url.protocol}//${url.host}${url.pathname.replace(/\/$/, '')}`
  } catch {
    return 'the configured base URL'
  }
}
