import { ModelOutputError, UserFacingError } from '../../src/errors.js'
import { createAnthropicModel, supportsAdaptiveThinking } from '../../src/model/anthropic.js'
import { askForTool } from '../../src/model/ask.js'
import { UsageLedger } from '../../src/model/model-port.js'
import { SCENARIOS_TOOL, TEST_FILES_TOOL } from '../../src/model/tools.js'
import { requestText, startFakeAnthropic, type FakeAnthropic, type Script } from '../support/fake-anthropic.js'

let fake: FakeAnthropic | undefined
afterEach(async () => fake?.close())

async function modelWith(script: Script, model = 'claude-sonnet-5-5') {
  fake = await startFakeAnthropic(script)
  const ledger = new UsageLedger()
  return { model: createAnthropicModel({ apiKey: 'test-key', model, maxTokens: 1000, baseURL: fake.baseURL, maxRetries: 2, maxCalls: 10, toolRounds: 0, responseCacheDir: null }, ledger), ledger, fake }
}

const files = { files: [{ path: 'test/regression/a.test.ts', content: "test('a', () => {})", tests: [{ title: 'a', scenario: 'a' }] }] }
const ask = { stage: 'write-tests', system: 'system prompt', context: 'the bug and the code', task: 'write the tests', tool: TEST_FILES_TOOL }

test('a valid tool call comes back as its input, with usage recorded', async () => {
  const { model, ledger, fake } = await modelWith([{ tool_use: { name: 'write_test_files', input: files } }])
  await expect(askForTool(model, ask)).resolves.toEqual(files)
  expect(ledger.calls).toHaveLength(1)
  expect(ledger.calls[0]).toMatchObject({ stage: 'write-tests' })
  expect(ledger.usage.inputTokens).toBeGreaterThan(0)
  const body = fake.requests[0].body
  expect(body).toMatchObject({ model: 'claude-sonnet-5-5', system: 'system prompt', thinking: { type: 'adaptive' }, tool_choice: { type: 'auto' } })
  // Every stage's answer tool, in one order for the whole run: the prompt cache's prefix starts with them.
  expect(body.tools.map((tool: { name: string }) => tool.name)).toEqual(['record_root_cause', 'record_scenarios', 'write_test_files'])
  expect(body.temperature).toBeUndefined()
  // The shared context goes first and is marked for the prompt cache; the stage's task follows.
  expect(body.messages[0].content).toEqual([
    { type: 'text', text: 'the bug and the code', cache_control: { type: 'ephemeral' } },
    { type: 'text', text: 'write the tests' }
  ])
  expect(JSON.stringify(fake.requests[0].headers)).toContain('test-key')
})

test('models without adaptive thinking get temperature 0 and a tool call forced, the same tool_choice in every stage (a change would void the cached messages)', async () => {
  expect(supportsAdaptiveThinking('claude-haiku-4-5-20251001')).toBe(false)
  expect(supportsAdaptiveThinking('claude-sonnet-4-20250514')).toBe(false)
  expect(supportsAdaptiveThinking('claude-opus-4-6')).toBe(true)
  const { model, fake } = await modelWith([{ tool_use: { name: 'write_test_files', input: files } }], 'claude-haiku-4-5')
  await askForTool(model, ask)
  expect(fake.requests[0].body).toMatchObject({ temperature: 0, tool_choice: { type: 'any' } })
  expect(fake.requests[0].body.thinking).toBeUndefined()
})

test('a reply that calls another stage\'s answer tool is asked again once, naming the right tool', async () => {
  const scenarios = { tool_use: { name: 'record_scenarios', input: { scenarios: [] } } }
  const { model, fake } = await modelWith([scenarios, { tool_use: { name: 'write_test_files', input: files } }])
  await expect(askForTool(model, ask)).resolves.toEqual(files)
  const feedback = fake.requests[1].body.messages.at(-1).content
  expect(feedback).toEqual([expect.objectContaining({ type: 'tool_result', is_error: true })])
  expect(feedback[0].content).toContain('record_scenarios is another stage\'s tool: this task is answered with write_test_files')
  await fake.close()
  const { model: stubborn } = await modelWith([scenarios, scenarios])
  await expect(askForTool(stubborn, ask)).rejects.toThrow(ModelOutputError)
})

test('a stage whose answer tool is not among the run\'s answer tools is a programming error', async () => {
  const { model } = await modelWith([])
  await expect(askForTool(model, { ...ask, tool: { ...TEST_FILES_TOOL } })).rejects.toThrow('write_test_files is not one of the answer tools')
})

