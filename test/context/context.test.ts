/** The context pack from a real git history: which test is the style example, and what the model is told to import. */
import { CONTEXT_BUDGET } from '../../src/context/budget.js'
import { buildContext } from '../../src/context/context.js'
import { readChangeSet } from '../../src/diff/change-set.js'
import { frameworkFor } from '../../src/frameworks/detect.js'
import { renderContext, renderConventions } from '../../src/model/render.js'
import { createGit } from '../../src/ports/git.js'
import { scratchRepo } from '../support/scratch-repo.js'

const scratch = scratchRepo('rtg-context-')
const { git, commit } = scratch

test("the test the fix changed is the style example, as it was before the fix, even over a test named like the module", async () => {
  git('init', '-q')
  const base = await commit({
    'package.json': JSON.stringify({ devDependencies: { jest: '^29' } }),
    'lib/response.js': "module.exports = {\n  redirect(url) {\n    this.location = url\n  }\n}\n",
    '__tests__/application/response.js': "const app = require('../..')\ntest('response', () => {})\n",
    '__tests__/response/redirect.js': "const request = require('supertest')\ntest('redirects', () => {})\n"
  })
  const head = await commit({
    'lib/response.js': "module.exports = {\n  redirect(url) {\n    this.location = new URL(url).href\n  }\n}\n",
    '__tests__/response/redirect.js': "const request = require('supertest')\ntest('redirects', () => {})\ntest('the fix', () => {})\n"
  })
  const repo = createGit(scratch.dir)
  const context = await buildContext(await readChangeSet(repo, base, head), repo, await frameworkFor(scratch.dir, 'jest'))
  expect(context.styleExample).toEqual({ path: '__tests__/response/redirect.js', content: "const request = require('supertest')\ntest('redirects', () => {})\n", changedByFix: true })
  expect(context.sources[0].exports).toEqual(['redirect'])
  // Its expectations may be the ones the fix changed: the model is told to follow the fix.
  expect(renderConventions(context, '__tests__/regression/a.test.js')).toContain(
    "(`__tests__/response/redirect.js`, as it was before the fix; the fix changed it, so where it expects the behaviour the fix changes it still shows the old, wrong one: follow the fix, not those expectations):\n```js\nconst request"
  )
})

