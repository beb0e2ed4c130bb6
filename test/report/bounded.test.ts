import { boundedMarkdown, REPORT_LIMIT, utf8Bytes, WHOLE_REPORT, type SizeLimit } from '../../src/report/bounded.js'
import { renderMarkdown } from '../../src/report/markdown.js'
import { emptyReport, type Report } from '../../src/report/report.js'

const bytes = (max: number): SizeLimit => ({ size: utf8Bytes, max, name: 'the test limit' })
const WHOLE = 'The whole report is report.json.'

const table = (rows: string[]) => ['## Tests', '| File | Test |', '|---|---|', ...rows].join('\n')
const rowsOf = (count: number, text = 'passed') => Array.from({ length: count }, (_, index) => `| t${index}.test.ts | ${text} ${index} |`)

/** Each `<details>` closed, each code fence closed: the text renders as its pieces did. */
function expectBalanced(markdown: string) {
  expect((markdown.match(/<details>/g) ?? []).length).toBe((markdown.match(/<\/details>/g) ?? []).length)
  expect((markdown.match(/^```/gm) ?? []).length % 2).toBe(0)
}

test('a text within the limit comes back as it was, to the byte', () => {
  const markdown = `# Title\n\n${table(rowsOf(10))}\n\n\n<details><summary>x</summary>\n\nbody\n\n</details>\n`
  expect(boundedMarkdown(markdown, bytes(utf8Bytes(markdown)), WHOLE)).toBe(markdown)
})

test('one byte over: rows go from the end of the table, a row says how many, a note under the title says what and where the rest is', () => {
  const markdown = `# Title\n\nVerdict line.\n\n${table(rowsOf(1000))}\n\nClosing paragraph.\n`
  const cut = boundedMarkdown(markdown, bytes(utf8Bytes(markdown) - 1), WHOLE)
  expect(utf8Bytes(cut)).toBeLessThan(utf8Bytes(markdown))
  const lines = cut.split('\n')
  expect(lines.slice(0, 3)).toEqual(['# Title', '', expect.stringMatching(/^> ✂️ \*\*Cut to stay under the test limit:\*\* \d+ table or list row\(s\) left out\. The whole report is report\.json\.$/)])
  const cutCount = Number(/(\d+) table or list row/.exec(cut)![1])
  expect(cut).toContain(`| … ${cutCount} more left out (see report.json) |`)
  // Whole rows only, the first ones kept in order, the header and everything after the table kept.
  const kept = lines.filter((line) => /^\| t\d+/.test(line))
  expect(kept).toEqual(rowsOf(1000).slice(0, 1000 - cutCount))
  expect(cut).toContain('| File | Test |\n|---|---|\n| t0.test.ts')
  expect(cut).toContain('Verdict line.')
  expect(cut.endsWith('Closing paragraph.\n')).toBe(true)
})

test('the largest table loses rows first; a small one stays whole', () => {
  const markdown = `# Title\n\n${table(rowsOf(5, 'short'))}\n\n${table(rowsOf(5000, 'long'))}\n`
  const cut = boundedMarkdown(markdown, bytes(100_000), WHOLE)
  expect(utf8Bytes(cut)).toBeLessThanOrEqual(100_000)
  for (const row of rowsOf(5, 'short')) expect(cut).toContain(row)
  expect(cut).not.toContain(rowsOf(5000, 'long')[4999])
})

test('largest in bytes, not in rows: a table of one huge row is cut before a table of many short ones', () => {
  const huge = `| src/table.js | 0/200000 | ${Array.from({ length: 200_000 }, (_, index) => index + 1).join(', ')} |`
  const markdown = `# Title\n\n${table(rowsOf(3000))}\n\n## Diff coverage\n| File | Covered | Uncovered |\n|---|---|---|\n| src/fix.js | 1/1 | — |\n${huge}\n`
  const cut = boundedMarkdown(markdown, bytes(200_000), WHOLE)
  expect(cut).toContain('| src/fix.js | 1/1 | — |\n| … 1 more left out (see report.json) |')
  for (const row of rowsOf(3000)) expect(cut).toContain(row)
  expect(cut).toContain('**Cut to stay under the test limit:** 1 table or list row(s) left out.')
})

test('multi-byte text: the limit is in bytes, and no character is ever split', () => {
  const wide = '✅ é 𝔘 数'.repeat(20)
  const markdown = `# Title\n\n${table(rowsOf(2000, wide))}\n`
  expect(markdown.length).toBeLessThan(utf8Bytes(markdown))
  const max = Math.floor(utf8Bytes(markdown) / 3)
  const cut = boundedMarkdown(markdown, bytes(max), WHOLE)
  expect(utf8Bytes(cut)).toBeLessThanOrEqual(max)
  expect(cut).not.toContain('\uFFFD')
  expect(Buffer.from(cut, 'utf8').toString('utf8')).toBe(cut)
  for (const line of cut.split('\n').filter((entry) => entry.startsWith('| t'))) expect(rowsOf(2000, wide)).toContain(line)
})

test('a <details> block with blank lines inside goes whole or stays whole, never cut open', () => {
  const details = `<details><summary><b>Timings</b></summary>\n\n${table(rowsOf(3000))}\n\n| not | a table start |\n\n</details>`
  const markdown = `# Title\n\nVerdict.\n\n${details}\n\nAfter.\n`
  const cut = boundedMarkdown(markdown, bytes(2000), WHOLE)
  expect(utf8Bytes(cut)).toBeLessThanOrEqual(2000)
  expectBalanced(cut)
  expect(cut).not.toContain('<details>')
  expect(cut).toMatch(/2 section\(s\) left out/)
  // With room for it, the block is kept as it was, rows and all.
  const roomy = boundedMarkdown(`${markdown}\n${table(rowsOf(3000, 'other'))}\n`, bytes(utf8Bytes(markdown) + 2000), WHOLE)
  expect(roomy).toContain(details)
  expectBalanced(roomy)
})

test('a code fence with blank lines inside stays whole', () => {
  const fence = '```\n- not\n\n- a list\n```'
  const markdown = `# Title\n\n${fence}\n\n${table(rowsOf(500))}\n`
  const cut = boundedMarkdown(markdown, bytes(utf8Bytes(markdown) - 100), WHOLE)
  expect(cut).toContain(fence)
  expectBalanced(cut)
})

test('a list is cut by items', () => {
  const items = Array.from({ length: 400 }, (_, index) => `- \`suite/file-${index}.test.ts\``)
  const markdown = `# Title\n\n## Suite\n${items.join('\n')}\n`
  const cut = boundedMarkdown(markdown, bytes(4000), WHOLE)
  expect(utf8Bytes(cut)).toBeLessThanOrEqual(4000)
  expect(cut).toContain('## Suite\n- `suite/file-0.test.ts`')
  expect(cut).toMatch(/\n- … \d+ more left out \(see report\.json\)\n/)
})

test('a limit too small for anything but the note: the note alone', () => {
  const cut = boundedMarkdown(`# ${'x'.repeat(500)}\n\nmore\n`, bytes(300), WHOLE)
  expect(cut).toMatch(/^> ✂️ \*\*Cut to stay under the test limit:\*\* 2 section\(s\) left out\./)
})

test('a report of 100,000 tests renders under 1 MiB, its verdict and first rows kept', () => {
  const tests = Array.from({ length: 100_000 }, (_, index): Report['tests'][number] => ({
    file: `test/generated-${Math.floor(index / 1000)}.test.ts`, name: `case ${index} of the generated table`, head: 'passed', preFix: index === 0 ? 'failed' : 'passed',
    kind: index === 0 ? 'fail-to-pass' : 'pass-to-pass', flaky: false, message: '', scenario: null, preFixFailure: index === 0 ? 'assertion' : null, preFixFailureLine: index === 0 ? 'expected 1 to be 2' : null
  }))
  const report: Report = { ...emptyReport('verify', '/repo', 'b'.repeat(40), 'h'.repeat(40)), verdict: 'fail-to-pass', reason: null, tests, timings: { diff: 5 } }
  const markdown = renderMarkdown(report)
  expect(utf8Bytes(markdown)).toBeGreaterThan(1024 * 1024)
  const cut = boundedMarkdown(markdown, REPORT_LIMIT, WHOLE_REPORT)
  expect(utf8Bytes(cut)).toBeLessThanOrEqual(REPORT_LIMIT.max)
  expect(cut).toContain('**fail-to-pass**')
  expect(cut).toContain('| `test/generated-0.test.ts` | `case 0 of the generated table` | passed | failed | **fail-to-pass** |')
  expect(cut).toMatch(/Cut to stay under 1 MiB, GitHub's limit for a job summary:\*\* [\d,]+ table or list row\(s\) left out\. The whole report is report\.json: beside report\.md, and in the action's artifact\./)
  // The folded timings after the table still fit: rows go before sections.
  expect(cut).toContain('<summary><b>Timings</b></summary>')
  expectBalanced(cut)
})

test('titles and an analysis carrying </details>, <details> and fences are cut as text: every block the tool opened stays whole', () => {
  const attack = (index: number) => `case ${index} </details>\n\n<details>\n\`\`\`\n`
  const tests = Array.from({ length: 3000 }, (_, index): Report['tests'][number] => ({
    file: 'test/a.test.ts', name: attack(index), head: 'passed', preFix: 'passed', kind: 'pass-to-pass', flaky: false, message: '', scenario: null, preFixFailure: null, preFixFailureLine: null
  }))
  const analysis = { summary: attack(0), defects: [{ observedFailure: attack(1), rootCause: attack(2), fixMechanism: attack(3), bugClass: attack(4), blastRadius: [attack(5)], sharedState: false }] }
  const report = { ...emptyReport('verify', '/repo', 'b', 'h'), verdict: 'no-fail-to-pass', reason: attack(6), tests, analysis, timings: { diff: 5 } } as Report
  // Inside code spans (the titles) a tag is text; outside them only the tool's two sections have one.
  const tags = (text: string) => text.replace(/(`+)(?!`)[\s\S]*?[^`]\1(?!`)/g, '').match(/<\/?details>|^```/gm)
  const markdown = renderMarkdown(report)
  expect(tags(markdown)).toEqual(['<details>', '</details>', '<details>', '</details>'])
  const cut = boundedMarkdown(markdown, bytes(50_000), WHOLE)
  expect(cut).toContain('<details><summary><b>Root-cause analysis</b></summary>')
  expect(cut).toMatch(/\| … [\d,]+ more left out \(see report\.json\) \|/)
  expect(tags(cut)).toEqual(['<details>', '</details>', '<details>', '</details>'])
  expectBalanced(cut)
})
