/** Verify mode: no model, no key — the fix's own tests, run at head and on the pre-fix tree. */
import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { runCliOnFixture } from '../support/cli-run.js'
import { fixturesDir } from '../support/fixture-repo.js'

test('(e) verify proves the example fix with its own test', async () => {
  const run = await runCliOnFixture({ env: {} })
  expect(run.exitCode).toBe(0)
  expect(run.report).toMatchObject({ mode: 'verify', verdict: 'fail-to-pass', model: { calls: 0, name: null } })
  expect(run.report.tests).toEqual([
    expect.objectContaining({
      file: 'test/streaming-transport.test.ts',
      name: 'StreamingTransport.stream › retries a streaming call after a 429 (#4471)',
      head: 'passed',
      preFix: 'failed',
      kind: 'fail-to-pass'
    })
  ])
  expect(run.report.tests[0].message).toContain('RetryBudgetExhaustedError')
  // Paths in messages are the repository's, not the temporary tree's.
  expect(run.report.tests[0].message).toContain('at Object.<anonymous> (test/streaming-transport.test.ts:')
  expect(run.report.tests[0].message).not.toContain('regression-testgen-')
  // Its jest.config.js cannot be read from the file: jest itself said what it collects (--showConfig).
  expect(run.report.suite.files).toEqual([{ path: 'test/streaming-transport.test.ts', tests: [], collectedByRepoTests: true, unconfirmed: [] }])
  // Printed by the capture's own jest start: no second one for the collection.
  expect(run.log).toContain("The repository's own tests: jest's resolved configuration, from jest --showConfig, printed during the capture")
  // The preflight ran this very file at head: that run is not repeated; the gate's runs follow.
  expect(run.log).toContain("At head: the preflight's run of test/streaming-transport.test.ts stands for the first run")
  expect(run.log.filter((line) => / at head\b/.test(line) && /^(?:Run|Preflight) /.test(line)).map((line) => line.replace(/:.*/, ''))).toEqual(['Preflight at head', 'Run 1 at head (with coverage)', 'Run 2 at head (shuffled)'])
})

test('the pull request\'s own tests are judged one by one: a stale test failing at head does not hide the proof beside it', async () => {
  const fixTest = readFileSync(join(fixturesDir(), 'retry-budget', 'fix', 'test', 'streaming-transport.test.ts'), 'utf8')
  const withMore = `${fixTest}
describe('beside the fix', () => {
  // An old expectation the runtime no longer meets: fails at head, unrelated to the fix.
  it('expects an old message', () => expect('Expected property name').toBe('Unexpected end of JSON input'))
  // A title built from the working folder, different in each tree.
  it(\`runs in \${process.cwd()}\`, () => expect(1).toBe(1))
})
`
  const run = await runCliOnFixture({ fixtureOptions: { headChanges: { 'test/streaming-transport.test.ts': withMore } } })
  expect(run.report.verdict).toBe('fail-to-pass')
  const kinds = Object.fromEntries(run.report.tests.map((test) => [test.name, test.kind]))
  expect(kinds).toEqual({
    'StreamingTransport.stream › retries a streaming call after a 429 (#4471)': 'fail-to-pass',
    'beside the fix › expects an old message': 'fails-at-head',
    'beside the fix › runs in <tree>': 'pass-to-pass'
  })
})

test('a test that fails only with coverage collected is judged on the runs without it, not called flaky', async () => {
  const fixTest = readFileSync(join(fixturesDir(), 'retry-budget', 'fix', 'test', 'streaming-transport.test.ts'), 'utf8')
  // Under coverage, jest's instrumentation defines a global the test did not expect (as a spy on an
  // instrumented function, or a snapshot of a function's text, would differ).
  const withMore = `${fixTest}
describe('beside the fix', () => {
  it('sees no coverage counters', () => expect((globalThis as Record<string, unknown>).__coverage__).toBeUndefined())
})
`
  const run = await runCliOnFixture({ fixtureOptions: { headChanges: { 'test/streaming-transport.test.ts': withMore } } })
  expect(run.log).toContain('1 test(s) failed only with coverage collected, and passed in every run without it: they are judged on the runs without coverage')
  const kinds = Object.fromEntries(run.report.tests.map((test) => [test.name, test.kind]))
  expect(kinds).toEqual({
    'StreamingTransport.stream › retries a streaming call after a 429 (#4471)': 'fail-to-pass',
    'beside the fix › sees no coverage counters': 'pass-to-pass'
  })
  expect(run.report.diffCoverage).not.toBeNull()
})
