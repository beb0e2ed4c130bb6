/** A delivered test that still says `TODO: confirm` (the model could not see something) is listed. */
import { renderMarkdown } from '../../src/report/markdown.js'
import { emptyReport, suiteFileEntry, unconfirmedLines } from '../../src/report/report.js'
import { UNKNOWN_COLLECTION } from '../../src/context/collection.js'

const content = [
  "import { parse } from '../src/parse'",
  '',
  "test('parses', () => {",
  '  // TODO: confirm parse accepts an options object',
  "  expect(parse('1', { strict: true })).toBe(1) // todo confirm the default",
  '  // a TODO about something else, and the word confirm elsewhere',
  '})'
].join('\n')

test('each line with a TODO: confirm, numbered; other TODOs are not', () => {
  expect(unconfirmedLines(content)).toEqual([
    'line 4: // TODO: confirm parse accepts an options object',
    "line 5: expect(parse('1', { strict: true })).toBe(1) // todo confirm the default"
  ])
  expect(unconfirmedLines("test('x', () => {})\n")).toEqual([])
})

test('report.json lists them per file and report.md flags the file', () => {
  const entry = suiteFileEntry({ path: 'test/regression/a.test.js', content, tests: [] }, UNKNOWN_COLLECTION, true)
  expect(entry.unconfirmed).toHaveLength(2)
  // The pull request's own test (verify mode) is the author's: nothing to list.
  expect(suiteFileEntry({ path: 'test/a.test.js', content, tests: [] }, UNKNOWN_COLLECTION, false).unconfirmed).toEqual([])
  const markdown = renderMarkdown({ ...emptyReport('generate', '/repo', 'b', 'h'), suite: { files: [entry], refused: [], dropped: [] } })
  expect(markdown).toContain('- `test/regression/a.test.js`')
  expect(markdown).toContain('⚠️ 2 `TODO: confirm` left by the model: `line 4: // TODO: confirm parse accepts an options object`')
})
