/** The pipeline's log on a runner: progress as plain lines, problems as warnings, what ended the run as an error, detail as debug lines. */
import * as core from '@actions/core'
import type { Logger } from '../ports/logger.js'

// What the runner's TrimStart (.NET Char.IsWhiteSpace) drops before it looks for `::`, and, to be safe, the
// invisible characters a reader cannot see either (zero-width spaces and joiners, word joiner, BOM).
const LEADING_BLANKS = '\\t\\n\\v\\f\\r \\u0085\\u00a0\\u1680\\u180e\\u2000-\\u200d\\u2028\\u2029\\u202f\\u205f\\u2060\\u3000\\ufeff'
// Where a line may start: the runner splits on \r and \n; NEL and the Unicode line and paragraph separators
// are counted too, so no splitter downstream can turn them into a command line.
const LINE_BREAKS = '\\n\\v\\f\\r\\u0085\\u2028\\u2029'
const LINE_START_COMMAND = new RegExp(`(^|[${LINE_BREAKS}])([${LEADING_BLANKS}]*):(?=:)`, 'g')
// The older syntax, honoured anywhere in a line: `##[error]x`, `##[set-output name=x;]y`, `##[add-mask]z`.
const LEGACY_COMMAND = /##\[/g
const ZERO_WIDTH_SPACE = '\u200b'

/**
 * Log text comes from issues, pull requests, the model, file names and test output, so none of it may read
 * as a workflow command: a zero-width space goes between the colons of every `::` that starts a line (after
 * any blanks the runner would trim) and between `##` and `[` everywhere. The text reads the same.
 */
export function neutralizeWorkflowCommands(text: string): string {
  return text.replace(LINE_START_COMMAND, `$1$2:${ZERO_WIDTH_SPACE}`).replace(LEGACY_COMMAND, `##${ZERO_WIDTH_SPACE}[`)
}

// @actions/core escapes line breaks in warnings and debug lines, but the runner still finds `##[` in their
// data, and NEL or U+2028 pass through unescaped: every level goes through the neutralizer.
export const actionsLogger: Logger = {
  info: (message) => core.info(neutralizeWorkflowCommands(message)),
  warn: (message) => core.warning(neutralizeWorkflowCommands(message)),
  error: (message) => core.error(neutralizeWorkflowCommands(message)),
  // Shown when the run is re-run with debug logging.
  debug: (message) => core.debug(neutralizeWorkflowCommands(message))
}
