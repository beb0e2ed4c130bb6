/** report.md: the fail-to-pass tests before the others, and the merge-base named when it is not base. */
import type { ClassifiedTest } from '../../src/domain.js'
import { renderMarkdown } from '../../src/report/markdown.js'
import { emptyReport, type Report } from '../../src/report/report.js'

const BASE = 'b'.repeat(40)
const HEAD = 'h'.repeat(40)
const FORK_POINT = 'f'.repeat(40)

const result = (name: string, kind: ClassifiedTest['kind']): ClassifiedTest => ({
  file: 'test/a.test.js',
  name,
  head: kind === 'fails-at-head' ? 'failed' : 'passed',
  preFix: kind === 'fail-to-pass' ? 'failed' : 'passed',
  kind,
  flaky: false,
  message: '',
  scenario: null,
  preFixFailure: kind === 'fail-to-pass' ? 'assertion' : null,
  preFixFailureLine: kind === 'fail-to-pass' ? 'expected 1' : null
})

function render(changes: Partial<Report>): string {
  return renderMarkdown({ ...emptyReport('verify', '/repo', BASE, HEAD), verdict: 'fail-to-pass', reason: null, ...changes })
}

/** The test names in the order the Tests table lists them. */
function testsTableOrder(markdown: string): string[] {
  const table = markdown.split('## Tests\n')[1].split('\n\n')[0]
  return table.split('\n').slice(2).map((row) => row.split(' | ')[1].replace(/^`|`$/g, ''))
}

test('lists the fail-to-pass tests first, then the others, each group in the order they ran', () => {
  const tests = [result('keeps the order', 'pass-to-pass'), result('stops at the budget', 'fail-to-pass'), result('is broken at head', 'fails-at-head'), result('retries once', 'fail-to-pass'), result('logs', 'pass-to-pass')]
  expect(testsTableOrder(render({ tests }))).toEqual(['stops at the budget', 'retries once', 'keeps the order', 'is broken at head', 'logs'])
})

test('names the merge-base when the change is read from one that is not base', () => {
  const markdown = render({ repository: { dir: '/repo', base: BASE, head: HEAD, mergeBase: FORK_POINT } })
  expect(markdown).toContain('ℹ️ The fix is the change from the merge-base `fffffff` of base and head (`git diff base...head`), not from base `bbbbbbb`')
  // Right under the summary line that names base and head.
  expect(markdown.indexOf('`bbbbbbb...hhhhhhh`')).toBeLessThan(markdown.indexOf('ℹ️ The fix is the change from the merge-base'))
})

test('says nothing of the merge-base when it is base, or unknown (the run ended before the diff)', () => {
  expect(render({ repository: { dir: '/repo', base: BASE, head: HEAD, mergeBase: BASE } })).not.toContain('merge-base')
  expect(render({ repository: { dir: '/repo', base: BASE, head: HEAD, mergeBase: null } })).not.toContain('merge-base')
})
