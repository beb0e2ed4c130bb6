/**
 * The context of a fix inside a very large changed file, from a real git history: bounded by the budget,
 * with the fix's hunk and function whole and a marker where the rest was cut. (The time it takes is a
 * benchmark's business: `npm run bench`.)
 */
import { buildContext } from '../../src/context/context.js'
import { CONTEXT_BUDGET } from '../../src/context/budget.js'
import { diffText } from '../../src/context/hunks.js'
import { readChangeSet } from '../../src/diff/change-set.js'
import type { ChangeSet, ContextPack } from '../../src/domain.js'
import { frameworkFor } from '../../src/frameworks/detect.js'
import { renderContext, renderConventions } from '../../src/model/render.js'
import { createGit } from '../../src/ports/git.js'
import { buildLargeChange, type LargeChange } from './large-change.js'

const MARKER = /\[… \d+ lines left out\]/

/** What the model is handed of the context: the code and the conventions, as the prompts embed them. */
const rendered = (pack: ContextPack) => `${renderContext(pack)}\n\n${renderConventions(pack, 'test/regression/issue-1.test.ts')}`

describe.each([8_000, 100_000])('a fix beside a rewritten %i-line table', (lines) => {
  let change: LargeChange
  let changeSet: ChangeSet
  let pack: ContextPack
  beforeAll(async () => {
    change = await buildLargeChange(lines)
    const git = createGit(change.dir)
    changeSet = await readChangeSet(git, change.base, change.head)
    pack = await buildContext(changeSet, git, await frameworkFor(change.dir, 'jest'))
  })
  afterAll(() => change?.cleanup())

  it('stays within the budget, which the diff alone is over', () => {
    expect(diffText(changeSet.files[0].hunks).length).toBeGreaterThan(CONTEXT_BUDGET)
    expect(rendered(pack).length).toBeLessThanOrEqual(CONTEXT_BUDGET)
    expect(pack.sources.map((source) => source.path)).toEqual([change.path])
  })

  it("keeps the fix's hunk whole beside the cut table, and marks the cut", () => {
    const { diff } = pack.sources[0]
    expect(diff).toContain(`-  if (refund < 0) return balance\n+${change.fixedLine}`)
    expect(diff).toContain(` export function ${change.fixedFunction}(`)
    expect(diff).toMatch(MARKER)
    expect(diff).toContain('@@ -1,')
  })

  it('shows the changed function whole, the table around the changed rows cut with a marker', () => {
    const fixed = pack.sources[0].head.find((excerpt) => excerpt.name === change.fixedFunction)
    expect(fixed?.code).toBe(`export function ${change.fixedFunction}(balance: number, refund: number): number {\n${change.fixedLine}\n  return balance + refund\n}`)
    const table = pack.sources[0].head.find((excerpt) => excerpt.startLine === 1)
    expect(table?.code.startsWith('export const RATES = [\n')).toBe(true)
    expect(table?.code).toMatch(MARKER)
    expect(pack.sources[0].exports).toEqual(['RATES', change.fixedFunction])
  })

  it('still shows the style example and how to import the module', () => {
    expect(pack.styleExample?.path).toBe('test/rates.test.ts')
    expect(rendered(pack)).toContain('Import `src/rates.ts` as `../../src/rates`')
  })
})
