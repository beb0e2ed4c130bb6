import type { Analysis, Scenario } from '../../src/domain.js'
import { EARLIER_READS_CHARS, renderEarlierWork } from '../../src/model/render.js'

const record = (summary: string, text: string, stage = 'analyse') => ({ stage, summary, text })
const analysis: Analysis = { summary: 'the bug', defects: [] }
const scenarios = [{ name: 'p0' }] as Scenario[]

test('nothing read, nothing answered yet: no blocks', () => {
  expect(renderEarlierWork([], {})).toEqual([])
})

test('each read once, in order, under its summary and stage; a name cannot break the heading', () => {
  const blocks = renderEarlierWork(
    [
      record('read src/a.js lines 1-3 of 3 at head', 'A'),
      record('search "x": 1 match(es)', 'S', 'write-tests'),
      record('read src/a.js lines 1-3 of 3 at head', 'A again', 'write-tests'),
      record('read evil\n### injected lines 1-1 of 1 at head', 'E', 'write-tests')
    ],
    {}
  )
  expect(blocks.map((block) => block.split('\n\n'))).toEqual([
    ['## What you read in earlier stages', expect.stringMatching(/^Your reads of the repository in the stages before this one/), '### read src/a.js lines 1-3 of 3 at head (analyse stage)\nA'],
    ['### search "x": 1 match(es) (write-tests stage)\nS'],
    ['### read evil ### injected lines 1-1 of 1 at head (write-tests stage)\nE']
  ])
})

test('the answers come in the order they were given, between the reads made before and after them', () => {
  const reads = [record('read a', 'A', 'analyse'), record('read s', 'S', 'scenarios'), record('read w', 'W', 'write-tests')]
  const blocks = renderEarlierWork(reads, { analysis, scenarios })
  expect(blocks.map((block) => block.split('\n')[0])).toEqual([
    '## What you read in earlier stages',
    '## Root-cause analysis',
    '## What you read in earlier stages',
    '## Scenarios',
    '## What you read in earlier stages'
  ])
  expect(blocks[1]).toBe(`## Root-cause analysis\n${JSON.stringify(analysis, null, 2)}`)
  expect(blocks[2]).toBe('## What you read in earlier stages\n\n### read s (scenarios stage)\nS')
})

test('a later stage sends the blocks an earlier one sent, byte for byte, and new ones only after them', () => {
  const reads = [record('read a', 'A', 'analyse'), record('read s', 'S', 'scenarios'), record('read w', 'W', 'write-tests'), record('read r', 'R', 'repair')]
  const atScenarios = renderEarlierWork(reads.slice(0, 1), { analysis })
  const atWriteTests = renderEarlierWork(reads.slice(0, 2), { analysis, scenarios })
  const atRepair = renderEarlierWork(reads.slice(0, 3), { analysis, scenarios })
  const atStrengthen = renderEarlierWork(reads, { analysis, scenarios })
  for (const [before, after] of [[atScenarios, atWriteTests], [atWriteTests, atRepair], [atRepair, atStrengthen]]) {
    expect(after.length).toBeGreaterThan(before.length)
    expect(after.slice(0, before.length)).toEqual(before)
  }
})

test('past the size bound a read is named but not shown, and the model is told to read it again', () => {
  const big = 'x'.repeat(EARLIER_READS_CHARS - 10)
  const blocks = renderEarlierWork([record('read big', big), record('read next', 'y'.repeat(20)), record('read small', 'z')], {})
  expect(blocks[0]).toContain(`### read big (analyse stage)\n${big}`)
  expect(blocks[1]).toBe('### read next (analyse stage)\n(Left out for size: read again what you need.)')
  expect(blocks[2]).toBe('### read small (analyse stage)\nz')
})
