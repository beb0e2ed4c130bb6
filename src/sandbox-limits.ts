/**
 * What each command the sandbox runs may use (its tests, builds and installs): set with util-linux's
 * `prlimit` before the sandbox's user takes over, so a test cannot raise them. Per process, except the
 * process count, which the kernel counts per user (threads too) across the machine.
 */
export interface ResourceLimits {
  /** Processes and threads of the sandbox's user: a fork bomb meets EAGAIN. The fixtures' jest, vitest and mocha runs used at most 54 (2 cores). */
  processes: number
  /** Largest file one process may write (MB): a bigger write meets EFBIG (or SIGXFSZ). */
  fileSizeMb: number
  /** Writable memory (RLIMIT_DATA, MB) of one process: V8's address-space reservations do not count. */
  memoryMb: number
}

export const DEFAULT_LIMITS: ResourceLimits = { processes: 2048, fileSizeMb: 1024, memoryMb: 4096 }

export type LimitName = 'memory' | 'processes' | 'file size'

/** `prlimit`'s options for these limits (soft and hard alike, so the command cannot raise them). */
export function prlimitOptions(limits: ResourceLimits): string[] {
  const mb = (value: number) => String(value * 1024 * 1024)
  return [`--nproc=${limits.processes}`, `--fsize=${mb(limits.fileSizeMb)}`, `--data=${mb(limits.memoryMb)}`]
}

/** The limit and its value, as the report and the log name it. */
export function describeLimit(name: LimitName, limits: ResourceLimits = DEFAULT_LIMITS): string {
  if (name === 'memory') return `memory limit (${limits.memoryMb} MB per process)`
  if (name === 'processes') return `process limit (${limits.processes} processes and threads)`
  return `file size limit (${limits.fileSizeMb} MB per file)`
}

/** The limits in a few words, for the sandbox's description in the log and the report. */
export function limitsText(limits: ResourceLimits): string {
  return `limited to ${limits.memoryMb} MB of memory per process, ${limits.processes} processes and ${limits.fileSizeMb} MB per file (prlimit)`
}
