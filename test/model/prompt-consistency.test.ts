/**
 * The prompt agrees with itself and with what the checks found, shape by shape as real runs showed them
 * contradicting it (issue 23, item 5): a real repository in a temp folder, its context built by buildContext,
 * its imports loaded by the real runner in both trees where the shape is about the import check, and the
 * rendered conventions, code and prompts read back.
 */
import { mkdir, mkdtemp, rm, symlink, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { dirname, join } from 'node:path'
import { buildContext, type ContextOptions } from '../../src/context/context.js'
import { LIMITS, pageOf } from '../../src/context/repository-view.js'
import { readChangeSet } from '../../src/diff/change-set.js'
import type { ContextPack, ImportLine, SuiteFile } from '../../src/domain.js'
import { judgeImports, loadingTests } from '../../src/execute/import-check.js'
import type { FrameworkAdapter } from '../../src/frameworks/adapter.js'
import { frameworkFor } from '../../src/frameworks/detect.js'
import { loadPrompt } from '../../src/model/prompts.js'
import { EARLIER_READS_CHARS, renderContext, renderConventions, renderEarlierWork } from '../../src/model/render.js'
import { checkBySpelling } from '../../src/context/way-in.js'
import { createGit } from '../../src/ports/git.js'
import { createProcessRunner } from '../../src/ports/process.js'
import { scratchRepo } from '../support/scratch-repo.js'

const scratch = scratchRepo('rtg-prompt-consistency-')
const { git, commit } = scratch
const projectModules = join(process.cwd(), 'node_modules')

interface Built {
  pack: ContextPack
  framework: FrameworkAdapter
  base: string
}

/** A repository at `files`, a fix writing `fix` over them, and the context built for it. */
async function contextFor(files: Record<string, string>, fix: Record<string, string>, frameworkName: string, options: ContextOptions = {}): Promise<Built> {
  git('init', '-q')
  const base = await commit({ '.gitignore': 'node_modules\n', ...files })
  const head = await commit(fix)
  const repo = createGit(scratch.dir)
  const framework = await frameworkFor(scratch.dir, frameworkName)
  return { pack: await buildContext(await readChangeSet(repo, base, head), repo, framework, options), framework, base }
}

/**
 * The import check for real, as generate runs it (checkBySpelling): each round's loading files run by the
 * repository's runner at head and in a checkout of the base, then taken out again.
 */
async function checked({ pack, framework, base }: Built): Promise<ContextPack> {
  const preFixDir = await mkdtemp(join(tmpdir(), 'rtg-prompt-consistency-pre-'))
  const scratchDir = await mkdtemp(join(tmpdir(), 'rtg-prompt-consistency-runner-'))
  let rounds = 0
  try {
    git('worktree', 'add', '-q', '--detach', preFixDir, base)
    for (const treeDir of [scratch.dir, preFixDir]) await symlink(projectModules, join(treeDir, 'node_modules'))
    const runIn = async (treeDir: string, files: SuiteFile[]) => {
      for (const file of files) {
        await mkdir(dirname(join(treeDir, file.path)), { recursive: true })
        await writeFile(join(treeDir, file.path), file.content)
      }
      const run = await framework.run({ treeDir, files: files.map((file) => file.path), scratchDir: join(scratchDir, `${rounds}-${treeDir === preFixDir ? 'pre' : 'head'}`), timeoutMs: 120_000 }, createProcessRunner())
      for (const file of files) await rm(join(treeDir, file.path))
      return run
    }
    const round = async (imports: ImportLine[]) => {
      rounds++
      const files = loadingTests({ ...pack, imports }, framework.loadingTest!)
      return judgeImports(imports, files, await runIn(scratch.dir, files), await runIn(preFixDir, files))
    }
    return { ...pack, imports: await checkBySpelling(pack.imports, round) }
  } finally {
    git('worktree', 'remove', '--force', preFixDir)
    await rm(preFixDir, { recursive: true, force: true })
    await rm(scratchDir, { recursive: true, force: true })
  }
}

/** Every specifier the conventions tell the model to import (not those they name as failing). */
function offeredSpecifiers(conventions: string): string[] {
  const offers = conventions.split('\n').flatMap((line) => {
    if (line.startsWith('- Import `') || line.startsWith('- Reach `')) {
      const told = line.split(/ Not `/)[0]
      return [...told.matchAll(/(?: as |: import |: )`([^`]+)`/g)].map((match) => match[1])
    }
    // `original` → `rebased`, or `rebased` (`path`: names) where the spelling does not change.
    if (line.startsWith("- The style example's own imports")) return [...line.matchAll(/→ `([^`]+)`|`([^`]+)` \(`/g)].map((match) => match[1] ?? match[2])
    return []
  })
  return [...new Set(offers)]
}

const loadedAtHead = (imports: ImportLine[]) => new Set(imports.filter((line) => line.loads.head === true).map((line) => line.specifier))

test("the entry the repository's tests import (Liquid from the main module) is in the import list, with its exports; an anonymous default class exports `default`, not `extends`", async () => {
  const { pack } = await contextFor(
    {
      'package.json': JSON.stringify({ name: 'liquid-lite', main: 'dist/liquid.node.cjs.js', devDependencies: { jest: '^29' } }),
      'src/tag.ts': 'export class Tag {\n  render(input: string): string {\n    return input\n  }\n}\n',
      'src/tags/for.ts': "import { Tag } from '../tag'\n\nexport default class extends Tag {\n  render(input: string): string {\n    return input.split(',').join('')\n  }\n}\n",
      'src/liquid.ts': "import For from './tags/for'\n\nexport class Liquid {\n  parseAndRender(input: string): string {\n    return new For().render(input)\n  }\n}\n",
      'src/index.ts': "export * from './liquid'\nexport * from './tag'\n",
      'test/integration/tags/for.spec.ts':
        "import { Liquid } from '../../../src/liquid'\n\ndescribe('tags/for', () => {\n  it('renders', () => {\n    expect(new Liquid().parseAndRender('a,b')).toBe('ab')\n  })\n})\n"
    },
    { 'src/tags/for.ts': "import { Tag } from '../tag'\n\nexport default class extends Tag {\n  render(input: string): string {\n    return input.split(',').join(' ')\n  }\n}\n" },
    'jest'
  )
  const conventions = renderConventions(pack, 'test/regression/fix.test.ts')
  // The changed module's own line, and the entry the example takes `Liquid` from, named with what it exports.
  expect(conventions).toMatch(/^- Import `src\/tags\/for\.ts` as `\.\.\/\.\.\/src\/tags\/for`\.$/m)
  expect(conventions).toContain("`../../../src/liquid` → `../../src/liquid` (`src/liquid.ts`: `Liquid`)")
  expect(offeredSpecifiers(conventions)).toEqual(['../../src/tags/for', '../../src/tag', '../../src/liquid'])
  // Nothing forbids using it: the changed code's import is not "the one import".
  expect(conventions).not.toMatch(/one import per changed module|exactly as given/)
  const code = renderContext(pack)
  expect(code).toMatch(/### src\/tags\/for\.ts\n\nExports: `default`\.\n/)
  expect(code).not.toContain('`extends`')
})

test("a package's own entry (`index.mjs`) is in the import list when its tests import the package by name", async () => {
  const serializer = (quote: string) => `export function serialize(value) {\n  return ${quote} + String(value) + ${quote}\n}\n`
  const { pack } = await contextFor(
    {
      'package.json': JSON.stringify({ name: 'ser-lite', type: 'module', exports: { '.': { import: './index.mjs' } }, scripts: { test: 'node --test' } }),
      'index.mjs': "export { serialize } from './lib/serialize.mjs'\n",
      'lib/serialize.mjs': serializer("'\"'"),
      'test/serialize.test.mjs': "import { test } from 'node:test'\nimport assert from 'node:assert/strict'\nimport { serialize } from 'ser-lite'\n\ntest('quotes', () => assert.equal(serialize(1), '\"1\"'))\n"
    },
    { 'lib/serialize.mjs': serializer('JSON.stringify("\\"")') },
    'node-test'
  )
  const conventions = renderConventions(pack, 'test/regression/fix.test.mjs')
  expect(conventions).toMatch(/^- Reach `lib\/serialize\.mjs` through `index\.mjs`, which imports it: import `\.\.\/\.\.\/index\.mjs`\. Only for a name it does not export: `\.\.\/\.\.\/lib\/serialize\.mjs`\.$/m)
  expect(renderContext(pack)).toContain('### index.mjs (the public API around the changed module: test through it)\n\nExports: `serialize`.')
})

test('an index that re-exports everything lists what it re-exports, never "none"', async () => {
  const { pack } = await contextFor(
    {
      'package.json': JSON.stringify({ name: 'parse-lite', main: 'dist/index.js', devDependencies: { jest: '^29' } }),
      'src/index.js': "export * from './parser.js'\nexport * as formats from './formats.js'\n",
      'src/parser.js': 'export function parse(text) {\n  return text.split(",")\n}\n',
      'src/formats.js': 'export const csv = ","\n'
    },
    { 'src/parser.js': 'export function parse(text) {\n  return text.split(",").map((part) => part.trim())\n}\n' },
    'jest'
  )
  const code = renderContext(pack)
  expect(code).toContain("### src/index.js (the public API around the changed module: test through it)\n\nExports: `* from './parser.js'`, `formats`.")
  expect(code).not.toContain('(none')
})

test('a command-line entry (package.json bin, or a shebang line) is never offered as a module to import; the code it calls is', async () => {
  const run = (sep: string) => `export function run(args) {\n  return args.join(${JSON.stringify(sep)})\n}\n`
  const { pack } = await contextFor(
    {
      'package.json': JSON.stringify({ name: 'joiner', type: 'module', bin: { joiner: './bin/joiner.mjs' }, scripts: { test: 'node --test' } }),
      'bin/joiner.mjs': "#!/usr/bin/env node\nimport { run } from '../src/run.mjs'\nconsole.log(run(process.argv.slice(2)))\n",
      'src/run.mjs': run(','),
      // Named in the report, unchanged: a command run by its shebang.
      'src/stamp.mjs': "#!/usr/bin/env node\nimport { run } from './run.mjs'\nconsole.log(run(['v', '1']))\n",
      'test/run.test.mjs': "import { test } from 'node:test'\nimport assert from 'node:assert/strict'\nimport { run } from '../src/run.mjs'\n\ntest('joins', () => assert.equal(run(['a']), 'a'))\n"
    },
    { 'src/run.mjs': run(', '), 'bin/joiner.mjs': "#!/usr/bin/env node\nimport { run } from '../src/run.mjs'\nprocess.stdout.write(run(process.argv.slice(2)))\n" },
    'node-test',
    { bugReport: { title: 'joiner joins without a space', body: 'Running bin/joiner.mjs a b prints a,b; src/stamp.mjs prints v,1', source: 'linked-issues', truncated: false, issue: 3 } }
  )
  const conventions = renderConventions(pack, 'test/regression/issue-3.test.mjs')
  expect(pack.imports.map((line) => line.module)).not.toContain('bin/joiner.mjs')
  expect(pack.related).toContainEqual(expect.objectContaining({ path: 'src/stamp.mjs', role: 'named', commandLine: true }))
  expect(offeredSpecifiers(conventions).filter((specifier) => /bin\/|stamp/.test(specifier))).toEqual([])
  expect(conventions).toContain('- `bin/joiner.mjs` is a command-line entry: loading it runs the command, so no test imports it; test the code it calls.')
  expect(conventions).toMatch(/^- Import `src\/run\.mjs` as `\.\.\/\.\.\/src\/run\.mjs`\.$/m)
  expect(renderContext(pack)).toMatch(/### bin\/joiner\.mjs\n\nA command-line entry: loading it runs the command, so no test imports it/)
  expect(renderContext(pack)).toMatch(/### src\/stamp\.mjs \(named in the bug report\)\n\nA command-line entry/)
})

test('an extensionless ES module specifier that fails the import check is not offered: the one that loads is, and the failure is named with its error', async () => {
  const built = await contextFor(
    {
      'package.json': JSON.stringify({ name: 'split-esm', type: 'module', scripts: { test: 'node --test' } }),
      'src/split.js': "import { trim } from './trim.js'\n\nexport function split(text) {\n  return text.split(',')\n}\n",
      'src/trim.js': 'export const trim = (part) => part.trim()\n',
      // Written for a resolver Node no longer has (`--experimental-specifier-resolution=node`).
      'test/split.test.js': "import { test } from 'node:test'\nimport assert from 'node:assert/strict'\nimport { split } from '../src/split'\n\ntest('splits', () => assert.deepEqual(split('a'), ['a']))\n"
    },
    { 'src/split.js': "import { trim } from './trim.js'\n\nexport function split(text) {\n  return text.split(',').map(trim)\n}\n" },
    'node-test'
  )
  expect(built.pack.imports[0].specifier).toBe('../../src/split')
  const pack = await checked(built)
  const conventions = renderConventions(pack, 'test/regression/fix.test.js')
  expect(loadedAtHead(pack.imports)).toEqual(new Set(['../../src/split.js']))
  // The module the changed code imports is offered in the spelling that loaded, not the example's.
  expect(conventions).toMatch(/^- Import `src\/trim\.js` as `\.\.\/\.\.\/src\/trim\.js`\.$/m)
  expect(offeredSpecifiers(conventions).length).toBeGreaterThan(1)
  for (const specifier of offeredSpecifiers(conventions)) expect(specifier).toMatch(/\.js$/)
  expect(conventions).toMatch(/^- Import `src\/split\.js` as `\.\.\/\.\.\/src\/split\.js`\. Checked: it loads at head and before the fix\. Not `\.\.\/\.\.\/src\/split` \(Error \[ERR_MODULE_NOT_FOUND\]: Cannot find module '[^']*\/src\/split' imported from [^)]*\): it does not load\.$/m)
})

test('a .ts specifier that fails with TS5097 is not offered: the spelling that loads is, and TS5097 is named as the reason', async () => {
  const cart = (rate: string) => `export function total(prices: number[]): number {\n  return prices.reduce((sum, price) => sum + price * ${rate}, 0)\n}\n`
  const built = await contextFor(
    {
      'package.json': JSON.stringify({ name: 'cart-ts', devDependencies: { jest: '^29', 'ts-jest': '^29' } }),
      'jest.config.js': "module.exports = { preset: 'ts-jest', testEnvironment: 'node' }\n",
      'tsconfig.json': JSON.stringify({ compilerOptions: { target: 'ES2020', module: 'commonjs', strict: true, esModuleInterop: true, types: ['jest'] } }),
      'src/cart.ts': cart('1'),
      'test/cart.test.ts': "import { total } from '../src/cart.ts'\n\ntest('sums', () => expect(total([1])).toBe(1))\n"
    },
    { 'src/cart.ts': cart('1.0') },
    'jest'
  )
  expect(built.pack.imports[0].specifier).toBe('../../src/cart.ts')
  const pack = await checked(built)
  const conventions = renderConventions(pack, 'test/regression/fix.test.ts')
  const loaded = loadedAtHead(pack.imports)
  expect(loaded.has('../../src/cart.ts')).toBe(false)
  expect(loaded.has('../../src/cart')).toBe(true)
  for (const specifier of offeredSpecifiers(conventions)) expect(loaded).toContain(specifier)
  expect(conventions).toMatch(/^- Import `src\/cart\.ts` as `\.\.\/\.\.\/src\/cart`\. Checked: it loads at head and before the fix\. Not `\.\.\/\.\.\/src\/cart\.ts` \(.*TS5097.*\): it does not load\.$/m)
}, 180_000)

test('earlier reads: a whole page of read_file always fits; what is left out is named, and the rule says to read again only that', () => {
  const page = pageOf('src/big.ts', 'at head', `${'x'.repeat(LIMITS.charsPerLine)}\n`.repeat(LIMITS.linesPerRead), { path: 'src/big.ts' })
  const read = (summary: string) => ({ stage: 'analyse', summary, text: page.text })
  const blocks = renderEarlierWork([read('read src/big.ts lines 1-80 of 400 at head'), read('read src/other.ts lines 1-80 of 400 at head')], {})
  expect(page.text.length).toBeLessThanOrEqual(EARLIER_READS_CHARS)
  expect(blocks[0]).toContain(`### read src/big.ts lines 1-80 of 400 at head (analyse stage)\n${page.text}`)
  expect(blocks[1]).toBe('### read src/other.ts lines 1-80 of 400 at head (analyse stage)\n(Left out for size: read again what you need.)')
  // The read tools' rule points at that list, not at "never twice".
  const rules = loadPrompt('reading-tools')
  expect(rules).toContain('(only\n  what that section names as left out)')
  expect(rules).not.toMatch(/do not read it twice/)
})

test('scenarios are planned one input each, as the test writer writes one literal test per scenario (no tables, no computed titles)', () => {
  const planning = loadPrompt('scenarios')
  const writing = loadPrompt('write-tests')
  expect(planning).toMatch(/A scenario is one test of one concrete input, never a table of inputs/)
  expect(writing).toMatch(/write one test per scenario with a literal title, with no\s+loops, tables \(`test\.each`\) or computed titles/)
  // Only P0 and P1 become tests: the test writer is given exactly those.
  expect(planning).toContain('Only P0 and P1 scenarios become tests')
  expect(writing).toContain('Write runnable tests for every P0 and P1 scenario')
})
