/**
 * Secrets never leave the process: every value the run treats as secret (the API key, the tokens) is
 * replaced in everything the tool writes or posts — the report files, the suite, run.log, the job log, the
 * summary, the comment, the annotations. The sandbox keeps tests from reading them; this is the second line.
 */
import type { Logger } from '../ports/logger.js'

export const REDACTED = '***'

export type Redact = (text: string) => string

export function redactor(secrets: string[]): Redact {
  // Longest first, so a secret that contains another is replaced whole.
  const values = [...new Set(secrets.filter(Boolean))].sort((a, b) => b.length - a.length)
  return (text) => values.reduce((result, secret) => (result.includes(secret) ? result.split(secret).join(REDACTED) : result), text)
}

/** The same value with every string in it redacted (keys included). */
export function redactDeep<T>(value: T, redact: Redact): T {
  if (typeof value === 'string') return redact(value) as T
  if (Array.isArray(value)) return value.map((item) => redactDeep(item, redact)) as T
  if (value && typeof value === 'object') {
    return Object.fromEntries(Object.entries(value).map(([key, item]) => [redact(key), redactDeep(item, redact)])) as T
  }
  return value
}

/** A logger whose every line is redacted before it reaches the log (and run.log behind it). */
export function redactingLogger(log: Logger, redact: Redact): Logger {
  return {
    info: (message) => log.info(redact(message)),
    warn: (message) => log.warn(redact(message)),
    error: (message) => log.error(redact(message)),
    debug: (message) => log.debug(redact(message))
  }
}
