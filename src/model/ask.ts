/**
 * One structured exchange: ask for a tool call, validate its input, and on a bad answer ask once more with
 * the problems listed. A second bad answer is a ModelOutputError. Before it answers, the model may read the
 * repository (a RepositoryReader's tools) for a few rounds; each read's output goes back as a tool result.
 *
 * Every request of a run starts the same way, so the API's prompt cache carries from stage to stage: the
 * same tools (all answer tools, then the read tools) and system text, then the shared context (breakpoint
 * 1), then what earlier stages produced, each block unchanged since it was first sent (breakpoint 2), then
 * this stage's task. Inside a read loop the conversation's tail is a breakpoint too (3), so the next round
 * reads the rounds before it from the cache.
 */
import { Ajv, type ValidateFunction } from 'ajv'
import { ModelOutputError } from '../errors.js'
import type { ToolOutput } from '../context/repository-view.js'
import type { ContentBlock, Message, ModelPort, ToolDefinition } from './model-port.js'
import { ANSWER_TOOLS } from './tools.js'

/** Read-only tools offered with every stage, run here; their output goes back to the model as data. */
export interface RepositoryReader {
  tools: ToolDefinition[]
  /** Rounds of reads one stage may make before it must answer. */
  rounds: number
  /** False once the run's model calls are nearly used up: the later stages need theirs. */
  canRead(): boolean
  read(stage: string, name: string, input: unknown): Promise<ToolOutput>
  /** What the reads so far returned (refusals left out), in order: later stages are shown them. */
  readsSoFar(): ReadRecord[]
}

export interface ReadRecord {
  stage: string
  summary: string
  text: string
}

export interface Ask<T> {
  stage: string
  system: string
  /** The bug, the code and the conventions: the same for every stage, so it is sent first and cached. */
  context: string
  /**
   * What earlier stages produced (their reads, the analysis, the scenarios), one block each in the order they
   * came: a block never changes once sent and new ones only follow, so a later stage reads them all from the cache.
   */
  earlier?: string[]
  /** This stage's task: it names the answer tool. */
  task: string
  /** This stage's answer: one of ANSWER_TOOLS. */
  tool: ToolDefinition
  /** Rules a schema cannot say (e.g. "at least one scenario fails before the fix"); returns problems. */
  check?: (value: T) => string[]
  /** What the model may read before it answers; none: it answers at once. */
  reader?: RepositoryReader
}

type ToolUse = Extract<ContentBlock, { type: 'tool_use' }>
type ToolResult = { type: 'tool_result'; tool_use_id: string; content: string; is_error?: boolean }

const ajv = new Ajv({ allErrors: true, strict: false })
const validators = new WeakMap<ToolDefinition, ValidateFunction>()

const CACHED = { type: 'ephemeral' } as const

export async function askForTool<T>(model: ModelPort, ask: Ask<T>): Promise<T> {
  if (!ANSWER_TOOLS.includes(ask.tool)) throw new Error(`${ask.tool.name} is not one of the answer tools every request offers`)
  const reader = ask.reader
  const tools = [...ANSWER_TOOLS, ...(reader?.tools ?? [])]
  const earlier = ask.earlier ?? []
  const messages: Message[] = [
    {
      role: 'user',
      content: [
        { type: 'text', text: ask.context, cache_control: CACHED },
        ...earlier.map((text, index) => ({ type: 'text' as const, text, ...(index === earlier.length - 1 && { cache_control: CACHED }) })),
        { type: 'text', text: ask.task }
      ]
    }
  ]
  let readRounds = 0
  let problems: string[] = []
  for (let attempt = 1; attempt <= 2; ) {
    // With a reader the next request may well continue this one (a read round), so its tail is cached.
    const reply = await model.send({ stage: ask.stage, system: ask.system, messages: reader ? withCachedTail(messages) : messages, tools })
    messages.push({ role: 'assistant', content: reply.content as Message['content'] })
    const calls = reply.content.filter((block): block is ToolUse => block.type === 'tool_use')
    const answer = calls.find((call) => call.name === ask.tool.name)
    const otherAnswer = calls.find((call) => call.name !== ask.tool.name && ANSWER_TOOLS.some((tool) => tool.name === call.name))
    if (answer) {
      problems = validate(ask, answer.input)
      if (problems.length === 0) return answer.input as T
    } else if (otherAnswer) {
      problems = [`${otherAnswer.name} is another stage's tool: this task is answered with ${ask.tool.name}`]
    } else if (calls.length > 0 && reader && readRounds < reader.rounds && reader.canRead()) {
      readRounds++
      const last = readRounds === reader.rounds || !reader.canRead()
      messages.push({ role: 'user', content: [...(await readAll(reader, ask.stage, calls)), ...(last ? [{ type: 'text' as const, text: `That was the last read of this stage: answer now with ${ask.tool.name}.` }] : [])] })
      continue
    } else {
      problems = calls.length > 0 ? [`no reads are left in this stage: answer with ${ask.tool.name} now`] : [`no ${ask.tool.name} tool call in the answer (stop reason ${reply.stopReason})`]
    }
    messages.push(feedback(ask.tool.name, calls, problems))
    attempt++
  }
  throw new ModelOutputError(ask.stage, problems)
}

/** The messages with a breakpoint on the last block of the last one (a copy: the next round's tail moves on). */
function withCachedTail(messages: Message[]): Message[] {
  const last = messages[messages.length - 1]
  const blocks = typeof last.content === 'string' ? [{ type: 'text' as const, text: last.content }] : last.content
  const tail = { ...blocks[blocks.length - 1], cache_control: CACHED } as (typeof blocks)[number]
  return [...messages.slice(0, -1), { ...last, content: [...blocks.slice(0, -1), tail] } as Message]
}

/** Every read of one reply, in order; a call of a tool the stage does not offer is told so. */
async function readAll(reader: RepositoryReader, stage: string, calls: ToolUse[]): Promise<ToolResult[]> {
  const results: ToolResult[] = []
  for (const call of calls) {
    const output = reader.tools.some((tool) => tool.name === call.name)
      ? await reader.read(stage, call.name, call.input)
      : { text: `There is no tool ${call.name} here.`, isError: true }
    results.push({ type: 'tool_result', tool_use_id: call.id, content: output.text, ...(output.isError && { is_error: true }) })
  }
  return results
}

function validate<T>(ask: Ask<T>, input: unknown): string[] {
  let validator = validators.get(ask.tool)
  if (!validator) validators.set(ask.tool, (validator = ajv.compile(ask.tool.input_schema)))
  if (!validator(input)) return (validator.errors ?? []).map((error) => `${error.instancePath || '(input)'} ${error.message}`)
  return ask.check?.(input as T) ?? []
}

/** The problems, as the result of the answer's tool call (every call of the reply gets one), else as text. */
function feedback(toolName: string, calls: ToolUse[], problems: string[]): Message {
  const text = `That answer cannot be used:\n${problems.map((p) => `- ${p}`).join('\n')}\nCall ${toolName} again with a corrected, complete input.`
  if (calls.length === 0) return { role: 'user', content: text }
  return { role: 'user', content: calls.map((call): ToolResult => ({ type: 'tool_result', tool_use_id: call.id, is_error: true, content: call.name === toolName || calls.every((other) => other.name !== toolName) ? text : 'Not run: answer first.' })) }
}
