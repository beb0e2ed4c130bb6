/** Running child processes: no shell, an allow-listed environment, a timeout that kills the whole tree. */
import { spawn, type ChildProcess } from 'node:child_process'
import { StringDecoder } from 'node:string_decoder'

export interface ProcessRequest {
  command: string
  args: string[]
  cwd: string
  /** Extra variables on top of the allow-listed environment. */
  env?: Record<string, string>
  timeoutMs: number
  /** May the command reach the network (installs, builds)? Absent or false: in the sandbox, loopback only. */
  network?: boolean
}

export interface ProcessResult {
  exitCode: number | null
  signal: string | null
  timedOut: boolean
  /** stdout and stderr interleaved, capped (the tail is kept). */
  output: string
  /** stdout alone, capped the same way: for a command whose answer is its standard output. */
  stdout: string
  durationMs: number
}

export interface ProcessRunner {
  run(request: ProcessRequest): Promise<ProcessResult>
}

/** How much output a result keeps (characters, the tail). */
export const OUTPUT_CAP = 256 * 1024
/** How long a timed-out group gets between SIGTERM and SIGKILL. */
export const KILL_GRACE_MS = 2000
/** How long to wait for stdio to close after the main process exited (a process outside the group may hold it). */
const CLOSE_WAIT_MS = 2000
// setTimeout treats anything longer as 1 ms.
const MAX_TIMER_MS = 2 ** 31 - 1

const ALLOWED_NAMES = new Set(['PATH', 'HOME', 'USER', 'LANG', 'LANGUAGE', 'TZ', 'TMPDIR', 'TMP', 'TEMP', 'SHELL', 'TERM'])

/**
 * The environment of a test process: an allow-list, so that tests written by a model never see tokens,
 * API keys, Actions runtime variables, inputs or NODE_OPTIONS; plus quiet, non-interactive settings.
 */
export function testEnvironment(parent: NodeJS.ProcessEnv): Record<string, string> {
  const env: Record<string, string> = {}
  for (const [name, value] of Object.entries(parent)) {
    if (value !== undefined && (ALLOWED_NAMES.has(name) || name.startsWith('LC_'))) env[name] = value
  }
  // No FORCE_COLOR=0: it beats a repository's own `--color=true`, and snapshots that hold colour codes
  // then fail at head (jest-extended). Output goes to a pipe, so it is plain unless the repository asks.
  return { ...env, CI: 'true', NO_COLOR: '1' }
}

/** Children still running: their groups are ours to end if this process is interrupted. */
const running = new Set<ChildProcess>()

/** Kills every running child's process group (they are detached, so a Ctrl-C does not reach them). */
export function killRunningProcesses(): void {
  for (const child of running) killGroup(child, 'SIGKILL')
}

/** Synchronous clean-ups (such as removing a run's temporary folder) for when the process is interrupted. */
const interruptCleanups = new Set<(signal: NodeJS.Signals) => void>()

/** Runs `cleanup` (given the signal) if the process is interrupted before the returned function is called. */
export function onInterrupt(cleanup: (signal: NodeJS.Signals) => void): () => void {
  interruptCleanups.add(cleanup)
  return () => void interruptCleanups.delete(cleanup)
}

/** For the entries: on SIGINT or SIGTERM, take the test processes down too, clean up, then exit. */
export function exitWithChildrenOnSignals(): void {
  for (const [signal, code] of [['SIGINT', 130], ['SIGTERM', 143]] as const) {
    process.once(signal, () => {
      killRunningProcesses()
      // Last registered first, as the run would have unwound: the worktrees go before the output folder's lock.
      for (const cleanup of [...interruptCleanups].reverse()) {
        try {
          cleanup(signal)
        } catch {
          // Leaving on a signal: one failed clean-up must not keep the others from running.
        }
      }
      process.exit(code)
    })
  }
}

export function createProcessRunner(parentEnv: NodeJS.ProcessEnv = process.env): ProcessRunner {
  return { run: (request) => runProcess(request, testEnvironment(parentEnv)) }
}

function runProcess(request: ProcessRequest, baseEnv: Record<string, string>): Promise<ProcessResult> {
  const started = performance.now()
  const output = new TailBuffer(OUTPUT_CAP)
  const stdout = new TailBuffer(OUTPUT_CAP)
  return new Promise((resolve) => {
    const child = spawn(request.command, request.args, {
      cwd: request.cwd,
      env: { ...baseEnv, ...request.env },
      shell: false,
      // Its own process group, so a timeout (or the end) can take grandchildren such as test workers with it.
      detached: true,
      stdio: ['ignore', 'pipe', 'pipe'],
      windowsHide: true
    })
    running.add(child)
    output.capture(child.stdout)
    output.capture(child.stderr)
    stdout.capture(child.stdout)

    let timedOut = false
    let exit: { code: number | null; signal: string | null } | null = null
    let graceTimer: NodeJS.Timeout | undefined
    let closeTimer: NodeJS.Timeout | undefined
    const timeoutTimer = setTimeout(() => {
      timedOut = true
      killGroup(child, 'SIGTERM')
      graceTimer = setTimeout(() => killGroup(child, 'SIGKILL'), KILL_GRACE_MS)
    }, Math.min(Math.max(request.timeoutMs, 0), MAX_TIMER_MS))

    let settled = false
    const finish = (extra = '') => {
      if (settled) return
      settled = true
      running.delete(child)
      for (const timer of [timeoutTimer, graceTimer, closeTimer]) clearTimeout(timer)
      child.stdout?.destroy()
      child.stderr?.destroy()
      resolve({
        exitCode: exit?.code ?? null,
        signal: exit?.signal ?? null,
        timedOut,
        output: output.text() + extra,
        stdout: stdout.text(),
        durationMs: Math.round(performance.now() - started)
      })
    }

    child.once('error', (error) => {
      // A spawn failure (e.g. ENOENT) has no process to wait for.
      if (child.pid === undefined) finish(`\n[could not start ${request.command}: ${error.message}]`)
    })
    child.once('exit', (code, signal) => {
      exit = { code, signal }
      // Whatever the main process left behind in its group goes too.
      killGroup(child, 'SIGKILL')
      closeTimer = setTimeout(() => finish(), CLOSE_WAIT_MS)
    })
    child.once('close', () => finish())
  })
}

/** Signals the child's whole process group; best-effort, as the group may already be gone. */
function killGroup(child: ChildProcess, signal: NodeJS.Signals): void {
  if (child.pid === undefined) return
  try {
    if (process.platform === 'win32') child.kill(signal)
    else process.kill(-child.pid, signal)
  } catch {
    // ESRCH: nothing left to signal.
  }
}

/** Interleaved text from several streams, keeping only the last `cap` characters. */
class TailBuffer {
  private buffer = ''

  constructor(private readonly cap: number) {}

  capture(stream: NodeJS.ReadableStream | null): void {
    if (!stream) return
    // One decoder per stream, so a multi-byte character split across chunks survives interleaving.
    const decoder = new StringDecoder('utf8')
    stream.on('data', (chunk: Buffer) => this.append(decoder.write(chunk)))
    stream.on('end', () => this.append(decoder.end()))
  }

  text(): string {
    return this.buffer.length > this.cap ? this.buffer.slice(-this.cap) : this.buffer
  }

  private append(text: string): void {
    this.buffer += text
    // Trim in batches rather than on every chunk.
    if (this.buffer.length > 2 * this.cap) this.buffer = this.buffer.slice(-this.cap)
  }
}
