/** Wall-clock time per pipeline phase, in ms, added up when a phase runs more than once. */
export class Timings {
  constructor(readonly phases: Record<string, number> = {}) {}

  async time<T>(phase: string, work: () => Promise<T>): Promise<T> {
    const started = performance.now()
    try {
      return await work()
    } finally {
      this.phases[phase] = (this.phases[phase] ?? 0) + Math.round(performance.now() - started)
    }
  }
}
