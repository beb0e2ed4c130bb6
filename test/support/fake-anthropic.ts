/**
 * A fake Anthropic Messages API on 127.0.0.1 for tests and the no-key demo: the real SDK talks to it via
 * `baseURL`. Replies are scripted; every request is recorded. Streaming requests get a real SSE stream.
 * Error replies of 429/5xx/529 are retried by the SDK (its maxRetries), with its usual short back-off.
 */
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http'
import type { AddressInfo } from 'node:net'

export type ScriptedReply =
  | { tool_use: { name: string; input: unknown } }
  | { text: string }
  | { content: unknown[]; stop_reason: string }
  | { error: { status: number; type: string; message: string } }
export interface RecordedRequest {
  body: any
  headers: Record<string, string | string[] | undefined>
}
export type Script = ScriptedReply[] | ((request: RecordedRequest, index: number) => ScriptedReply)
export interface FakeAnthropic {
  baseURL: string
  requests: RecordedRequest[]
  close(): Promise<void>
}

export async function startFakeAnthropic(script: Script): Promise<FakeAnthropic> {
  const requests: RecordedRequest[] = []
  const nextReply = (request: RecordedRequest, index: number): ScriptedReply =>
    typeof script === 'function'
      ? script(request, index)
      : (script[index] ?? { error: { status: 500, type: 'api_error', message: `fake-anthropic: the script ran out after ${script.length} replies` } })

  const server = createServer(async (req, res) => {
    if (req.method !== 'POST' || !req.url?.startsWith('/v1/messages')) return sendError(res, 404, 'not_found_error', `no route ${req.method} ${req.url}`)
    const request = { body: JSON.parse(await readBody(req)), headers: req.headers }
    const index = requests.push(request) - 1
    let reply: ScriptedReply
    try {
      reply = nextReply(request, index)
    } catch (error) {
      reply = { error: { status: 500, type: 'api_error', message: `fake-anthropic script failed: ${(error as Error).message}` } }
    }
    if ('error' in reply) return sendError(res, reply.error.status, reply.error.type, reply.error.message)
    const message = toMessage(request.body, reply)
    if (request.body.stream) sendStream(res, message)
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

let ids = 0
function toMessage(body: any, reply: Exclude<ScriptedReply, { error: unknown }>) {
  const content =
    'tool_use' in reply
      ? [{ type: 'tool_use', id: `toolu_fake${++ids}`, name: reply.tool_use.name, input: reply.tool_use.input }]
      : 'text' in reply
        ? [{ type: 'text', text: reply.text }]
        : reply.content
  const stop_reason = 'tool_use' in reply ? 'tool_use' : 'text' in reply ? 'end_turn' : reply.stop_reason
  const usage = { input_tokens: estimate(body), output_tokens: estimate(content), cache_creation_input_tokens: 0, cache_read_input_tokens: 0 }
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

function sendJson(res: ServerResponse, status: number, body: object): void {
  res.writeHead(status, { 'content-type': 'application/json' })
  res.end(JSON.stringify(body))
}

function sendError(res: ServerResponse, status: number, type: string, message: string): void {
  // x-should-retry: false keeps the SDK from retrying the 500 we send when a script runs out.
  if (type === 'api_error' && message.startsWith('fake-anthropic')) res.setHeader('x-should-retry', 'false')
  sendJson(res, status, { type: 'error', error: { type, message } })
}

async function readBody(req: IncomingMessage): Promise<string> {
  const chunks: Buffer[] = []
  for await (const chunk of req) chunks.push(chunk as Buffer)
  return Buffer.concat(chunks).toString('utf8')
}
