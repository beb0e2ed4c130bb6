import Anthropic from '@anthropic-ai/sdk'
import { requestText, startFakeAnthropic, type FakeAnthropic, type Script } from './fake-anthropic.js'

let fake: FakeAnthropic | undefined
afterEach(async () => {
  await fake?.close()
  fake = undefined
})

const tool = { name: 'record', description: 'Record a value.', input_schema: { type: 'object' as const, properties: { value: { type: 'number' } } } }
const params = {
  model: 'claude-test-1',
  max_tokens: 100,
  system: 'You are a test.',
  messages: [{ role: 'user' as const, content: 'Say something.' }],
  tools: [tool]
}

async function clientFor(script: Script, maxRetries = 0): Promise<Anthropic> {
  fake = await startFakeAnthropic(script)
  return new Anthropic({ apiKey: 'test', baseURL: fake.baseURL, maxRetries })
}

test('a tool_use reply comes back as a tool_use block with its input', async () => {
  const client = await clientFor([{ tool_use: { name: 'record', input: { value: 42 } } }])
  const message = await client.messages.create(params)
  expect(message).toMatchObject({ type: 'message', role: 'assistant', model: 'claude-test-1', stop_reason: 'tool_use' })
  expect(message.content).toEqual([{ type: 'tool_use', id: expect.stringMatching(/^toolu_/), name: 'record', input: { value: 42 } }])
  expect(message.usage).toMatchObject({ cache_creation_input_tokens: 0, cache_read_input_tokens: 0 })
  expect(message.usage.input_tokens).toBeGreaterThan(0)
  expect(message.usage.output_tokens).toBeGreaterThan(0)
})

test('a text reply ends the turn with one text block', async () => {
  const client = await clientFor([{ text: 'hello' }])
  const message = await client.messages.create(params)
  expect(message.stop_reason).toBe('end_turn')
  expect(message.content).toEqual([{ type: 'text', text: 'hello' }])
})

test('overloaded errors are retried by the SDK, quickly', async () => {
  const overloaded = { error: { status: 529, type: 'overloaded_error', message: 'Overloaded' } }
  const client = await clientFor([overloaded, overloaded, { text: 'at last' }], 2)
  const started = Date.now()
  const message = await client.messages.create(params)
  expect(message.content).toEqual([{ type: 'text', text: 'at last' }])
  expect(fake!.requests).toHaveLength(3)
  // retry-after-ms: 1 overrides the SDK's 0.5s + 1s default back-off.
  expect(Date.now() - started).toBeLessThan(1000)
})

test('a 400 error surfaces as the SDK BadRequestError with the scripted message', async () => {
  const client = await clientFor([{ error: { status: 400, type: 'invalid_request_error', message: 'bad tool' } }], 2)
  const error = await client.messages.create(params).catch((e: unknown) => e)
  expect(error).toBeInstanceOf(Anthropic.BadRequestError)
  expect((error as InstanceType<typeof Anthropic.BadRequestError>).error).toEqual({ type: 'error', error: { type: 'invalid_request_error', message: 'bad tool' } })
  expect(fake!.requests).toHaveLength(1)
})

test('streaming yields the tool_use block through finalMessage()', async () => {
  const client = await clientFor([{ content: [{ type: 'text', text: 'thinking aloud' }, { type: 'tool_use', id: 'toolu_x', name: 'record', input: { value: [1, 2] } }], stop_reason: 'tool_use' }])
  const stream = client.messages.stream(params)
  const events: string[] = []
  stream.on('streamEvent', (event) => events.push(event.type))
  const message = await stream.finalMessage()
  expect(message.stop_reason).toBe('tool_use')
  expect(message.content).toEqual([
    { type: 'text', text: 'thinking aloud' },
    { type: 'tool_use', id: 'toolu_x', name: 'record', input: { value: [1, 2] } }
  ])
  expect(events[0]).toBe('message_start')
  expect(events.slice(-2)).toEqual(['message_delta', 'message_stop'])
  expect(fake!.requests[0].body.stream).toBe(true)
})

