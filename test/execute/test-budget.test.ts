/** The test runs' time budget: what it charges, when an optional step may start, and its setting. */
import { TestBudget } from '../../src/execute/test-budget.js'
import { buildSettings, DEFAULT_RUN_TIMEOUT_MINUTES } from '../../src/settings.js'
import { linesLogger } from '../support/cli-run.js'

/** A clock the test moves: `step(ms)` is a step that takes that long. */
function clocked(minutes: number) {
  let now = 0
  const log: string[] = []
  const budget = new TestBudget(minutes, linesLogger(log), () => now)
  const step = (ms: number, inner?: () => Promise<void>) =>
    budget.charge(async () => {
      await inner?.()
      now += ms
    })
  return { budget, step, log }
}

test('an optional step starts only while one more as long as the longest so far fits', async () => {
  const { budget, step, log } = clocked(1)
  expect(budget.allows('hunk 1 of 3 (src/a.js:1-2)')).toBe(true)
  await step(20_000)
  await step(30_000)
  // 50 s spent, the longest 30 s: 80 s would pass the minute.
  expect(budget.allows('hunk 2 of 3 (src/a.js:5-5)')).toBe(false)
  expect(budget.allows('the fix-concern tests')).toBe(false)
  expect(budget.report()).toEqual({ minutes: 1, spentMs: 50_000, skipped: ['hunk 2 of 3 (src/a.js:5-5)', 'the fix-concern tests'] })
  expect(log[0]).toBe('warning: Skipped hunk 2 of 3 (src/a.js:5-5): the test budget (test-budget-minutes: 1) is spent — 50.0 s of test runs so far, the longest 30.0 s, and one more would pass it')
})

test('a step inside another (a run inside a hunk step) is charged once, with the outer one', async () => {
  const { budget, step } = clocked(1)
  await step(10_000, () => step(5_000))
  expect(budget.report().spentMs).toBe(15_000)
  // The longest is the outer step, preparation and run together (15 s): 15 + 15 s fit.
  expect(budget.allows('next')).toBe(true)
  await step(20_000)
  await step(15_000)
  // 50 s spent, the longest now 20 s.
  expect(budget.allows('last')).toBe(false)
})

test("steps beside each other (the two trees' runs at once) are charged from the first start to the last end, once", async () => {
  let now = 0
  const budget = new TestBudget(1, linesLogger([]), () => now)
  // The head's run starts first and ends first (at 6 s); the pre-fix tree's, started 2 s later, ends last (at 9 s).
  const ends: Array<() => void> = []
  const running = () => budget.charge(() => new Promise<void>((resolve) => ends.push(resolve)))
  const head = running()
  now = 2_000
  const preFix = running()
  now = 6_000
  ends[0]()
  await head
  now = 9_000
  ends[1]()
  await preFix
  expect(budget.report().spentMs).toBe(9_000)
  // The longest: the stretch both took together.
  expect(budget.allows('next')).toBe(true)
  await budget.charge(async () => {
    now += 45_000
  })
  expect(budget.allows('last')).toBe(false)
})

test('a budget of 0 starts no optional step', () => {
  const { budget } = clocked(0)
  expect(budget.allows('hunk 1 of 2 (src/a.js:1-1)')).toBe(false)
  expect(budget.report().skipped).toEqual(['hunk 1 of 2 (src/a.js:1-1)'])
})

describe('test-budget-minutes', () => {
  const base = { mode: 'verify', repo: '.', base: 'a', head: 'b' }

  test('defaults to a sixth of the run deadline: 10 minutes of 60, 5 of 30, to a hundredth of a minute', () => {
    expect(DEFAULT_RUN_TIMEOUT_MINUTES).toBe(60)
    expect(buildSettings(base).testBudgetMinutes).toBe(10)
    expect(buildSettings({ ...base, runTimeoutMinutes: '30' }).testBudgetMinutes).toBe(5)
    expect(buildSettings({ ...base, runTimeoutMinutes: '70' }).testBudgetMinutes).toBe(11.67)
  })

  test('takes minutes, fractions and 0', () => {
    expect(buildSettings({ ...base, testBudgetMinutes: '25' }).testBudgetMinutes).toBe(25)
    expect(buildSettings({ ...base, testBudgetMinutes: '0.5' }).testBudgetMinutes).toBe(0.5)
    expect(buildSettings({ ...base, testBudgetMinutes: '0' }).testBudgetMinutes).toBe(0)
  })

  test.each(['-1', 'ten', 'Infinity'])('refuses %s', (value) => {
    expect(() => buildSettings({ ...base, testBudgetMinutes: value })).toThrow(`Invalid test-budget-minutes: "${value}" is not a number of minutes, 0 or more`)
  })
})
