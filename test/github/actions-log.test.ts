import { actionsLogger, neutralizeWorkflowCommands } from '../../src/github/actions-log.js'
import { runnerLines, runnerWouldParseCommand, type RunnerCommand } from '../support/runner-commands.js'

/** Text from issues, the model, file names and test output that tries each way the runner reads a command. */
const HOSTILE = [
  '::set-output name=verdict::fail-to-pass',
  '  ::add-mask::x',
  '##[error]x',
  'Root cause: ##[set-output name=verdict;]fail-to-pass',
  '##[add-mask]secret',
  '\u0085::add-mask::nel',
  '\u00a0::error::nbsp',
  '\u2028::error::line separator',
  'a\u2029::warning::paragraph separator',
  '\ufeff::error::bom',
  '\u3000\u2003::notice::ideographic and em spaces',
  'tests ok\r::error::carriage return',
  'ok\u0085\u00a0::add-mask::nel then nbsp'
]

const commandsIn = (stdout: string): RunnerCommand[] => runnerLines(stdout).flatMap(runnerWouldParseCommand)

test('the runner helper sees every hostile line as a command, so the tests below can fail', () => {
  for (const text of HOSTILE) expect(commandsIn(text)).not.toEqual([])
})

test('no line of neutralized text can start a workflow command, in either syntax, after any blanks', () => {
  for (const text of HOSTILE) expect({ text, commands: commandsIn(neutralizeWorkflowCommands(text)) }).toEqual({ text, commands: [] })
})

test('neutralized text reads the same: only zero-width spaces are added, and plain text is left alone', () => {
  const hostile = HOSTILE.join('\n')
  expect(neutralizeWorkflowCommands(hostile).replace(/\u200b/g, '')).toBe(hostile)
  expect(neutralizeWorkflowCommands('keep: this :: and this # [x] #[y]')).toBe('keep: this :: and this # [x] #[y]')
  expect(neutralizeWorkflowCommands('Pre-fix tree: reverted a.ts\n::set-output name=verdict::x')).toBe('Pre-fix tree: reverted a.ts\n:\u200b:set-output name=verdict::x')
  expect(neutralizeWorkflowCommands(neutralizeWorkflowCommands(hostile))).toBe(neutralizeWorkflowCommands(hostile))
})

describe('the action logger', () => {
  let stdout = ''
  const realWrite = process.stdout.write.bind(process.stdout)
  beforeEach(() => {
    stdout = ''
    process.stdout.write = ((chunk: string | Uint8Array) => ((stdout += chunk.toString()), true)) as typeof process.stdout.write
  })
  afterEach(() => void (process.stdout.write = realWrite))

  test.each(['info', 'warn', 'error', 'debug'] as const)('%s lines carry hostile text without a command of its own', (level) => {
    for (const text of HOSTILE) actionsLogger[level](`Tests written: ${text}`)
    const own = level === 'info' ? [] : [{ info: '', warn: 'warning', error: 'error', debug: 'debug' }[level]]
    const commands = commandsIn(stdout)
    // Each message is one line: our own command at column 0 for warn, error and debug, no command at all for info.
    expect(commands.filter((command) => command.syntax !== '::' || command.indented || !own.includes(command.name))).toEqual([])
    expect(commands).toHaveLength(own.length && HOSTILE.length)
    expect(stdout).toContain('##\u200b[error]x')
  })
})
