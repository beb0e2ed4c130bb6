import { LARGE_MODULE_CODE, OUTLINE_LIMIT } from '../../src/context/budget.js'
import { definitionLines } from '../../src/context/callees.js'
import { excerptsFor, exportedNames, exportStatementLines, OUTLINE, planExcerpts, WHOLE_FILE_LIMIT } from '../../src/context/functions.js'

const padding = Array.from({ length: 400 }, (_, i) => `// filler line ${i} ${'x'.repeat(40)}`).join('\n')

test('a small file is given whole', () => {
  expect(excerptsFor('export const a = 1\n', [1])).toEqual([{ name: '(whole file)', startLine: 1, code: 'export const a = 1\n' }])
})

test('a large file gives the enclosing method of each changed line, once', () => {
  const code = `${padding}\nexport class Transport {\n  private budget = 1\n\n  async _open(request: string): Promise<void> {\n    const budget = this.budget\n    if (budget > 0) {\n      return\n    }\n  }\n\n  close() {\n    return 1\n  }\n}\n${padding}`
  expect(code.length).toBeGreaterThan(WHOLE_FILE_LIMIT)
  const line = (text: string) => code.split('\n').findIndex((l) => l.includes(text)) + 1
  const excerpts = excerptsFor(code, [line('const budget'), line('return\n') || line('      return')])
  expect(excerpts).toHaveLength(1)
  expect(excerpts[0].name).toBe('_open')
  expect(excerpts[0].code.split('\n')[0]).toContain('async _open')
  expect(excerpts[0].code.trim().endsWith('}')).toBe(true)
  expect(excerpts[0].code).not.toContain('close()')
})

test('a changed helper nested in a changed function is shown once, inside it; the export statement is found', () => {
  const code = `${padding}\nfunction parse(args) {\n  let flags = 1\n  function eatNargs(i) {\n    return i + flags\n  }\n  return eatNargs(args)\n}\n${padding}\nmodule.exports = parse\n`
  const line = (text: string) => code.split('\n').findIndex((l) => l.includes(text)) + 1
  const excerpts = excerptsFor(code, [line('let flags'), line('return i + flags'), ...exportStatementLines(code)])
  expect(excerpts.map((excerpt) => excerpt.name)).toEqual(['parse', `(lines around ${line('module.exports')})`])
  expect(excerpts[0].code).toContain('function eatNargs')
  expect(excerpts[1].code).toContain('module.exports = parse')
  expect(exportStatementLines('export default x\nconst y = 1\nexport { y }\n')).toEqual([1, 3])
})

test('python blocks end by indentation', () => {
  const code = `${padding.replace(/\/\//g, '#')}\ndef parse(value):\n    if value:\n        return 1\n    return 2\n\ndef other():\n    return 3\n`
  const line = code.split('\n').findIndex((l) => l.includes('return 1')) + 1
  const [excerpt] = excerptsFor(code, [line])
  expect(excerpt.name).toBe('parse')
  expect(excerpt.code).toContain('return 2')
  expect(excerpt.code).not.toContain('other')
})

