/** What the changed code calls from the modules it imports, and where those define it. */
import { calledNames, definitionLines, importBindings, usedNames } from '../../src/context/callees.js'
import { buildContext } from '../../src/context/context.js'
import { readChangeSet } from '../../src/diff/change-set.js'
import { frameworkFor } from '../../src/frameworks/detect.js'
import { renderContext } from '../../src/model/render.js'
import { createGit } from '../../src/ports/git.js'
import { scratchRepo } from '../support/scratch-repo.js'

test('the names a file binds from a module: named imports (renamed too), require destructuring, namespaces and defaults', () => {
  const file = [
    "import parse, { tokenize, Scanner as Lexer, type Token } from './lexer'",
    "import * as ast from './ast.js'",
    "const { walk, visit: visitNode } = require('./walk')",
    "const helpers = require('./helpers')",
    "import { other } from './other'"
  ].join('\n')
  expect(importBindings(file, './lexer')).toEqual({ named: new Map([['tokenize', 'tokenize'], ['Lexer', 'Scanner'], ['Token', 'Token']]), namespaces: ['parse'] })
  expect(importBindings(file, './ast.js')).toEqual({ named: new Map(), namespaces: ['ast'] })
  expect(importBindings(file, './walk')).toEqual({ named: new Map([['walk', 'walk'], ['visitNode', 'visit']]), namespaces: [] })
  expect(importBindings(file, './helpers')).toEqual({ named: new Map(), namespaces: ['helpers'] })
})

test('the exported names the changed code uses: bound names it mentions, and members of a namespace', () => {
  const bindings = { named: new Map([['Lexer', 'Scanner'], ['tokenize', 'tokenize']]), namespaces: ['ast'] }
  expect(usedNames(bindings, 'class Parser extends Lexer {\n  run() { return ast.node(ast.Kind.Root) }\n}')).toEqual(['Scanner', 'node', 'Kind'])
  expect(usedNames(bindings, 'const past = 1; myast.node()')).toEqual([])
})

test('top-level definitions: functions, classes, interfaces, consts and exports properties; not a mention', () => {
  const module = ['export class Scanner {', '  node() {}', '}', 'function node() {}', 'export const Kind = {}', 'exports.walk = () => 1', 'const other = node()'].join('\n')
  expect(definitionLines(module, ['Scanner', 'node', 'Kind', 'walk'])).toEqual([1, 4, 5, 6])
  expect(definitionLines(module, [])).toEqual([])
})

const scratch = scratchRepo('rtg-callees-')
const { git, commit } = scratch

test('a large module the changed code imports is shown by the definitions it uses from there: the base class, the helper it calls', async () => {
  const filler = Array.from({ length: 300 }, (_, i) => `export function unrelated${i}(x) {\n  return x + ${i}\n}\n`).join('\n')
  git('init', '-q')
  const base = await commit({
    'package.json': JSON.stringify({ devDependencies: { jest: '^29' } }),
    'src/base.js': `${filler}\nexport class Store {\n  constructor() {\n    this.items = []\n  }\n}\n\nexport function clamp(n, max) {\n  return Math.min(n, max)\n}\n`,
    'src/cart.js': "import { Store, clamp, unrelated1 } from './base.js'\n\nexport class Cart extends Store {\n  add(n) {\n    this.items.push(n)\n  }\n}\n",
    'test/cart.test.js': "import { Cart } from '../src/cart.js'\ntest('c', () => {})\n"
  })
  const head = await commit({ 'src/cart.js': "import { Store, clamp, unrelated1 } from './base.js'\n\nexport class Cart extends Store {\n  add(n) {\n    this.items.push(clamp(n, 10))\n  }\n}\n" })
  const repo = createGit(scratch.dir)
  const context = await buildContext(await readChangeSet(repo, base, head), repo, await frameworkFor(scratch.dir, 'jest'))
  const base_ = context.related.find((module) => module.path === 'src/base.js')!
  expect(base_.role).toBe('called')
  expect(base_.content).toContain('export class Store {\n  constructor() {')
  expect(base_.content).toContain('export function clamp(n, max) {')
  // Imported but not used by the changed code: not shown.
  expect(base_.content).not.toContain('unrelated1(')
  expect(renderContext(context)).toContain('### src/base.js (imported by the changed code; the definitions it uses from there)')
})

test('the names code calls, constructs or extends; not keywords, not methods of other objects', () => {
  expect(calledNames('if (isEmpty(list)) return new Cart(clamp(n, 10)).items.map(fn)\nclass Box extends Store {}')).toEqual(['isEmpty', 'Cart', 'clamp', 'Store'])
  expect(calledNames('class Wrapper(_WrapperBase, Generic):\n    def __call__(self):\n        return helper(self)\n\nfunction run() { go() }')).toEqual(['helper', 'go', '_WrapperBase', 'Generic'])
})

test('a changed file too large to show whole shows the definitions in it that its changed lines call', async () => {
  const filler = Array.from({ length: 600 }, (_, i) => `export function unrelated${i}(x) {\n  return x + ${i}\n}\n`).join('\n')
  const helper = 'function normalise(n) {\n  return Math.max(0, n)\n}\n'
  const total = (body: string) => `export function total(n) {\n  return ${body}\n}\n`
  git('init', '-q')
  const base = await commit({ 'package.json': JSON.stringify({ devDependencies: { jest: '^29' } }), 'src/big.js': `${helper}\n${filler}\n${total('n')}` })
  const head = await commit({ 'src/big.js': `${helper}\n${filler}\n${total('normalise(n)')}` })
  const repo = createGit(scratch.dir)
  const context = await buildContext(await readChangeSet(repo, base, head), repo, await frameworkFor(scratch.dir, 'jest'))
  const shown = context.sources[0].head
  expect(shown.map((excerpt) => excerpt.name)).toEqual(expect.arrayContaining(['normalise', 'total']))
  expect(shown.some((excerpt) => excerpt.code.includes('unrelated1('))).toBe(false)
})

test('definitions nested in another function are found only when asked for (a module whose code lives in one function)', () => {
  const module = 'function parse (args) {\n  function setArg (key) {\n    return key\n  }\n  const toKey = (arg) => arg\n  return setArg(toKey(args))\n}\n'
  expect(definitionLines(module, ['setArg', 'toKey'])).toEqual([])
  expect(definitionLines(module, ['setArg', 'toKey'], { nested: true })).toEqual([2, 5])
})
