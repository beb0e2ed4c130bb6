/**
 * "Why it failed before the fix", end to end in verify mode: real git fixtures whose fix commits bring tests
 * that fail on the pre-fix tree in each way — an assertion, an exception, a timeout, a file that cannot
 * load (a weak proof), a hook that keeps a test from running (no proof at all) — run by the real runners.
 */
import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import type { ClassifiedTest } from '../../src/domain.js'
import { runCliOnFixture } from '../support/cli-run.js'
import { fixturesDir } from '../support/fixture-repo.js'
import { describeWhereTestPython } from '../support/test-python.js'

const fixFile = (fixture: string, path: string) => readFileSync(join(fixturesDir(), fixture, 'fix', path), 'utf8')
const byName = (tests: ClassifiedTest[]) => Object.fromEntries(tests.map((test) => [test.name, test]))

describe('jest (retry-budget, ts-jest)', () => {
  const TRANSPORT_TEST = `${fixFile('retry-budget', 'test/streaming-transport.test.ts')}
describe('a streaming retry, before and after the fix (#4471)', () => {
  it('leaves the transport budget whole', async () => {
    const transport = new StreamingTransport(replies(429, 200), { retryBudget: 1000 })
    await transport.stream({ url: '/events' })
    expect(transport.budget.remaining).toBe(1000)
  })

  it('answers within a second', async () => {
    const transport = new StreamingTransport(replies(429, 200))
    // Before the fix the call fails: waiting for an answer that never comes, the test runs out of time.
    const response = await transport.stream({ url: '/events' }).catch(() => new Promise<TransportResponse>(() => {}))
    expect(response.status).toBe(200)
  }, 1000)
})
`
  // A module the fix adds, and a test of it: before the fix the test file cannot load.
  const STREAM_BUDGET = `import type { StreamingTransport } from './streaming-transport'

/** The tokens each streaming call may spend: a fresh budget of the transport's capacity (#4471). */
export const streamingBudget = (transport: StreamingTransport): number => transport.budget.clone().remaining
`
  const STREAM_BUDGET_TEST = `import { streamingBudget } from '../src/stream-budget'
import { StreamingTransport } from '../src/streaming-transport'

it('gives each streaming call the whole budget (#4471)', () => {
  expect(streamingBudget(new StreamingTransport(async () => ({ status: 200 }), { retryBudget: 3 }))).toBe(3)
})
`

  it('tells an assertion, an exception, a timeout and a file that cannot load apart, and shows them in report.md', async () => {
    const run = await runCliOnFixture({
      fixtureOptions: { headChanges: { 'test/streaming-transport.test.ts': TRANSPORT_TEST, 'src/stream-budget.ts': STREAM_BUDGET, 'test/stream-budget.test.ts': STREAM_BUDGET_TEST } }
    })
    expect(run.report).toMatchObject({ mode: 'verify', verdict: 'fail-to-pass', reason: null })
    expect(run.report.preFixTree?.reverted).toEqual(expect.arrayContaining(['src/stream-budget.ts', 'src/streaming-transport.ts']))
    const tests = byName(run.report.tests)
    expect(tests['StreamingTransport.stream › retries a streaming call after a 429 (#4471)']).toMatchObject({
      kind: 'fail-to-pass',
      preFixFailure: 'exception',
      // jest's matcher saw the promise reject: the code under test threw.
      preFixFailureLine: expect.stringMatching(/Received promise rejected instead of resolved Rejected to value: \[RetryBudgetExhaustedError: retry budget exhausted \(last status 429\)\]$/)
    })
    expect(tests['a streaming retry, before and after the fix (#4471) › leaves the transport budget whole']).toMatchObject({
      kind: 'fail-to-pass',
      preFixFailure: 'assertion',
      preFixFailureLine: 'expect(received).toBe(expected) // Object.is equality Expected: 1000 Received: 571'
    })
    expect(tests['a streaming retry, before and after the fix (#4471) › answers within a second']).toMatchObject({
      kind: 'fail-to-pass',
      preFixFailure: 'timeout',
      preFixFailureLine: 'Exceeded timeout of 1000 ms for a test.'
    })
    expect(tests['gives each streaming call the whole budget (#4471)']).toMatchObject({
      kind: 'fail-to-pass',
      preFix: 'errored',
      preFixFailure: 'load',
      preFixFailureLine: "Cannot find module '../src/stream-budget' from 'test/stream-budget.test.ts'"
    })

    // report.md: a "Before the fix" column with the kind and the line, as code in a table cell.
    expect(run.markdown).toContain('| File | Test | At head | Pre-fix | Kind | Before the fix |')
    expect(run.markdown).toContain('| `test/streaming-transport.test.ts` | `a streaming retry, before and after the fix (#4471) › leaves the transport budget whole` | passed | failed | **fail-to-pass** | **assertion**: `expect(received).toBe(expected) // Object.is equality Expected: 1000 Received: 571` |')
    expect(run.markdown).toContain("| **fail-to-pass** | **load** (weak proof): `Cannot find module '../src/stream-budget' from 'test/stream-budget.test.ts'` |")
  })

  it('calls a proof weak when every fail-to-pass test failed before the fix only because its file could not load', async () => {
    // The fix also exports a name from the module it changes; ts-jest (isolatedModules) only transpiles, so
    // before the fix the import is undefined, and calling it fails as tsc's output calls an import.
    const transport = `${fixFile('retry-budget', 'src/streaming-transport.ts')}
/** The budget a streaming call starts with (#4471). */
export const startingBudget = (transport: StreamingTransport): number => transport.budget.clone().remaining
`
    const startingBudgetTest = `import { startingBudget, StreamingTransport } from '../src/streaming-transport'

it('starts each streaming call with the whole budget (#4471)', () => {
  expect(startingBudget(new StreamingTransport(async () => ({ status: 200 }), { retryBudget: 4 }))).toBe(4)
})
`
    const run = await runCliOnFixture({
      fixtureOptions: {
        withFixTest: false,
        headChanges: { 'src/stream-budget.ts': STREAM_BUDGET, 'test/stream-budget.test.ts': STREAM_BUDGET_TEST, 'src/streaming-transport.ts': transport, 'test/starting-budget.test.ts': startingBudgetTest }
      }
    })
    const tests = byName(run.report.tests)
    expect(tests['starts each streaming call with the whole budget (#4471)']).toMatchObject({
      kind: 'fail-to-pass',
      preFix: 'failed',
      preFixFailure: 'load',
      preFixFailureLine: expect.stringMatching(/^TypeError: \(0 ?, streaming_transport_1\.startingBudget\) is not a function$/)
    })
    expect(tests['gives each streaming call the whole budget (#4471)']).toMatchObject({ kind: 'fail-to-pass', preFixFailure: 'load' })
    expect(run.report.verdict).toBe('fail-to-pass')
    expect(run.report.reason).toMatch(/^weak proof: every fail-to-pass test failed before the fix only because its file could not load \(test\/(?:stream|starting)-budget\.test\.ts: /)
    expect(run.markdown).toContain(`Reason: ${run.report.reason}`)
  })
})

describe('mocha (argv-cjs)', () => {
  // A setup that needs the fix: before it, the beforeEach hook fails and mocha runs none of the tests it sets up.
  const HOOKED = `describe('a token flag read before each test (#37)', () => {
  let parsed
  beforeEach(() => {
    parsed = parse(['--token=aGk='], { string: ['token'] })
    assert.equal(parsed.token, 'aGk=', 'the setup needs the whole token')
  })

  it('keeps the token for the test', () => {
    assert.equal(parsed.token.length, 4)
  })
})
`

  it('reads an assertion, and never counts a test a failed hook kept from running as fail-to-pass', async () => {
    const run = await runCliOnFixture({ fixture: 'argv-cjs', fixtureOptions: { headChanges: { 'test/parse.test.js': `${fixFile('argv-cjs', 'test/parse.test.js')}\n${HOOKED}` } } })
    expect(run.report).toMatchObject({ framework: 'mocha', verdict: 'fail-to-pass', reason: null })
    const tests = byName(run.report.tests)
    expect(tests['parse long flags › keeps every "=" after the first in the value (#37)']).toMatchObject({
      kind: 'fail-to-pass',
      preFixFailure: 'assertion',
      preFixFailureLine: expect.stringMatching(/^AssertionError \[ERR_ASSERTION\]: Expected values to be strictly deep-equal: /)
    })
    expect(tests['a token flag read before each test (#37) › keeps the token for the test']).toMatchObject({
      head: 'passed',
      preFix: 'errored',
      kind: 'missing-at-pre-fix',
      preFixFailure: null,
      preFixFailureLine: expect.stringMatching(/^Test skipped due to failure in hook .*"before each" hook for "keeps the token for the test".*: the setup needs the whole token$/)
    })
    expect(run.markdown).toMatch(/\| \*\*missing-at-pre-fix\*\* \| not run: `Test skipped due to failure in hook [^`]*the setup needs the whole token` \|/)
  })

  it('a suite whose only failures before the fix are in a hook proves nothing', async () => {
    const run = await runCliOnFixture({
      fixture: 'argv-cjs',
      fixtureOptions: { withFixTest: false, headChanges: { 'test/token.test.js': `'use strict'\n\nconst { parse } = require('../lib/parse')\n\n${HOOKED}` } }
    })
    expect(run.report.tests).toEqual([expect.objectContaining({ name: 'a token flag read before each test (#37) › keeps the token for the test', head: 'passed', kind: 'missing-at-pre-fix' })])
    expect(run.report.verdict).toBe('no-fail-to-pass')
    expect(run.report.reason).toMatch(/^none of the 1 test\(s\) passing at head failed on the pre-fix tree; 1 did not run there, a hook or a test before them failing first \(test\/token\.test\.js: Test skipped due to failure in hook /)
  })
})

describe('ava (paginate-ava)', () => {
  it("reads ava's t.is() as an assertion and an error thrown in the test as an exception", async () => {
    const more = `
test('the last of the pages of 21 items holds one item (#18)', (t) => {
  const items = Array.from({ length: 21 }, (_, i) => i)
  const pages = Array.from({ length: pageCount(21, 10) }, (_, page) => pageOf(items, page + 1, 10))
  t.is(pages[2].length, 1)
})
`
    const run = await runCliOnFixture({ fixture: 'paginate-ava', fixtureOptions: { headChanges: { 'test/pages.test.js': fixFile('paginate-ava', 'test/pages.test.js') + more } } })
    expect(run.report).toMatchObject({ framework: 'ava', verdict: 'fail-to-pass', reason: null })
    const tests = byName(run.report.tests)
    expect(tests['a partial last page counts as a page (#18)']).toMatchObject({
      kind: 'fail-to-pass',
      preFixFailure: 'assertion',
      preFixFailureLine: 'assertion: t.is() Difference (- actual, + expected): - 2 + 3'
    })
    expect(tests['the last of the pages of 21 items holds one item (#18)']).toMatchObject({
      kind: 'fail-to-pass',
      preFixFailure: 'exception',
      preFixFailureLine: "Error thrown in test: TypeError: Cannot read properties of undefined (reading 'length')"
    })
  })
})

describeWhereTestPython()('pytest (pricing-src-layout)', () => {
  it('reads an assert, an exception, and a test module that cannot import what the fix added', async () => {
    const discounts = `${fixFile('pricing-src-layout', 'src/pricing/discounts.py')}

def tier_of(subtotal: Decimal) -> int:
    """The volume tier (0 for none) an order's subtotal reaches (#318)."""
    return [rate for _, rate in VOLUME_TIERS].index(volume_rate(subtotal))
`
    const moreTests = `

TIER_NAMES = {Decimal("0.00"): "none", Decimal("0.10"): "silver"}


def test_names_the_tier_of_an_order_at_the_threshold():
    # Before the fix a $250.00 order got the 5% tier, which has no name here.
    assert TIER_NAMES[volume_rate(Decimal("250.00"))] == "silver"
`
    const tierTest = 'from decimal import Decimal\n\nfrom pricing.discounts import tier_of\n\n\ndef test_an_order_at_a_threshold_reaches_its_tier():\n    assert tier_of(Decimal("250.00")) == 2\n'
    const run = await runCliOnFixture({
      fixture: 'pricing-src-layout',
      fixtureOptions: {
        headChanges: {
          'src/pricing/discounts.py': discounts,
          'tests/test_discounts.py': fixFile('pricing-src-layout', 'tests/test_discounts.py') + moreTests,
          'tests/test_tiers.py': tierTest
        }
      }
    })
    expect(run.report).toMatchObject({ framework: 'pytest', verdict: 'fail-to-pass', reason: null })
    const tests = byName(run.report.tests)
    expect(tests['TestVolumeRate › test_a_subtotal_exactly_at_a_threshold_gets_that_tier[250.00-0.10]']).toMatchObject({
      kind: 'fail-to-pass',
      preFixFailure: 'assertion',
      // pytest's message: `assert …`, or `AssertionError: assert …` (older pytest)
      preFixFailureLine: expect.stringMatching(/^(?:AssertionError: )?assert Decimal\('0\.05'\) == Decimal\('0\.10'\) \+ where Decimal\('0\.05'\) = volume_rate/)
    })
    expect(tests['test_names_the_tier_of_an_order_at_the_threshold']).toMatchObject({ kind: 'fail-to-pass', preFixFailure: 'exception', preFixFailureLine: "KeyError: Decimal('0.05')" })
    expect(tests['test_an_order_at_a_threshold_reaches_its_tier']).toMatchObject({
      kind: 'fail-to-pass',
      preFix: 'errored',
      preFixFailure: 'load',
      preFixFailureLine: expect.stringMatching(/^ImportError: cannot import name 'tier_of' from 'pricing\.discounts'/)
    })
  })
})
