/**
 * How the Actions runner reads workflow commands out of a step's stdout (actions/runner, ActionCommandManager):
 * a line that, once its leading Unicode whitespace is trimmed, is `::name props::data`; or, in the older
 * syntax, a line holding `##[name props]data` anywhere.
 */

// .NET's Char.IsWhiteSpace, which the runner's TrimStart uses, and the BOM that older .NET trimmed too.
const RUNNER_WHITESPACE = /^[\t\n\v\f\r \u0085\u00a0\u1680\u2000-\u200a\u2028\u2029\u202f\u205f\u3000\ufeff]*/
const COMMAND_NAME = /^[A-Za-z][\w-]*$/

export interface RunnerCommand {
  syntax: '::' | '##['
  name: string
  data: string
  /** The `::` came after whitespace the runner trims (our own commands start at column 0). */
  indented: boolean
}

/**
 * Every command the runner could read in this line. Stricter than the runner, which tries `##[` only when
 * the `::` form fails: here both forms count, so a `##[` hidden in a warning's data is caught too.
 */
export function runnerWouldParseCommand(line: string): RunnerCommand[] {
  return [lineStartCommand(line), legacyCommand(line)].filter((command): command is RunnerCommand => command !== null)
}

/** Stdout as the runner's lines (CR, LF), split also at NEL and U+2028/U+2029 in case anything downstream does. */
export function runnerLines(stdout: string): string[] {
  return stdout.split(/\r\n|[\r\n\u0085\u2028\u2029]/)
}

function lineStartCommand(line: string): RunnerCommand | null {
  const indent = RUNNER_WHITESPACE.exec(line)![0].length
  const trimmed = line.slice(indent)
  if (!trimmed.startsWith('::')) return null
  const end = trimmed.indexOf('::', 2)
  if (end < 0) return null
  const name = trimmed.slice(2, end).split(' ')[0]
  return COMMAND_NAME.test(name) ? { syntax: '::', name, data: trimmed.slice(end + 2), indented: indent > 0 } : null
}

function legacyCommand(line: string): RunnerCommand | null {
  const start = line.indexOf('##[')
  const end = start < 0 ? -1 : line.indexOf(']', start)
  if (end < 0) return null
  const name = line.slice(start + 3, end).split(' ')[0]
  return COMMAND_NAME.test(name) ? { syntax: '##[', name, data: line.slice(end + 1), indented: false } : null
}
