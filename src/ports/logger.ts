/** Where every layer reports what it does: the job log, the CLI's terminal, run.log. */
export interface Logger {
  info(message: string): void
  warn(message: string): void
  /** What ended the run (or the command): printed as `error:`, never as a warning. */
  error(message: string): void
  /** Detail kept for the run log (and a runner's debug mode), such as each test run's output. */
  debug(message: string): void
}