test('exported names from ESM, CommonJS and Python', () => {
  expect(exportedNames('export class A {}\nexport function b() {}\nexport const c = 1\nexport { d, e as f }\nexport default g')).toEqual(
    expect.arrayContaining(['A', 'b', 'c', 'd', 'f', 'default'])
  )
  expect(exportedNames('module.exports = { parse, format: fmt }\nexports.helper = 1')).toEqual(expect.arrayContaining(['parse', 'format', 'helper']))
  expect(exportedNames("__all__ = ['load', 'dump']\ndef other(): pass")).toEqual(['load', 'dump'])
  expect(exportedNames('__all__ = (\n    "Cache",\n    "cachedmethod",\n)\n__all__ += ["extra"]\ndef other(): pass')).toEqual(['Cache', 'cachedmethod', 'extra'])
  expect(exportedNames('__all__ = ()\n\ndef _wrapper(): pass')).toEqual([])
  // A prototype object of methods and accessors (koa's lib/response.js): only its own keys, none from the bodies.
  const prototype = "module.exports = {\n  get status() { return this.res.statusCode },\n  set status(code) { if (code) { this.res.statusCode = code } },\n  redirect(url, alt) {\n    const inner = { notAKey: 1 }\n    return [inner, alt]\n  },\n  'is': is,\n  async *stream() {},\n  ...mixin,\n  get(field) { return field }\n}\n"
  expect(exportedNames(prototype).sort()).toEqual(['get', 'is', 'redirect', 'status', 'stream'])
  // Its keys under JSDoc comments whose words and commas are no keys (koa's shape), and strings with brackets.
  const documented = "module.exports = {\n  /**\n   * Set header `field` to `val`, alias as response.header, when Referrer is set.\n   * @param {String} url\n   */\n\n  redirect (url, alt) {\n    if ('back' === url) url = this.ctx.get('Referrer') || alt || '/' // the '/' default, when none\n    this.set('Location', encodeUrl(url) + '{[(')\n  },\n\n  /** Check if the response is writable, for (a) or (b). */\n  get writable () {\n    return true\n  },\n  set etag (val) {\n    if (!/^(W\\/)?\"/.test(val)) val = `\"${val}\"`\n  },\n  get etag () { return 1 / 2 / 3 }\n}\n"
  expect(exportedNames(documented).sort()).toEqual(['etag', 'redirect', 'writable'])
  expect(exportedNames('def apply_discount(total):\n    pass\n\nclass Tier:\n    pass\n\ndef _private():\n    pass\n')).toEqual(['apply_discount', 'Tier'])
  expect(exportedNames('class Parser {\n}\n')).toEqual([])
})

