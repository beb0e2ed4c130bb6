/** One import per changed module, from a real git history: the repository's tests decide the way in. */
import type { ImportLine } from '../../src/domain.js'
import { buildContext } from '../../src/context/context.js'
import { checkBySpelling, chosenImports } from '../../src/context/way-in.js'
import { readChangeSet } from '../../src/diff/change-set.js'
import { frameworkFor } from '../../src/frameworks/detect.js'
import { renderConventions } from '../../src/model/render.js'
import { createGit } from '../../src/ports/git.js'
import { scratchRepo } from '../support/scratch-repo.js'

const scratch = scratchRepo('rtg-way-in-')
const { git, commit } = scratch

/** The ways in buildContext finds for a fix that changes `changed` (`// fixed` appended). */
async function waysFor(files: Record<string, string>, changed: string, framework = 'jest') {
  git('init', '-q')
  const base = await commit(files)
  const head = await commit({ [changed]: `${files[changed]}// fixed\n` })
  const repo = createGit(scratch.dir)
  const context = await buildContext(await readChangeSet(repo, base, head), repo, await frameworkFor(scratch.dir, framework))
  return context.imports.map(({ specifier, through }) => ({ specifier, through }))
}

const JEST = JSON.stringify({ name: 'lib', main: 'dist/index.js', devDependencies: { jest: '^29' } })

test('a module the example tests import through an index that reaches it is imported through that index, then by itself', async () => {
  const ways = await waysFor(
    {
      'package.json': JEST,
      'src/index.js': "module.exports = require('./core')\n",
      'src/core.js': "const trap = require('./proxy/trap')\nmodule.exports = { produce: (x) => trap(x) }\n",
      'src/proxy/trap.js': 'module.exports = (x) => x\n',
      'test/produce.test.js': "const { produce } = require('../src')\ntest('p', () => expect(produce(1)).toBe(1))\n"
    },
    'src/proxy/trap.js'
  )
  expect(ways).toEqual([
    { specifier: '../../src', through: 'src/index.js' },
    { specifier: '../../src/proxy/trap', through: null }
  ])
})

test("an example that requires the package folder ('../..') goes through the entry its package.json names", async () => {
  const ways = await waysFor(
    {
      'package.json': JSON.stringify({ name: 'web', main: 'lib/application.js', devDependencies: { jest: '^29' } }),
      'lib/application.js': "const response = require('./response')\nmodule.exports = class App { get response() { return response } }\n",
      'lib/response.js': 'module.exports = { redirect(url) { this.location = url } }\n',
      '__tests__/response/redirect.js': "const App = require('../..')\ntest('r', () => expect(new App().response).toBeTruthy())\n"
    },
    'lib/response.js'
  )
  expect(ways).toEqual([
    { specifier: '../..', through: 'lib/application.js' },
    { specifier: '../../lib/response', through: null }
  ])
})

test('a module the example imports itself is imported itself, even when the index it also imports reaches it', async () => {
  const ways = await waysFor(
    {
      'package.json': JEST,
      'src/index.js': "module.exports = { ...require('./plugin/parse') }\n",
      'src/plugin/parse.js': 'module.exports = { parse: (s) => s }\n',
      'test/parse.test.js': "const lib = require('../src')\nconst { parse } = require('../src/plugin/parse')\ntest('p', () => expect(parse(lib)).toBe(lib))\n"
    },
    'src/plugin/parse.js'
  )
  expect(ways).toEqual([{ specifier: '../../src/plugin/parse', through: null }])
})

test('tests that import source modules directly, and no entry, keep to that: the module itself, not the package entry', async () => {
  const ways = await waysFor(
    {
      'package.json': JEST,
      'src/index.js': "module.exports = { ...require('./slugify'), ...require('./truncate') }\n",
      'src/slugify.js': "const { truncate } = require('./truncate')\nmodule.exports = { slugify: (s) => truncate(s) }\n",
      'src/truncate.js': 'module.exports = { truncate: (s) => s }\n',
      'test/slugify.test.js': "const { slugify } = require('../src/slugify')\ntest('s', () => expect(slugify('a')).toBe('a'))\n"
    },
    'src/truncate.js'
  )
  expect(ways).toEqual([{ specifier: '../../src/truncate', through: null }])
})

test('without a style example that says otherwise, the package entry (its build output mapped back to src/) when it reaches the module', async () => {
  const ways = await waysFor(
    {
      'package.json': JSON.stringify({ name: 'lib', exports: { '.': { import: './dist/esm/index.js', require: './dist/index.js' } }, devDependencies: { jest: '^29' } }),
      'src/index.ts': "export { total } from './cart.js'\n",
      'src/cart.ts': 'export const total = (n: number) => n\n',
      'src/unrelated.ts': 'export const x = 1\n'
    },
    'src/cart.ts'
  )
  // TypeScript: every spelling of each, the style's first, for the import check to keep the one that loads.
  expect(ways).toEqual([
    { specifier: '../../src', through: 'src/index.ts' },
    { specifier: '../../src/index.js', through: 'src/index.ts' },
    { specifier: '../../src/index.ts', through: 'src/index.ts' },
    { specifier: '../../src/cart', through: null },
    { specifier: '../../src/cart.js', through: null },
    { specifier: '../../src/cart.ts', through: null }
  ])
})

