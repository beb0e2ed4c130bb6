/** report.md's suite line says what the repository's linter still reports, and which of its tools failed. */
import { renderMarkdown } from '../../src/report/markdown.js'
import { emptyReport } from '../../src/report/report.js'

test('each suite file: the remaining lint messages, and a failed tool with the file left as the model wrote it; nothing when all is clean', () => {
  const report = emptyReport('generate', '/repo', 'base', 'head')
  const entry = { tests: [], collectedByRepoTests: true, unconfirmed: [] }
  report.suite.files = [
    { ...entry, path: 'test/regression/a.test.js', tidy: { formatter: 'prettier', linter: 'eslint', changed: true, remaining: [{ line: 4, rule: 'max-len', message: 'This line has a length of 112. Maximum allowed is 110.' }], failed: [] } },
    { ...entry, path: 'test/regression/b.test.js', tidy: { formatter: null, linter: 'eslint', changed: false, remaining: [], failed: ['prettier: timed out after 60 s'] } },
    { ...entry, path: 'test/regression/c.test.js', tidy: { formatter: 'prettier', linter: 'eslint', changed: true, remaining: [], failed: [] } }
  ]
  const lines = renderMarkdown(report).split('\n')
  expect(lines).toContain("- `test/regression/a.test.js` — run by the repository's own test command — 🧹 eslint still reports `line 4 max-len: This line has a length of 112. Maximum allowed is 110.`")
  expect(lines).toContain("- `test/regression/b.test.js` — run by the repository's own test command — 🧹 prettier: timed out after 60 s (none of its changes kept)")
  expect(lines).toContain("- `test/regression/c.test.js` — run by the repository's own test command")
})