test('an invalid answer is retried once with the problems listed', async () => {
  const { model, ledger, fake } = await modelWith([
    { tool_use: { name: 'write_test_files', input: { files: [{ path: 'x' }] } } },
    { tool_use: { name: 'write_test_files', input: files } }
  ])
  await expect(askForTool(model, ask)).resolves.toEqual(files)
  expect(ledger.calls).toHaveLength(2)
  const retry = fake.requests[1].body.messages
  expect(retry).toHaveLength(3)
  expect(retry[2].content[0]).toMatchObject({ type: 'tool_result', is_error: true })
  expect(requestText(fake.requests[1])).toContain("must have required property 'content'")
})

test('semantic rules are checked too, and a second bad answer is a ModelOutputError', async () => {
  const noText = { text: 'I think the tests should…' }
  const { model } = await modelWith([noText, noText])
  await expect(askForTool(model, { ...ask, tool: SCENARIOS_TOOL, check: () => [] })).rejects.toThrow(ModelOutputError)
  await fake!.close()
  const { model: strict } = await modelWith([
    { tool_use: { name: 'write_test_files', input: files } },
    { tool_use: { name: 'write_test_files', input: files } }
  ])
  await expect(askForTool(strict, { ...ask, check: () => ['no P0 scenario'] })).rejects.toThrow(/invalid twice: no P0 scenario/)
})

test('overloaded and rate-limit errors are retried by the SDK', async () => {
  const { model, fake } = await modelWith([
    { error: { status: 529, type: 'overloaded_error', message: 'Overloaded' } },
    { error: { status: 429, type: 'rate_limit_error', message: 'slow down' } },
    { tool_use: { name: 'write_test_files', input: files } }
  ])
  await expect(askForTool(model, ask)).resolves.toEqual(files)
  expect(fake.requests).toHaveLength(3)
})

test('a request the API rejects surfaces as a UserFacingError with the API\'s message (see anthropic-errors.test.ts)', async () => {
  const { model } = await modelWith([{ error: { status: 400, type: 'invalid_request_error', message: 'bad tool' } }])
  const error = await askForTool(model, ask).catch((caught: unknown) => caught)
  expect(error).toBeInstanceOf(UserFacingError)
  expect((error as Error).message).toBe('The Anthropic API refused the request (400 invalid_request_error): bad tool')
})

