import { forTerminal } from '../text.js'
import type { Logger } from './logger.js'

/** Progress for a terminal: on stderr, so stdout stays the report. */
export const consoleLogger: Logger = {
  info: (message) => console.error(forTerminal(message)),
  warn: (message) => console.error(`warning: ${forTerminal(message)}`),
  error: (message) => console.error(`error: ${forTerminal(message)}`),
  // The runners' output would drown the progress lines; run.log keeps it.
  debug: () => {}
}
