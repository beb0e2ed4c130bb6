import { RetryBudget } from '../src/retry-budget'

describe('RetryBudget', () => {
  it('starts full', () => {
    expect(new RetryBudget(5).remaining).toBe(5)
  })

  it('charges until the budget runs out', () => {
    const budget = new RetryBudget(3)
    expect(budget.tryCharge(2)).toBe(true)
    expect(budget.tryCharge(2)).toBe(false)
    expect(budget.remaining).toBe(1)
  })

  it('clones into a fresh, full budget', () => {
    const budget = new RetryBudget(4)
    budget.tryCharge(3)
    const copy = budget.clone()
    expect(copy.remaining).toBe(4)
    expect(budget.remaining).toBe(1)
  })
})
