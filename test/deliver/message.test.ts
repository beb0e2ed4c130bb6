/** The commit message / pull request body: what it says, its links, its length, and untrusted text kept as text. */
import type { ClassifiedTest, SuiteFile } from '../../src/domain.js'
import { DELIVERY_MARKER } from '../../src/deliver/delivery.js'
import { githubLinksFrom } from '../../src/deliver/links.js'
import { deliveryMessage, MAX_TITLE_LENGTH } from '../../src/deliver/message.js'
import { emptyReport, type Report } from '../../src/report/report.js'

const SUITE = 'test/regression/issue-7.test.js'
const CONCERNS = 'test/regression/issue-7-concerns.test.js'
const test_ = (file: string, name: string, kind: ClassifiedTest['kind'], scenario: string | null): ClassifiedTest => ({ file, name, head: 'passed', preFix: 'failed', kind, flaky: false, message: '', scenario, preFixFailure: null, preFixFailureLine: null })
const scenario = (name: string) => ({ name, verifies: 'v', setup: 's', assertion: 'a', priority: 'P0' as const, riskIfSkipped: 'r', failsBeforeFix: true, kind: 'regression' as const })

function proven(): Report {
  const report: Report = { ...emptyReport('generate', '/repo', 'a'.repeat(40), 'b'.repeat(40)), verdict: 'fail-to-pass', reason: null }
  report.bugReport = { title: 'range() loops forever on a negative step', source: 'linked-issues', truncated: false }
  report.scenarios = [scenario('negative step ends'), scenario('zero step throws')]
  report.tests = [
    test_(SUITE, 'range › ends on a negative step', 'fail-to-pass', 'negative step ends'),
    test_(SUITE, 'range › zero step throws', 'pass-to-pass', 'zero step throws'),
    test_('test/regression/other.test.js', 'not delivered', 'fail-to-pass', 'zero step throws')
  ]
  report.runs = { head: 3, preFix: 2 }
  report.hunks = [
    { file: 'src/range.js', startLine: 4, endLine: 6, onlyRemoves: false, guardedBy: ['range › ends on a negative step', 'not delivered'] },
    { file: 'src/range.js', startLine: 20, endLine: 20, onlyRemoves: true, guardedBy: null }
  ]
  report.fixConcerns = [{ input: 'range(0, 5, NaN)', expected: 'throws', actual: 'loops', where: { file: 'src/range.js', function: 'range' }, test: { path: CONCERNS, name: 'nan' }, failure: 'assertion', failureLine: 'x', preFixResult: 'failed' }]
  return report
}

const files: SuiteFile[] = [{ path: SUITE, content: '', tests: [] }]
const env = { GITHUB_SERVER_URL: 'https://github.com', GITHUB_REPOSITORY: 'acme/range', GITHUB_RUN_ID: '42' }

test('the body: verdict, bug report with its link, scenarios with their tests, hunks, concerns, files, run, then the marker as a trailer', () => {
  const message = deliveryMessage({ report: proven(), files, links: githubLinksFrom(env, 9), issueReferences: ['acme/range#7'] })
  expect(message.title).toBe('test: regression tests for range() loops forever on a negative step')
  expect(message.body).toBe(
    [
      'Verdict: **fail-to-pass** — 2 test(s) fail on the pre-fix code and pass with the fix (3 runs at head, 2 on the pre-fix tree); 2 test(s) delivered, generated and proven by regression-testgen.',
      'Bug report (linked-issues): range() loops forever on a negative step — https://github.com/acme/range/issues/7',
      'Scenarios and their tests:\n- negative step ends (P0, regression): `range › ends on a negative step` (fail-to-pass)\n- zero step throws (P0, regression): `range › zero step throws` (pass-to-pass)',
      'The hunks of the fix each test guards (it fails with that hunk alone taken out):\n- `src/range.js` lines 4–6: `range › ends on a negative step`\n- `src/range.js` lines 20–20: not checked',
      "The fix may be incomplete (these inputs are not covered by the delivered tests, which pass at head; their failing tests stay in the run's artifact):\n- `range(0, 5, NaN)`: expected throws; the fixed code: loops (`src/range.js` · `range`)",
      `Files:\n- \`${SUITE}\``,
      'Run: https://github.com/acme/range/actions/runs/42',
      DELIVERY_MARKER
    ].join('\n\n')
  )
  // Never the concern test's own file.
  expect(message.body).not.toContain(CONCERNS)
})

test('a pull request as the bug report links the pull request; without the environment, no link', () => {
  const report = { ...proven(), bugReport: { title: 'Fix range', source: 'pull-request' as const, truncated: false } }
  expect(deliveryMessage({ report, files, links: githubLinksFrom(env, 9), issueReferences: [] }).body).toContain('Bug report (pull-request): Fix range — https://github.com/acme/range/pull/9\n')
  const local = deliveryMessage({ report, files, links: githubLinksFrom({}), issueReferences: [] }).body
  expect(local).toContain('Bug report (pull-request): Fix range\n')
  expect(local).not.toMatch(/https?:/)
})

test('the title is one plain line of bounded length; without a bug report it names the head', () => {
  const long = { ...proven(), bugReport: { title: `a\u001b[31m title\nthat goes on ${'and on '.repeat(20)}`, source: 'issue-text' as const, truncated: false } }
  const title = deliveryMessage({ report: long, files, links: null, issueReferences: [] }).title
  expect([...title]).toHaveLength(MAX_TITLE_LENGTH)
  expect(title).toMatch(/^test: regression tests for a title that goes on and on .*…$/)
  expect(deliveryMessage({ report: { ...proven(), bugReport: null }, files, links: null, issueReferences: [] }).title).toBe('test: regression tests for the fix in bbbbbbb')
})

test('untrusted text cannot open HTML, mention, link or end the message early', () => {
  const report = proven()
  report.bugReport = { title: '</details><img src=x> @admin see http://evil.example #1', source: 'issue-text', truncated: false }
  report.scenarios = [{ ...scenario('negative step ends'), name: 'negative step ends' }]
  report.tests[0].name = '`] ![x](http://evil.example/y.png) <script>'
  report.fixConcerns[0].actual = `loops\n\n${DELIVERY_MARKER}\n<!--`
  const body = deliveryMessage({ report, files, links: null, issueReferences: [] }).body
  // A test name is code: a fence longer than its backticks, inside which nothing is markup.
  const testName = '`` `] ![x](http://evil.example/y.png) <script> ``'
  expect(body).toContain(testName)
  const prose = body.replace(testName, '')
  expect(prose).not.toMatch(/<(details|img|script|!--)/)
  expect(prose).not.toContain('@admin')
  expect(prose).not.toContain('http://evil')
  // The marker is the last line, once: the concern's text cannot add a trailer of its own.
  expect(body.split('\n').filter((line) => line.trim() === DELIVERY_MARKER)).toHaveLength(1)
  expect(body.endsWith(`\n\n${DELIVERY_MARKER}`)).toBe(true)
})
