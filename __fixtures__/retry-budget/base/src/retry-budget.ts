/** A budget of retry tokens: each retry is charged against it until it runs out. */
export class RetryBudget {
  private tokens: number

  constructor(readonly capacity: number) {
    this.tokens = capacity
  }

  get remaining(): number {
    return this.tokens
  }

  /** Takes `cost` tokens if there are enough; false (and nothing taken) if not. */
  tryCharge(cost: number): boolean {
    if (cost > this.tokens) return false
    this.tokens -= cost
    return true
  }

  /** A fresh, full budget of the same capacity. */
  clone(): RetryBudget {
    return new RetryBudget(this.capacity)
  }
}
