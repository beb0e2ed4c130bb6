/**
 * One structured exchange: ask for a tool call, validate its input, and on a bad answer ask once more with
 * the problems listed. A second bad answer is a ModelOutputError.
 */
import { Ajv, type ValidateFunction } from 'ajv'
import { ModelOutputError } from '../errors.js'
import type { ContentBlock, Message, ModelPort, ToolDefinition } from './model-port.js'

export interface Ask<T> {
  stage: string
  system: string
  /** The bug, the code and the conventions: the same for every stage, so it is sent first and cached. */
  context: string
  /** This stage's task. */
  task: string
  tool: ToolDefinition
  /** Rules a schema cannot say (e.g. "at least one scenario fails before the fix"); returns problems. */
  check?: (value: T) => string[]
}

const ajv = new Ajv({ allErrors: true, strict: false })
const validators = new WeakMap<ToolDefinition, ValidateFunction>()

export async function askForTool<T>(model: ModelPort, ask: Ask<T>): Promise<T> {
  const messages: Message[] = [
    {
      role: 'user',
      content: [
        { type: 'text', text: ask.context, cache_control: { type: 'ephemeral' } },
        { type: 'text', text: ask.task }
      ]
    }
  ]
  let problems: string[] = []
  for (let attempt = 1; attempt <= 2; attempt++) {
    const reply = await model.send({ stage: ask.stage, system: ask.system, messages, tool: ask.tool })
    const call = reply.content.find((block) => block.type === 'tool_use' && block.name === ask.tool.name)
    problems = call && call.type === 'tool_use' ? validate(ask, call.input) : [`no ${ask.tool.name} tool call in the answer (stop reason ${reply.stopReason})`]
    if (problems.length === 0) return call!.type === 'tool_use' ? (call.input as T) : (undefined as never)
    messages.push({ role: 'assistant', content: reply.content as Message['content'] }, feedback(ask.tool.name, call, problems))
  }
  throw new ModelOutputError(ask.stage, problems)
}

function validate<T>(ask: Ask<T>, input: unknown): string[] {
  let validator = validators.get(ask.tool)
  if (!validator) validators.set(ask.tool, (validator = ajv.compile(ask.tool.input_schema)))
  if (!validator(input)) return (validator.errors ?? []).map((error) => `${error.instancePath || '(input)'} ${error.message}`)
  return ask.check?.(input as T) ?? []
}

function feedback(toolName: string, call: ContentBlock | undefined, problems: string[]): Message {
  const text = `That answer cannot be used:\n${problems.map((p) => `- ${p}`).join('\n')}\nCall ${toolName} again with a corrected, complete input.`
  if (call?.type === 'tool_use') return { role: 'user', content: [{ type: 'tool_result', tool_use_id: call.id, is_error: true, content: text }] }
  return { role: 'user', content: text }
}