describe('within a budget', () => {
  // A file with no declarations: every changed line is shown through a window around it.
  const table = ['const RATES = [', ...Array.from({ length: 2_000 }, (_, i) => `  ${i}, // row ${i}`), ']'].join('\n')
  const lineOf = (code: string, text: string) => code.split('\n').findIndex((line) => line.includes(text)) + 1

  test('windows around changed lines that overlap become one: each line is shown once', () => {
    const changed = Array.from({ length: 200 }, (_, i) => 500 + i)
    const excerpts = excerptsFor(table, changed)
    expect(excerpts).toEqual([{ name: '(lines 485 to 714)', startLine: 485, code: table.split('\n').slice(484, 714).join('\n') }])
  })

  test('a window stops short of the changed function beside it, which is shown whole', () => {
    const code = `${table}\nfunction refund(balance, amount) {\n  if (amount < 0) return balance\n  return balance + amount\n}\n`
    const guard = lineOf(code, 'if (amount < 0)')
    const excerpts = excerptsFor(code, [guard - 7, guard])
    expect(excerpts.map((excerpt) => excerpt.name)).toEqual([`(lines around ${guard - 7})`, 'refund'])
    expect(excerpts[0].code.split('\n').pop()).toBe(']')
    expect(excerpts[1].code).toBe('function refund(balance, amount) {\n  if (amount < 0) return balance\n  return balance + amount\n}')
  })

  test('a block longer than its allowance keeps its first lines and the changed lines, the gaps marked', () => {
    const body = Array.from({ length: 3_000 }, (_, i) => `  total += ${i} // step ${i}`)
    const code = `${padding}\nfunction sum() {\n  let total = 0\n${body.join('\n')}\n  return total\n}\n`
    const changed = lineOf(code, 'step 1500')
    const [excerpt] = excerptsFor(code, [changed], 2_000)
    expect(excerpt.name).toBe('sum')
    expect(excerpt.code.length).toBeLessThanOrEqual(2_000)
    expect(excerpt.code).toMatch(/^function sum\(\) \{\n  let total = 0\n  total \+= 0 \/\/ step 0\n\[… \d+ lines left out\]\n/)
    expect(excerpt.code).toContain('  total += 1500 // step 1500')
    expect(excerpt.code).toMatch(/\n\[… \d+ lines left out\]$/)
  })

  test('blocks beyond the allowance are counted in one closing marker', () => {
    const functions = Array.from({ length: 400 }, (_, i) => `function f${i}(x) {\n  return x + ${i}\n}`).join('\n')
    const changed = Array.from({ length: 400 }, (_, i) => 3 * i + 2)
    const excerpts = excerptsFor(functions, changed, 5_000)
    const marker = excerpts[excerpts.length - 1]
    const shown = excerpts.length - 1
    expect(shown).toBeGreaterThan(10)
    expect(excerpts.slice(0, shown).map((excerpt) => excerpt.name)).toEqual(Array.from({ length: shown }, (_, i) => `f${i}`))
    expect(marker.name).toMatch(new RegExp(`^\\(${400 - shown} more changed blocks left out: f${shown}, `))
    expect(marker.code).toBe(`[… ${3 * (400 - shown)} lines left out]`)
  })
})

test('an unclosed quote followed by escapes is no string, and the braces after it still match', () => {
  // The regex this scan replaced backtracked exponentially here: 60 escapes would never have finished.
  const code = `${padding}\nfunction quoted() {\n  const s = '${'\\a'.repeat(60)}\n  return { s }\n}\nfunction next() {}\n`
  const [excerpt] = excerptsFor(code, [code.split('\n').findIndex((line) => line.includes('return { s }')) + 1])
  expect(excerpt.name).toBe('quoted')
  expect(excerpt.code.endsWith('return { s }\n}')).toBe(true)
})

test('exported names past long runs of blank lines and unclosed lists, comments and strings', () => {
  expect(exportedNames(`${'\n'.repeat(80_000)}export function last() {}\n`)).toEqual(['last'])
  expect(exportedNames(`export { a }\n${'export {\n'.repeat(20_000)}`)).toEqual(['a'])
  expect(exportedNames(`module.exports = { parse, 'format': fmt }\n${'/* unclosed '.repeat(5_000)}`).sort()).toEqual(['format', 'parse'])
  expect(exportedNames(`module.exports = {\n  re: /[/"']/, key: '"',\n  last }\nconst s = "${'\\"'.repeat(20_000)}\n`).sort()).toEqual(['key', 'last', 're'])
})

test('a changed function too long to show whole shows its signature, the nested function around each change whole, the nested callee, and an outline of the rest', () => {
  const nested = (name: string, body: string) => [`  function ${name} (key) {`, ...Array.from({ length: 12 }, (_, i) => `    // ${name} step ${i}`), `    ${body}`, '  }', '']
  const lines = [
    "const path = require('path')",
    '',
    'function parse (args, opts) {',
    '  const flags = {}',
    ...Array.from({ length: 400 }, (_, i) => `  args.push(${i}) // the long body of parse, line ${i}`),
    '  const value = eatArray(args, opts)',
    ...nested('eatArray', 'return setArg(key)'),
    ...Array.from({ length: 300 }, (_, i) => `  // more of parse ${i} ${'y'.repeat(30)}`),
    ...nested('setArg', 'return key'),
    ...nested('unrelated', 'return 0'),
    '  return value',
    '}',
    '',
    'module.exports = parse',
    ''
  ]
  const code = lines.join('\n')
  const at = (text: string) => lines.findIndex((line) => line.includes(text)) + 1
  const plan = planExcerpts(code, [at('const value = eatArray'), at('return setArg(key)')], (all) => [...exportStatementLines(all), ...definitionLines(all, ['eatArray', 'setArg'], { nested: true })], { outline: true })
  const excerpts = plan.show(LARGE_MODULE_CODE + OUTLINE_LIMIT)
  expect(excerpts.map((excerpt) => excerpt.name)).toEqual(['parse', `(lines around ${at('module.exports')})`, OUTLINE])
  const parse = excerpts[0].code
  expect(parse.split('\n')[0]).toBe('function parse (args, opts) {')
  expect(parse).toContain('  const value = eatArray(args, opts)')
  expect(parse).toContain(nested('eatArray', 'return setArg(key)').slice(0, -1).join('\n'))
  expect(parse).toContain(nested('setArg', 'return key').slice(0, -1).join('\n'))
  expect(parse).not.toContain('unrelated')
  expect(parse).toMatch(/\[… \d+ lines left out\]/)
  expect(parse.length).toBeLessThan(code.length / 4)
  expect(excerpts[1].code).toContain('module.exports = parse')
  expect(excerpts[2].code).toBe(`const path = require('path')\n\n${at('function unrelated')}:   function unrelated (key) {`)
})
