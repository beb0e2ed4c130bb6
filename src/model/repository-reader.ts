/** The repository tools as the model's reader: each read run, logged, and kept for the report. */
import type { Logger } from '../ports/logger.js'
import type { ToolOutput } from '../context/repository-view.js'
import type { ReadRecord, RepositoryReader } from './ask.js'
import type { ToolDefinition, UsageLedger } from './model-port.js'

/** Calls kept back for the stages still to come: reads stop when no more than these are left. */
export const CALLS_KEPT_FOR_ANSWERS = 4

export interface ReaderOptions {
  tools: ToolDefinition[]
  /** Runs one tool call; refusals come back as `isError` outputs, never as exceptions. */
  run: (name: string, input: unknown) => Promise<ToolOutput>
  /** Read rounds per stage (tool-rounds). */
  rounds: number
  /** max-model-calls: reads never take the calls the answers need. */
  maxCalls: number
  ledger: UsageLedger
  log: Logger
}

export function createRepositoryReader(options: ReaderOptions): RepositoryReader {
  const { ledger, log } = options
  const records: ReadRecord[] = []
  return {
    tools: options.tools,
    rounds: options.rounds,
    canRead: () => options.maxCalls - ledger.sentCalls > CALLS_KEPT_FOR_ANSWERS,
    async read(stage, name, input) {
      const output = await options.run(name, input)
      ledger.recordRead({ stage, tool: name, summary: output.summary, isError: output.isError, chars: output.text.length })
      log.info(`Model read (${stage}): ${output.summary}${output.isError ? ' — refused' : ''}`)
      if (!output.isError) records.push({ stage, summary: output.summary, text: output.text })
      return output
    },
    readsSoFar: () => [...records]
  }
}