test('a used-up script answers 500 once, without SDK retries, and records the request', async () => {
  const client = await clientFor([{ text: 'only one' }], 2)
  await client.messages.create(params)
  const error = await client.messages.create(params).catch((e: unknown) => e)
  expect(error).toBeInstanceOf(Anthropic.InternalServerError)
  expect(String((error as Error).message)).toMatch(/script ran out after 1 replies/)
  expect(fake!.requests).toHaveLength(2)
})

test('a throwing script function answers 500 with its message', async () => {
  const client = await clientFor(() => {
    throw new Error('unknown prompt')
  })
  await expect(client.messages.create(params)).rejects.toThrow(/the script failed: unknown prompt/)
})

test('the recorded request has what was sent, and requestText flattens the prompt', async () => {
  const client = await clientFor((_request, index) => ({ text: `reply ${index}` }))
  await client.messages.create({
    ...params,
    messages: [
      { role: 'user', content: [{ type: 'text', text: 'first question' }] },
      { role: 'assistant', content: [{ type: 'tool_use', id: 'toolu_1', name: 'record', input: {} }] },
      { role: 'user', content: [{ type: 'tool_result', tool_use_id: 'toolu_1', content: 'tool said no', is_error: true }] }
    ]
  })
  const [request] = fake!.requests
  expect(request.body).toMatchObject({ model: 'claude-test-1', system: 'You are a test.', tools: [tool] })
  // SDK 1.x sends the API key as a bearer token, not x-api-key.
  expect(request.headers.authorization).toBe('Bearer test')
  expect(requestText(request).split('\n')).toEqual(['You are a test.', 'first question', 'tool said no'])
})

test('other paths get a 404 error', async () => {
  fake = await startFakeAnthropic([])
  const response = await fetch(`${fake.baseURL}/v1/models`)
  expect(response.status).toBe(404)
  expect(await response.json()).toMatchObject({ type: 'error', error: { type: 'not_found_error' } })
  expect(fake.requests).toHaveLength(0)
})

describe('the prompt cache, as the API keeps it (prompt-cache.ts)', () => {
  const context = { type: 'text' as const, text: `The shared context. ${'x'.repeat(8000)}`, cache_control: { type: 'ephemeral' as const } }
  const ask = (task: string) => ({ ...params, model: 'claude-sonnet-5-5', messages: [{ role: 'user' as const, content: [context, { type: 'text' as const, text: task }] }] })

  test('a second request with the same prefix reads it; the usage adds up to the request', async () => {
    const client = await clientFor([{ text: 'one' }, { text: 'two' }])
    const first = await client.messages.create(ask('first task'))
    const second = await client.messages.stream(ask('second task')).finalMessage()
    expect(first.usage.cache_read_input_tokens).toBe(0)
    expect(first.usage.cache_creation_input_tokens).toBeGreaterThan(1024)
    expect(second.usage.cache_read_input_tokens).toBe(first.usage.cache_creation_input_tokens)
    expect(second.usage.cache_creation_input_tokens).toBe(0)
    expect(second.usage.input_tokens).toBeGreaterThan(0)
  })

  test('more than 4 cache_control breakpoints: a 400, as the API answers', async () => {
    const client = await clientFor([{ text: 'never' }], 2)
    const blocks = Array.from({ length: 5 }, (_, index) => ({ ...context, text: `part ${index}` }))
    const error = await client.messages.create({ ...params, messages: [{ role: 'user', content: blocks }] }).catch((e: unknown) => e)
    expect(error).toBeInstanceOf(Anthropic.BadRequestError)
    expect((error as Error).message).toMatch(/A maximum of 4 blocks with cache_control/)
    expect(fake!.requests).toHaveLength(1)
  })
})
