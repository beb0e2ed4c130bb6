/**
 * Long steps (installs, builds, test runs, model calls) say when they start, and then, while they last,
 * that they are still running: a silent minute reads as a hang.
 */
import type { Logger } from './logger.js'

export const STILL_RUNNING_EVERY_MS = 30_000

/** Logs `what…` now and `what: still running (2m 30s)…` every `everyMs` until `step` settles. */
export async function withProgress<T>(log: Logger, what: string, step: () => Promise<T>, everyMs = STILL_RUNNING_EVERY_MS): Promise<T> {
  log.info(`${what}…`)
  const started = Date.now()
  const timer = setInterval(() => log.info(`${what}: still running (${elapsed(Date.now() - started)})…`), everyMs)
  // The reminder never keeps the process alive on its own.
  timer.unref()
  try {
    return await step()
  } finally {
    clearInterval(timer)
  }
}

/** `45s`, `2m 30s`, `1h 5m`. */
export function elapsed(ms: number): string {
  const seconds = Math.round(ms / 1000)
  if (seconds < 60) return `${seconds}s`
  const minutes = Math.floor(seconds / 60)
  if (minutes < 60) return `${minutes}m ${seconds % 60}s`
  return `${Math.floor(minutes / 60)}h ${minutes % 60}m`
}