test('a module the package entry does not reach is imported itself', async () => {
  const ways = await waysFor(
    { 'package.json': JEST, 'src/index.js': "module.exports = require('./a')\n", 'src/a.js': 'module.exports = 1\n', 'src/tools/release.js': 'module.exports = 2\n' },
    'src/tools/release.js'
  )
  expect(ways).toEqual([{ specifier: '../../src/tools/release', through: null }])
})

test('a private Python module is imported through its package when the package names it', async () => {
  const ways = await waysFor(
    {
      'pyproject.toml': '[tool.pytest.ini_options]\n',
      'src/tomlish/__init__.py': 'from ._parser import loads\n',
      'src/tomlish/_parser.py': 'def loads(s):\n    return {}\n',
      'tests/test_loads.py': 'import tomlish\n\ndef test_loads():\n    assert tomlish.loads("") == {}\n'
    },
    'src/tomlish/_parser.py',
    'pytest'
  )
  expect(ways).toEqual([
    { specifier: 'tomlish', through: 'src/tomlish/__init__.py' },
    { specifier: 'tomlish._parser', through: null }
  ])
})

const line = (specifier: string, through: string | null, head: boolean | null, preFix: boolean | null, error?: string): ImportLine => ({
  module: 'src/a.js',
  specifier,
  through,
  loads: { head, preFix },
  ...(error ? { error } : {})
})

test('the model is given, per module, the first way in not seen failing to load at head', () => {
  expect(chosenImports([line('../../src', 'src/index.ts', true, true), line('../../src/a', null, true, true)])).toEqual([line('../../src', 'src/index.ts', true, true)])
  expect(chosenImports([line('../../src', 'src/index.ts', false, false, 'Cannot find module'), line('../../src/a', null, true, true)])).toEqual([line('../../src/a', null, true, true)])
  // Unchecked, the first; failing everywhere, the first (the conventions then say it did not load).
  expect(chosenImports([line('../../src', 'src/index.ts', null, null), line('../../src/a', null, null, null)])).toEqual([line('../../src', 'src/index.ts', null, null)])
  expect(chosenImports([line('../../src', 'src/index.ts', false, false), line('../../src/a', null, false, false)])).toEqual([line('../../src', 'src/index.ts', false, false)])
})

test('the import check by spelling: the first spelling of each way in, the others only where it did not load at head', async () => {
  const lines = [line('../../src', 'src/index.ts', null, null), line('../../src/index.js', 'src/index.ts', null, null), line('../../src/a', null, null, null), line('../../src/a.js', null, null, null), line('../../src/a.ts', null, null, null)]
  const loads = new Map([['../../src', true], ['../../src/a', false], ['../../src/a.js', true], ['../../src/a.ts', false]])
  const rounds: string[][] = []
  const check = async (checked: ImportLine[]) => {
    rounds.push(checked.map((way) => way.specifier))
    return checked.map((way) => ({ ...way, loads: { head: loads.get(way.specifier)!, preFix: loads.get(way.specifier)! } }))
  }
  const result = await checkBySpelling(lines, check)
  // The entry's first spelling loads: its other is never loaded. The module's does not: its others are, in a second round.
  expect(rounds).toEqual([['../../src', '../../src/a'], ['../../src/a.js', '../../src/a.ts']])
  expect(result.map((way) => [way.specifier, way.loads.head])).toEqual([['../../src', true], ['../../src/a', false], ['../../src/a.js', true], ['../../src/a.ts', false]])
  // Nothing fails: one round.
  rounds.length = 0
  loads.set('../../src/a', true)
  expect((await checkBySpelling(lines, check)).map((way) => way.specifier)).toEqual(['../../src', '../../src/a'])
  expect(rounds).toHaveLength(1)
})

test('the conventions give the checked line, and say when it cannot load before the fix (a weak proof)', async () => {
  git('init', '-q')
  const base = await commit({ 'package.json': JEST, 'src/a.js': 'module.exports = 1\n', 'test/a.test.js': "const a = require('../src/a')\ntest('a', () => expect(a).toBe(1))\n" })
  const head = await commit({ 'src/a.js': 'module.exports = 2\n' })
  const repo = createGit(scratch.dir)
  const pack = await buildContext(await readChangeSet(repo, base, head), repo, await frameworkFor(scratch.dir, 'jest'))
  const render = (imports: ImportLine[]) => renderConventions({ ...pack, imports }, 'test/regression/a.test.js')
  expect(render([line('../../src/a', null, true, true)])).toMatch(/^- Import `src\/a\.js` as `\.\.\/\.\.\/src\/a`\. Checked: it loads at head and before the fix\.$/m)
  expect(render([line('../../src/a', null, true, false, "Cannot find module '../../src/a'")])).toMatch(
    /^- Import `src\/a\.js` as `\.\.\/\.\.\/src\/a`\. Checked: it loads at head, not before the fix \(Cannot find module '\.\.\/\.\.\/src\/a'\): a test file importing it fails there only by loading, a weak proof\./m
  )
  // Nothing loaded: no import is offered, only what failed and why.
  const none = render([line('../../src/a', null, false, false, 'SyntaxError')])
  expect(none).toMatch(/^- No import of `src\/a\.js` loaded at head: `\.\.\/\.\.\/src\/a` \(SyntaxError\)\. Read the module/m)
  expect(none).not.toMatch(/^- Import `src\/a\.js`/m)
})