describe('reading the repository before answering', () => {
  const READ_FILE = { name: 'read_file', description: 'Reads a file.', input_schema: { type: 'object' as const, properties: { path: { type: 'string' } }, required: ['path'] } }
  const reader = (rounds: number, canRead = () => true) => {
    const reads: string[] = []
    return {
      reads,
      tools: [READ_FILE],
      rounds,
      canRead,
      readsSoFar: () => [],
      read: async (stage: string, name: string, input: unknown) => {
        const path = (input as { path: string }).path
        reads.push(`${stage} ${name} ${path}`)
        return path === 'secret.pem' ? { text: 'refused: a secret-looking file', isError: true, summary: `refused ${path}` } : { text: `the text of ${path}`, isError: false, summary: `read ${path}` }
      }
    }
  }
  const read = (path: string) => ({ tool_use: { name: 'read_file', input: { path } } })
  const answer = { tool_use: { name: 'write_test_files', input: files } }

  test('the model reads, gets the text back as a tool result, then answers; every read is a call', async () => {
    const repository = reader(6)
    const { model, ledger, fake } = await modelWith([read('src/a.js'), { content: [{ type: 'tool_use', id: 'toolu_1', name: 'read_file', input: { path: 'src/b.js' } }, { type: 'tool_use', id: 'toolu_2', name: 'read_file', input: { path: 'secret.pem' } }], stop_reason: 'tool_use' }, answer])
    await expect(askForTool(model, { ...ask, reader: repository })).resolves.toEqual(files)
    expect(repository.reads).toEqual(['write-tests read_file src/a.js', 'write-tests read_file src/b.js', 'write-tests read_file secret.pem'])
    expect(ledger.calls).toHaveLength(3)
    // The read tools follow the answer tools, the same in every request (the prompt cache keeps them).
    expect(fake.requests.map((request) => request.body.tools.map((tool: { name: string }) => tool.name))).toEqual(Array(3).fill(['record_root_cause', 'record_scenarios', 'write_test_files', 'read_file']))
    const last = fake.requests[2].body.messages
    expect(last).toHaveLength(5)
    expect(last[3].content).toEqual([expect.objectContaining({ type: 'tool_use', id: 'toolu_1' }), expect.objectContaining({ type: 'tool_use', id: 'toolu_2' })])
    expect(last[4].content).toEqual([
      { type: 'tool_result', tool_use_id: 'toolu_1', content: 'the text of src/b.js' },
      { type: 'tool_result', tool_use_id: 'toolu_2', content: 'refused: a secret-looking file', is_error: true, cache_control: { type: 'ephemeral' } }
    ])
  })

  test('inside a read loop the tail is a breakpoint that moves on: the context, the earlier work and the tail, never more', async () => {
    const { model, fake } = await modelWith([read('a'), read('b'), answer])
    await askForTool(model, { ...ask, reader: reader(6), earlier: ['first earlier block', 'second earlier block'] })
    const breakpoints = (request: { body: { messages: Array<{ content: Array<{ text?: string; cache_control?: object }> }> } }) =>
      request.body.messages.flatMap((message, m) => message.content.flatMap((block, b) => (block.cache_control ? [`${m}.${b}`] : [])))
    expect(fake.requests.map(breakpoints)).toEqual([
      ['0.0', '0.2', '0.3'],
      ['0.0', '0.2', '2.0'],
      ['0.0', '0.2', '4.0']
    ])
  })

  test("earlier stages' work is sent between the context and the task, one block each, the last one a breakpoint", async () => {
    const { model, fake } = await modelWith([answer])
    await expect(askForTool(model, { ...ask, earlier: ['## What you read in earlier stages\n\nthe text of src/a.js', '## Root-cause analysis\n{}'] })).resolves.toEqual(files)
    const [first] = fake.requests[0].body.messages
    expect(first.content.map((block: { text: string; cache_control?: object }) => [block.text.split('\n')[0], block.cache_control ?? null])).toEqual([
      [ask.context.split('\n')[0], { type: 'ephemeral' }],
      ['## What you read in earlier stages', null],
      ['## Root-cause analysis', { type: 'ephemeral' }],
      [ask.task.split('\n')[0], null]
    ])
  })

  test('past its rounds a stage must answer: the last read says so, another read is refused, the answer still comes', async () => {
    const repository = reader(2)
    const { model, fake } = await modelWith([read('a'), read('b'), read('c'), answer])
    await expect(askForTool(model, { ...ask, reader: repository })).resolves.toEqual(files)
    expect(repository.reads).toEqual(['write-tests read_file a', 'write-tests read_file b'])
    const afterSecond = fake.requests[2].body.messages.at(-1).content
    expect(afterSecond.at(-1)).toEqual({ type: 'text', text: 'That was the last read of this stage: answer now with write_test_files.', cache_control: { type: 'ephemeral' } })
    expect(requestText(fake.requests[3])).toContain('no reads are left in this stage: answer with write_test_files now')
  })

  test('a stage that only reads fails after its rounds and one more refusal', async () => {
    const { model } = await modelWith([read('a'), read('b'), read('c')])
    await expect(askForTool(model, { ...ask, reader: reader(1) })).rejects.toThrow(ModelOutputError)
  })

  test('no reads once the run\'s calls are nearly used up; without thinking, any tool may be called', async () => {
    const repository = reader(6, () => false)
    const { model, fake } = await modelWith([read('a'), answer], 'claude-haiku-4-5')
    await expect(askForTool(model, { ...ask, reader: repository })).resolves.toEqual(files)
    expect(repository.reads).toEqual([])
    expect(fake.requests[0].body.tool_choice).toEqual({ type: 'any' })
  })

  test('an answer given beside a read is taken; a bad one is fed back to both calls', async () => {
    const { model, fake } = await modelWith([
      { content: [{ type: 'tool_use', id: 'toolu_r', name: 'read_file', input: { path: 'a' } }, { type: 'tool_use', id: 'toolu_a', name: 'write_test_files', input: { files: [] } }], stop_reason: 'tool_use' },
      answer
    ])
    await expect(askForTool(model, { ...ask, reader: reader(6) })).resolves.toEqual(files)
    const feedback = fake.requests[1].body.messages.at(-1).content
    expect(feedback.map((block: { tool_use_id: string; content: string }) => [block.tool_use_id, block.content.split('\n')[0]])).toEqual([
      ['toolu_r', 'Not run: answer first.'],
      ['toolu_a', 'That answer cannot be used:']
    ])
  })
})
