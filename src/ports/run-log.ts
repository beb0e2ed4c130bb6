/** Every log line of a run also goes to `<outDir>/run.log`, so the artifact keeps what the job log showed. */
import { appendFileSync, mkdirSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import type { Logger } from './logger.js'
import { onInterrupt } from './process.js'

export function withRunLog(log: Logger, outDir: string): Logger {
  const file = join(outDir, 'run.log')
  mkdirSync(outDir, { recursive: true })
  writeFileSync(file, '')
  // Synchronous on purpose: the writes are few (a line, or a run's trimmed output), and a crash right after a line must not lose it.
  const write = (level: string, message: string) => appendFileSync(file, `${new Date().toISOString()} ${level} ${message}\n`)
  // The last line of a run cut short says so, rather than ending mid-step. Never forgotten: the process exits on the signal.
  onInterrupt((signal) => write('warn', `run interrupted (${signal})`))
  return {
    info: (message) => (write('info', message), log.info(message)),
    warn: (message) => (write('warn', message), log.warn(message)),
    error: (message) => (write('error', message), log.error(message)),
    debug: (message) => (write('debug', message), log.debug(message))
  }
}
