/**
 * A fake Anthropic Messages API on 127.0.0.1 for tests and the no-key demo: the real SDK talks to it via
 * `baseURL`. Replies are scripted; every request is recorded. Streaming requests get a real SSE stream.
 * Scripted 408/409/429/5xx/529 errors are retried by the SDK (up to its maxRetries), each retry consuming
 * the next scripted reply. The SDK's own back-off is 0.5s, 1s, 2s…, so error replies carry
 * `retry-after-ms: 1` to keep retrying tests fast. Usage models the API's prompt cache (./prompt-cache.ts) over
 * the requests answered so far; more than 4 `cache_control` breakpoints get the API's 400.
 */
import { mkdirSync, writeFileSync } from 'node:fs'
import { createServer, type ServerResponse } from 'node:http'
import type { AddressInfo } from 'node:net'
import { join } from 'node:path'
import { readBody } from './http.js'
import { cacheUsageOfRun, PromptCacheRequestError, type CacheUsage } from './prompt-cache.js'

export type ScriptedReply =
  | { tool_use: { name: string; input: unknown } }
  | { text: string }
  | { content: unknown[]; stop_reason: string }
  | { error: { status: number; type: string; message: string } }
  /** An `error` event in the middle of a stream (after message_start): the SDK does not retry it. */
  | { stream_error: { type: string; message: string } }
export interface RecordedRequest {
  body: any
  headers: Record<string, string | string[] | undefined>
  /** The usage the fake reported for it, as the API spells it; none: it answered with an error. */
  usage?: { input_tokens: number; output_tokens: number; cache_creation_input_tokens: number; cache_read_input_tokens: number }
}
export type Script = ScriptedReply[] | ((request: RecordedRequest, index: number) => ScriptedReply)
export interface FakeAnthropic {
  baseURL: string
  requests: RecordedRequest[]
  close(): Promise<void>
}

/**
 * With FAKE_ANTHROPIC_RECORD_DIR set, each request body is kept there as `NNNN.request.json` and its scripted
 * reply as `NNNN.response.json` (model-bridge.py's queue format), for scripts/request-cost.ts.
 */
const RECORD_DIR = process.env.FAKE_ANTHROPIC_RECORD_DIR