test('a long style example is cut at a blank line and says which lines it leaves out (for read_file)', async () => {
  git('init', '-q')
  const blocks = Array.from({ length: 500 }, (_, i) => `test('case ${i}', () => {\n  expect(${i}).toBe(${i})\n})\n`)
  const example = `const { add } = require('../src/add')\n\n${blocks.join('\n')}`
  const base = await commit({ 'package.json': JSON.stringify({ devDependencies: { jest: '^29' } }), 'src/add.js': 'module.exports = { add: (a, b) => a + b }\n', 'test/add.test.js': example })
  const head = await commit({ 'src/add.js': 'module.exports = { add: (a, b) => Number(a) + Number(b) }\n' })
  const repo = createGit(scratch.dir)
  const context = await buildContext(await readChangeSet(repo, base, head), repo, await frameworkFor(scratch.dir, 'jest'))
  const shown = context.styleExample!.content
  expect(context.styleExample!.changedByFix).toBeUndefined()
  expect(renderConventions(context, 'test/regression/a.test.js')).toContain('(`test/add.test.js`, as it was before the fix):\n')
  const [, from, to] = /… \(lines (\d+)-(\d+) of the file are left out\)$/.exec(shown)!
  const lines = example.split('\n')
  expect(Number(to)).toBe(lines.length - 1)
  // The first line left out is the one after the last line shown (and the blank line that ends it).
  expect(shown.split('\n').slice(0, Number(from) - 1).join('\n')).toBe(lines.slice(0, Number(from) - 1).join('\n'))
  expect(lines[Number(from) - 1]).toMatch(/^test\('case \d+'/)
})

test('the conventions say how the tests run: TypeScript type-checked under ts-jest, the Node version; nothing on types for JavaScript', async () => {
  git('init', '-q')
  const base = await commit({
    'package.json': JSON.stringify({ devDependencies: { jest: '^29', 'ts-jest': '^29' } }),
    'jest.config.js': "module.exports = { preset: 'ts-jest' }\n",
    'src/cart.ts': 'export interface Cart { add(id: string): void }\nexport const total = (n: number) => n\n',
    'src/plain.js': 'module.exports = 1\n',
    'test/cart.test.ts': "import { total } from '../src/cart'\ntest('total', () => expect(total(1)).toBe(1))\n"
  })
  const head = await commit({ 'src/cart.ts': 'export interface Cart { add(id: string): void; clear(): void }\nexport const total = (n: number) => n\n' })
  const repo = createGit(scratch.dir)
  const context = await buildContext(await readChangeSet(repo, base, head), repo, await frameworkFor(scratch.dir, 'jest'))
  const conventions = renderConventions(context, 'test/regression/a.test.ts')
  expect(conventions).toMatch(/^- TypeScript tests are type-checked: a type error fails the whole file \(before the fix too\).* \(ts-jest\)\.$/m)
  expect(conventions).toMatch(/^- Node \d+\.\d+\.\d+ runs the tests\.$/m)

  const jsHead = await commit({ 'src/plain.js': 'module.exports = 2\n' })
  const jsContext = await buildContext(await readChangeSet(repo, head, jsHead), repo, await frameworkFor(scratch.dir, 'jest'))
  expect(jsContext.runtime.some((fact) => fact.startsWith('TypeScript'))).toBe(false)
  expect(renderConventions(jsContext, 'test/regression/a.test.js')).not.toContain('TypeScript tests are')
})

test('a module the fix added is marked: a file importing it cannot load before the fix', async () => {
  git('init', '-q')
  const base = await commit({ 'package.json': JSON.stringify({ devDependencies: { jest: '^29' } }), 'src/range.js': 'module.exports = { range: () => [] }\n', 'test/range.test.js': "test('r', () => {})\n" })
  const head = await commit({ 'src/range.js': "const { step } = require('./step')\nmodule.exports = { range: () => [step()] }\n", 'src/step.js': 'module.exports = { step: () => 1 }\n' })
  const repo = createGit(scratch.dir)
  const conventions = renderConventions(await buildContext(await readChangeSet(repo, base, head), repo, await frameworkFor(scratch.dir, 'jest')), 'test/regression/a.test.js')
  expect(conventions).toMatch(/^- Import `src\/step\.js` as `\.\.\/\.\.\/src\/step`\. The fix added this module: before the fix there is nothing to import/m)
  expect(conventions).toMatch(/^- Import `src\/range\.js` as `\.\.\/\.\.\/src\/range`\.$/m)
})

test('a module the fix did not change is given apart from the changed ones: imported only where a test needs it', async () => {
  git('init', '-q')
  const base = await commit({
    'package.json': JSON.stringify({ devDependencies: { jest: '^29' } }),
    'src/step.js': 'module.exports = { step: () => 1 }\n',
    'src/range.js': "const { step } = require('./step')\nmodule.exports = { range: () => [] }\n",
    'test/range.test.js': "test('r', () => {})\n"
  })
  const head = await commit({ 'src/range.js': "const { step } = require('./step')\nmodule.exports = { range: () => [step()] }\n" })
  const repo = createGit(scratch.dir)
  const conventions = renderConventions(await buildContext(await readChangeSet(repo, base, head), repo, await frameworkFor(scratch.dir, 'jest')), 'test/regression/a.test.js')
  const lines = conventions.split('\n')
  const at = (pattern: RegExp) => lines.findIndex((line) => pattern.test(line))
  const changed = at(/^- Import `src\/range\.js` as `\.\.\/\.\.\/src\/range`\.$/)
  const apart = at(/^- The other modules shown are not changed by the fix: import one only where a test needs it/)
  const unchanged = at(/^- Import `src\/step\.js` as `\.\.\/\.\.\/src\/step`\.$/)
  expect(changed).toBeGreaterThan(at(/^- Import the changed code as given here:$/))
  expect(apart).toBeGreaterThan(changed)
  expect(unchanged).toBeGreaterThan(apart)
})

test('a private Python module is shown with the public API around it: the code in its package that names it', async () => {
  git('init', '-q')
  // A package big enough to be shown by parts: only the wrapper that uses the private module.
  const filler = Array.from({ length: 700 }, (_, i) => `def helper_${i}():\n    return ${i}\n`).join('\n')
  const init = `${filler}\n\ndef cachedmethod(cache, key=None):\n    """Decorator for methods."""\n    from ._cachedmethod import _wrapper\n    return _wrapper(cache, key)\n`
  const base = await commit({
    'pyproject.toml': '[project]\nname = "pkg"\n',
    'src/pkg/__init__.py': init,
    'src/pkg/_cachedmethod.py': '__all__ = ()\n\ndef _wrapper(cache, key):\n    return cache\n',
    'tests/test_pkg.py': 'from pkg import cachedmethod\n\ndef test_it():\n    assert cachedmethod\n'
  })
  const head = await commit({ 'src/pkg/_cachedmethod.py': '__all__ = ()\n\ndef _wrapper(cache, key):\n    return cache or {}\n' })
  const repo = createGit(scratch.dir)
  const context = await buildContext(await readChangeSet(repo, base, head), repo, await frameworkFor(scratch.dir, 'pytest'))
  expect(context.related).toEqual([
    {
      path: 'src/pkg/__init__.py',
      role: 'wrapper',
      importSpecifier: 'pkg',
      exports: expect.arrayContaining(['cachedmethod', 'helper_0']),
      content: 'def cachedmethod(cache, key=None):\n    """Decorator for methods."""\n    from ._cachedmethod import _wrapper\n    return _wrapper(cache, key)'
    }
  ])
})

test('a source file the bug report names is shown whole, after the changed code', async () => {
  git('init', '-q')
  const base = await commit({
    'package.json': JSON.stringify({ devDependencies: { jest: '^29' } }),
    'src/parse.js': "module.exports = function parse(text, locale) {\n  return text === 'AM'\n}\n",
    'src/locale/zh-cn.js': "module.exports = { name: 'zh-cn', meridiem: (hour) => (hour < 12 ? '上午' : '下午') }\n",
    'src/locale/en.js': "module.exports = { name: 'en' }\n",
    'test/parse.test.js': "test('parse', () => {})\n"
  })
  const head = await commit({ 'src/parse.js': "module.exports = function parse(text, locale) {\n  return text === locale.meridiem(1)\n}\n" })
  const repo = createGit(scratch.dir)
  const report = { title: 'parse of A fails in zh-cn', body: 'Works with en.', source: 'issue-text' as const, truncated: false, issue: null }
  const context = await buildContext(await readChangeSet(repo, base, head), repo, await frameworkFor(scratch.dir, 'jest'), { bugReport: report })
  expect(context.related.map(({ path, role }) => ({ path, role }))).toEqual([{ path: 'src/locale/zh-cn.js', role: 'named' }])
  expect(context.related[0].content).toContain('meridiem')
})

test('a fix touching more source files than are shown names the rest at the end of the last one shown', async () => {
  git('init', '-q')
  const files = (version: number) => Object.fromEntries(Array.from({ length: 14 }, (_, i) => [`src/m${String(i).padStart(2, '0')}.js`, `module.exports = ${version}\n`]))
  const base = await commit({ 'package.json': JSON.stringify({ devDependencies: { jest: '^29' } }), 'test/m.test.js': "test('m', () => {})\n", ...files(1) })
  const head = await commit(files(2))
  const repo = createGit(scratch.dir)
  const context = await buildContext(await readChangeSet(repo, base, head), repo, await frameworkFor(scratch.dir, 'jest'))
  expect(context.sources.map((source) => source.path)).toEqual(Array.from({ length: 12 }, (_, i) => `src/m${String(i).padStart(2, '0')}.js`))
  expect(context.sources[11].diff).toMatch(/\n\[… 2 more changed source files left out: src\/m12\.js, src\/m13\.js\]$/)
  expect(context.sources[0].diff).not.toContain('left out')
})

test('a changed file too large to read is shown by its hunks only, within the budget', async () => {
  git('init', '-q')
  const rows = (changed: number) => Array.from({ length: 110_000 }, (_, i) => `  ${i === 55_000 ? changed : i}, // a row of the generated table`).join('\n')
  const base = await commit({ 'package.json': JSON.stringify({ devDependencies: { jest: '^29' } }), 'test/table.test.js': "test('t', () => {})\n", 'src/table.js': `module.exports = [\n${rows(1)}\n]\n` })
  const head = await commit({ 'src/table.js': `module.exports = [\n${rows(2)}\n]\n` })
  const repo = createGit(scratch.dir)
  const context = await buildContext(await readChangeSet(repo, base, head), repo, await frameworkFor(scratch.dir, 'jest'))
  const [source] = context.sources
  expect(source.diff).toMatch(/^\[src\/table\.js is \d+ bytes, too large to read: shown by its hunks only\]\n@@ /)
  expect(source.diff).toContain('-  1, // a row of the generated table\n+  2, // a row of the generated table')
  expect(source.head).toEqual([])
  expect(source.base).toEqual([])
  expect(renderContext(context).length + renderConventions(context, 'test/regression/x.test.js').length).toBeLessThanOrEqual(CONTEXT_BUDGET)
})
