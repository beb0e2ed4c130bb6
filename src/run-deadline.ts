/**
 * The run's deadline (run-timeout-minutes): the run ends by it, whatever the repository's code does, so
 * the report is written before the job's own timeout kills the tool. Each sandboxed command's timeout is
 * cut to the time left, so the commands running at the deadline are killed then (their whole tree, as
 * any timed-out command); after it, no sandboxed command and no model call starts.
 */
import { UserFacingError } from './errors.js'
import type { ModelPort } from './model/model-port.js'
import type { ProcessRunner } from './ports/process.js'
import type { SandboxProvider } from './ports/sandbox.js'

/** What ended the run: the deadline passed before it finished. */
export class DeadlineReached extends UserFacingError {
  constructor(readonly minutes: number) {
    super(
      `The run reached its deadline (run-timeout-minutes: ${minutes}): the commands running then were killed and nothing further started; the report holds what was learned before it`,
      'raise run-timeout-minutes (CLI: --run-timeout-minutes), keeping it below the job\'s own timeout-minutes'
    )
    this.name = 'DeadlineReached'
  }
}

/** A command's own timeout, cut to the time left before the deadline (never below 0). */
export function commandTimeoutMs(ownTimeoutMs: number, deadlineAt: number, now: number): number {
  return Math.max(0, Math.min(ownTimeoutMs, deadlineAt - now))
}

export class RunDeadline {
  readonly at: number
  /** Rejects with DeadlineReached at the deadline: a wait raced with it ends then. */
  readonly reached: Promise<never>
  private readonly timer: NodeJS.Timeout
  private readonly running = new Set<Promise<unknown>>()
  /** Aborts the model requests still waiting at the deadline. */
  private readonly aborter = new AbortController()

  constructor(
    private readonly minutes: number,
    private readonly now: () => number = Date.now
  ) {
    this.at = now() + minutes * 60_000
    let reject: (error: DeadlineReached) => void = () => undefined
    this.reached = new Promise<never>((_, fail) => (reject = fail))
    // Nobody may be racing it when it passes; that is no unhandled rejection.
    this.reached.catch(() => undefined)
    this.timer = setTimeout(() => {
      reject(this.error())
      this.aborter.abort()
    }, Math.max(0, this.at - now()))
    // The deadline alone keeps no process alive.
    this.timer.unref()
  }

  passed(): boolean {
    return this.now() >= this.at
  }

  error(): DeadlineReached {
    return new DeadlineReached(this.minutes)
  }

  /** Throws DeadlineReached once the deadline has passed: nothing more may start. */
  check(): void {
    if (this.passed()) throw this.error()
  }

  /** Runs sandboxed commands: none after the deadline, each within the time left. */
  bound(processes: ProcessRunner): ProcessRunner {
    return {
      run: (request) => {
        if (this.passed()) return Promise.reject(this.error())
        const run = processes.run({ ...request, timeoutMs: commandTimeoutMs(request.timeoutMs, this.at, this.now()) })
        this.running.add(run)
        return run.finally(() => this.running.delete(run))
      }
    }
  }

  /** Model calls: none after the deadline; one still waiting at the deadline is given up, its request aborted. */
  boundModel(model: ModelPort): ModelPort {
    return {
      send: (request) => {
        if (this.passed()) return Promise.reject(this.error())
        return Promise.race([model.send({ ...request, signal: this.aborter.signal }), this.reached])
      }
    }
  }

  /** Sandboxes whose commands are bound by the deadline. */
  boundSandboxes(sandboxes: SandboxProvider): SandboxProvider {
    return {
      open: async (workDir, readable, masks) => {
        const sandbox = await sandboxes.open(workDir, readable, masks)
        return { ...sandbox, processes: this.bound(sandbox.processes) }
      }
    }
  }

  /** Resolves once every command started through `bound` has ended (killed at the deadline, they end within the kill grace). */
  async settled(): Promise<void> {
    await Promise.allSettled([...this.running])
  }

  dispose(): void {
    clearTimeout(this.timer)
  }
}
