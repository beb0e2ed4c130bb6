import type { Logger } from '../pipeline.js'

/** Progress for a terminal: on stderr, so stdout stays the report. */
export const consoleLogger: Logger = {
  info: (message) => console.error(message),
  warn: (message) => console.error(`warning: ${message}`),
  // The runners' output would drown the progress lines; run.log keeps it.
  debug: () => {}
}