export async function startFakeAnthropic(script: Script): Promise<FakeAnthropic> {
  const requests: RecordedRequest[] = []
  // What the prompt cache saw: the requests answered (an error reply caches nothing).
  const answered: unknown[] = []
  // The fake's own failures (script ran out or threw) are not retried, so a test sees them exactly once.
  const nextReply = (request: RecordedRequest, index: number): ScriptedReply | string => {
    if (typeof script !== 'function') return script[index] ?? `the script ran out after ${script.length} replies`
    try {
      return script(request, index)
    } catch (error) {
      return `the script failed: ${(error as Error).message}`
    }
  }

  const server = createServer(async (req, res) => {
    // The beta client adds `?beta=true`, so match the path alone.
    const path = new URL(req.url ?? '/', 'http://fake').pathname
    if (req.method !== 'POST' || path !== '/v1/messages') return sendError(res, 404, 'not_found_error', `fake-anthropic: no route ${req.method} ${req.url}`, false)
    let body: any
    try {
      body = JSON.parse(await readBody(req))
    } catch {
      return sendError(res, 400, 'invalid_request_error', 'fake-anthropic: the request body is not JSON', false)
    }
    const request: RecordedRequest = { body, headers: req.headers }
    const index = requests.push(request) - 1
    const reply = nextReply(request, index)
    if (RECORD_DIR) record(RECORD_DIR, index, body, reply)
    if (typeof reply === 'string') return sendError(res, 500, 'api_error', `fake-anthropic: ${reply}`, false)
    if ('error' in reply) return sendError(res, reply.error.status, reply.error.type, reply.error.message, true)
    let cache: CacheUsage
    try {
      cache = cacheUsageOfRun([...answered, body]).at(-1)!
    } catch (error) {
      if (error instanceof PromptCacheRequestError) return sendError(res, 400, 'invalid_request_error', error.message, false)
      throw error
    }
    if ('stream_error' in reply) return sendStreamError(res, body, reply.stream_error, cache)
    answered.push(body)
    const message = toMessage(body, reply, cache)
    request.usage = message.usage
    if (body.stream) sendStream(res, message)
    else sendJson(res, 200, message)
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const { port } = server.address() as AddressInfo
  return {
    baseURL: `http://127.0.0.1:${port}`,
    requests,
    close: () => new Promise((resolve) => (server.closeAllConnections(), server.close(() => resolve())))
  }
}

/** The system prompt and every text and tool result of the messages, as one string. */
export function requestText(request: RecordedRequest): string {
  const texts = (content: unknown): string[] =>
    typeof content === 'string'
      ? [content]
      : Array.isArray(content)
        ? content.flatMap((block: any) => (block.type === 'text' ? [block.text] : block.type === 'tool_result' ? texts(block.content) : []))
        : []
  return [...texts(request.body.system), ...(request.body.messages ?? []).flatMap((m: any) => texts(m.content))].join('\n')
}

function record(dir: string, index: number, body: unknown, reply: ScriptedReply | string): void {
  mkdirSync(dir, { recursive: true })
  const stem = join(dir, String(index + 1).padStart(4, '0'))
  writeFileSync(`${stem}.request.json`, JSON.stringify(body, null, 1))
  if (typeof reply !== 'string') writeFileSync(`${stem}.response.json`, JSON.stringify(reply, null, 1))
}

let ids = 0
function toMessage(body: any, reply: Exclude<ScriptedReply, { error: unknown } | { stream_error: unknown }>, cache: CacheUsage) {
  const content =
    'tool_use' in reply
      ? [{ type: 'tool_use', id: `toolu_fake${++ids}`, name: reply.tool_use.name, input: reply.tool_use.input }]
      : 'text' in reply
        ? [{ type: 'text', text: reply.text }]
        : reply.content
  const stop_reason = 'tool_use' in reply ? 'tool_use' : 'text' in reply ? 'end_turn' : reply.stop_reason
  const usage = { ...cache, output_tokens: estimate(content) }
  return { id: `msg_fake${++ids}`, type: 'message', role: 'assistant', model: body.model, content, stop_reason, stop_sequence: null, usage }
}

const estimate = (value: unknown) => Math.ceil(JSON.stringify(value).length / 4)

function sendStream(res: ServerResponse, message: ReturnType<typeof toMessage>): void {
  res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' })
  const event = (type: string, data: object) => res.write(`event: ${type}\ndata: ${JSON.stringify({ type, ...data })}\n\n`)
  event('message_start', { message: { ...message, content: [], stop_reason: null, usage: { ...message.usage, output_tokens: 0 } } })
  message.content.forEach((block: any, index: number) => {
    if (block.type === 'tool_use') {
      event('content_block_start', { index, content_block: { ...block, input: {} } })
      event('content_block_delta', { index, delta: { type: 'input_json_delta', partial_json: JSON.stringify(block.input) } })
    } else if (block.type === 'text') {
      event('content_block_start', { index, content_block: { type: 'text', text: '' } })
      event('content_block_delta', { index, delta: { type: 'text_delta', text: block.text } })
    } else {
      event('content_block_start', { index, content_block: block })
    }
    event('content_block_stop', { index })
  })
  event('message_delta', { delta: { stop_reason: message.stop_reason, stop_sequence: null }, usage: { output_tokens: message.usage.output_tokens } })
  event('message_stop', {})
  res.end()
}

function sendStreamError(res: ServerResponse, body: any, error: { type: string; message: string }, cache: CacheUsage): void {
  if (!body.stream) return sendError(res, 500, error.type, error.message, false)
  res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' })
  const message = toMessage(body, { text: '' }, cache)
  res.write(`event: message_start\ndata: ${JSON.stringify({ type: 'message_start', message: { ...message, content: [], stop_reason: null } })}\n\n`)
  res.end(`event: error\ndata: ${JSON.stringify({ type: 'error', error })}\n\n`)
}

function sendJson(res: ServerResponse, status: number, body: object): void {
  res.writeHead(status, { 'content-type': 'application/json' })
  res.end(JSON.stringify(body))
}

function sendError(res: ServerResponse, status: number, type: string, message: string, retry: boolean): void {
  // Without retry-after-ms the SDK backs off 0.5s, 1s, 2s… between retries, which makes tests slow.
  if (retry) res.setHeader('retry-after-ms', '1')
  else res.setHeader('x-should-retry', 'false')
  sendJson(res, status, { type: 'error', error: { type, message } })
}
