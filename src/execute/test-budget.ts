/**
 * The time budget for the test runs of one run (test-budget-minutes). Every test run is charged to it; the
 * required ones (preflight, import check, the gate at head and on the pre-fix tree, repair and strengthen
 * rounds) always run, whatever it says. An optional one (a hunk tree, the fix-concern tests) starts only
 * while one more step as long as the longest so far still fits: past that it is skipped, and named.
 */
import type { Logger } from '../ports/logger.js'

export interface TestBudgetReport {
  minutes: number
  /** Wall time of the test runs (and the hunk trees' own preparation), in ms. */
  spentMs: number
  /** The optional runs skipped because the budget was spent, in order: `hunk 2 of 3 (src/a.js:4-9)`, `fix-concern tests`. */
  skipped: string[]
}

export class TestBudget {
  private spent = 0
  private longest = 0
  private depth = 0
  private since = 0
  private readonly skipped: string[] = []

  constructor(
    readonly minutes: number,
    private readonly log: Logger,
    private readonly now: () => number = () => performance.now()
  ) {}

  /**
   * Runs a step and charges its wall time; a step inside another (a run inside a hunk step) or beside it (the
   * two trees' runs at once) is charged once, with it: from the first start to the last end.
   */
  async charge<T>(step: () => Promise<T>): Promise<T> {
    if (this.depth++ === 0) this.since = this.now()
    try {
      return await step()
    } finally {
      this.depth--
      if (this.depth === 0) {
        const took = this.now() - this.since
        this.spent += took
        this.longest = Math.max(this.longest, took)
      }
    }
  }

  /** Whether an optional step may start; when not, it is named as skipped and the log says why. */
  allows(step: string): boolean {
    const limitMs = this.minutes * 60_000
    if (this.spent + this.longest <= limitMs && this.spent < limitMs) return true
    this.skipped.push(step)
    this.log.warn(
      `Skipped ${step}: the test budget (test-budget-minutes: ${this.minutes}) is spent — ${seconds(this.spent)} of test runs so far, the longest ${seconds(this.longest)}, and one more would pass it`
    )
    return false
  }

  report(): TestBudgetReport {
    return { minutes: this.minutes, spentMs: Math.round(this.spent), skipped: [...this.skipped] }
  }
}

const seconds = (ms: number) => `${(ms / 1000).toFixed(1)} s`
