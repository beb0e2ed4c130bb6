/** The pipeline's log on a runner: progress as plain lines, problems as warnings, detail as debug lines. */
import * as core from '@actions/core'
import type { Logger } from '../pipeline.js'

/**
 * The runner reads a log line that starts with `::` as a workflow command. Log lines can carry text from
 * the pull request (file names, issue references), so such a line gets a zero-width space between the colons.
 * (Warnings need no care: @actions/core escapes their text.)
 */
export function neutralizeWorkflowCommands(text: string): string {
  return text.replace(/^(\s*):(?=:)/gm, '$1:\u200b')
}

export const actionsLogger: Logger = {
  info: (message) => core.info(neutralizeWorkflowCommands(message)),
  warn: (message) => core.warning(message),
  // Shown when the run is re-run with debug logging; @actions/core escapes it into one command's data.
  debug: (message) => core.debug(message)
}
