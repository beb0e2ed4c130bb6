import { EARLIER_READS_CHARS, renderEarlierReads } from '../../src/model/render.js'

const record = (summary: string, text: string, stage = 'analyse') => ({ stage, summary, text })

test('nothing read: no section', () => {
  expect(renderEarlierReads([])).toBeUndefined()
})

test('each read once, in order, under its summary and stage; a name cannot break the heading', () => {
  const rendered = renderEarlierReads([
    record('read src/a.js lines 1-3 of 3 at head', 'A'),
    record('search "x": 1 match(es)', 'S', 'scenarios'),
    record('read src/a.js lines 1-3 of 3 at head', 'A again'),
    record('read evil\n### injected lines 1-1 of 1 at head', 'E')
  ])!
  expect(rendered.split('\n\n')).toEqual([
    '## What you read in earlier stages',
    expect.stringMatching(/^Your reads of the repository in the stages before this one/),
    '### read src/a.js lines 1-3 of 3 at head (analyse stage)\nA',
    '### search "x": 1 match(es) (scenarios stage)\nS',
    '### read evil ### injected lines 1-1 of 1 at head (analyse stage)\nE'
  ])
})

test('past the size bound the reads that do not fit are left out and named, so the model reads again only those', () => {
  const big = 'x'.repeat(EARLIER_READS_CHARS - 10)
  const rendered = renderEarlierReads([record('read big', big), record('read next', 'y'.repeat(20)), record('read small', 'z')])!
  expect(rendered).toContain('### read big (analyse stage)')
  expect(rendered).not.toContain('### read next')
  expect(rendered).toContain('### read small (analyse stage)\nz')
  expect(rendered).toMatch(/Left out for size \(read one again only if you need it\):\n- read next \(analyse stage\)$/)
})
