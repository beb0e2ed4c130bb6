/**
 * The budget rule (src/context/budget.ts) on real git histories: a small changed module goes whole; a large
 * one goes by its changed function, what that calls, its exports and an outline of the rest, within the
 * rule's limits, and nothing a test needs (the function, its callee, the import, the exports) is lost.
 */
import { buildContext } from '../../src/context/context.js'
import { LARGE_MODULE_CODE, OUTLINE_LIMIT, STYLE_EXAMPLE_LIMIT, WHOLE_FILE_LIMIT } from '../../src/context/budget.js'
import { OUTLINE, WHOLE_FILE } from '../../src/context/functions.js'
import { readChangeSet } from '../../src/diff/change-set.js'
import type { ContextPack } from '../../src/domain.js'
import { frameworkFor } from '../../src/frameworks/detect.js'
import { renderContext, renderConventions } from '../../src/model/render.js'
import { createGit } from '../../src/ports/git.js'
import { buildLargeModule, type LargeModule } from './large-module.js'

async function contextOf(module: LargeModule): Promise<ContextPack> {
  const git = createGit(module.dir)
  return buildContext(await readChangeSet(git, module.base, module.head), git, await frameworkFor(module.dir, 'jest'))
}

describe('a one-line fix in a 2,000-line module', () => {
  let module: LargeModule
  let pack: ContextPack
  beforeAll(async () => {
    module = await buildLargeModule(150)
    pack = await contextOf(module)
  })
  afterAll(() => module?.cleanup())

  it('shows the changed function whole and the function it calls, not the whole module', () => {
    expect(module.lines).toBeGreaterThan(2_000)
    const [source] = pack.sources
    expect(source.head.map((excerpt) => excerpt.name)).toEqual([module.fixedFunction, module.callee, OUTLINE])
    expect(source.head[0].code).toBe(`export function ${module.fixedFunction}(balance: number, fee: number): number {\n${module.fixedLine}\n  return roundCents(balance - ${module.callee}(fee))\n}`)
    expect(source.head[1].code).toContain(`function ${module.callee}(fee: number): number {\n  return Math.min(fee, 1_000)\n}`)
    // With the whole diff beside the function after the fix, the function before it is not repeated.
    expect(source.base).toEqual([])
  })

  it('outlines the rest: the imports and every other function with its line, to read with the read tools', () => {
    const outline = pack.sources[0].head.find((excerpt) => excerpt.name === OUTLINE)!.code
    expect(outline.split('\n')[0]).toBe("import { roundCents } from './money'")
    // Too many functions for their first lines within the outline's room: each by its name and line.
    const line = Number(new RegExp(`\\b${module.untouched} \\((\\d+)\\)`).exec(outline)?.[1])
    expect(module.lines > line && line > 2_000).toBe(true)
    expect(outline).toContain('report0 (3), report1 (19), ')
    expect(outline).not.toContain(`function ${module.fixedFunction}(`)
    expect(outline.length).toBeLessThanOrEqual(OUTLINE_LIMIT)
    expect(renderContext(pack)).toContain('The rest of the file in outline')
  })

  it('stays within the rule: the code shown is a fraction of the module, the import and the exports kept', async () => {
    const [source] = pack.sources
    const size = (await createGit(module.dir).fileAt(module.head, module.path))!.length
    const shownCode = source.head.reduce((sum, excerpt) => sum + excerpt.code.length, 0)
    expect(size).toBeGreaterThan(4 * (LARGE_MODULE_CODE + OUTLINE_LIMIT))
    expect(shownCode).toBeLessThanOrEqual(LARGE_MODULE_CODE + OUTLINE_LIMIT)
    const rendered = renderContext(pack) + renderConventions(pack, 'test/regression/fee.test.ts')
    expect(rendered.length).toBeLessThan(size / 3)
    expect(source.exports).toContain(module.fixedFunction)
    expect(renderConventions(pack, 'test/regression/fee.test.ts')).toContain('Import `src/ledger.ts` as `../../src/ledger`')
    expect(pack.related.map((related) => related.path)).toEqual(['src/money.ts'])
    expect(pack.styleExample?.path).toBe('test/ledger.test.ts')
  })
})

test('a small changed module goes whole, and its code before the fix is not repeated beside it', async () => {
  const module = await buildLargeModule(4)
  try {
    const pack = await contextOf(module)
    const [source] = pack.sources
    const content = (await createGit(module.dir).fileAt(module.head, module.path))!
    expect(content.length).toBeLessThanOrEqual(WHOLE_FILE_LIMIT)
    expect(source.head).toEqual([{ name: WHOLE_FILE, startLine: 1, code: content }])
    expect(renderContext(pack)).toContain(`The whole file after the fix:\n\`\`\`ts\n${content}`)
    expect(renderContext(pack)).not.toContain('Before the fix')
  } finally {
    await module.cleanup()
  }
})

test('a long test file as the style example: its imports and the test of the changed function, the rest by line', async () => {
  const module = await buildLargeModule(4, 0, 400)
  try {
    const pack = await contextOf(module)
    const example = pack.styleExample!
    const original = (await createGit(module.dir).fileAt(module.head, example.path))!
    expect(original.length).toBeGreaterThan(2 * STYLE_EXAMPLE_LIMIT)
    expect(example.content.length).toBeLessThanOrEqual(STYLE_EXAMPLE_LIMIT)
    expect(example.content.startsWith(`import { ${module.fixedFunction}, report0 } from '../src/ledger'\n\n[… `)).toBe(true)
    expect(example.content).toContain(`test('fees', () => {\n  expect(${module.fixedFunction}(10, 2)).toBe(8)\n})`)
    expect(example.content).toContain("\n3: test('report 0', () => {\n")
    expect(example.content).not.toContain('report0([0, 1], 10)')
  } finally {
    await module.cleanup()
  }
})
