/**
 * Code around the change that a test needs and the diff does not show: the modules the changed files
 * import, the public API around a private changed module, files the bug report names, and the style
 * example's own imports as seen from the regression folder.
 */
import { posix } from 'node:path'
import type { RebasedImport, RelatedModule } from '../domain.js'
import { PIECE_OVERHEAD, type Budget } from './budget.js'
import { escapeRegExp } from '../regexp.js'
import { definitionLines, importBindings, usedNames } from './callees.js'
import { excerptsFor, exportedNames, exportStatementLines } from './functions.js'
import type { FileReader } from './read.js'

const MAX_RELATED = 4
const RELATED_WHOLE_LIMIT = 6_000
/** An entry up to this size is shown whole: an index is mostly the lines that lead to the code. */
const ENTRY_WHOLE_LIMIT = 3_000
/** Changed files whose imports are followed; packages read for the wrapper of a private changed module. */
const MAX_SCANNED = 12
const MAX_WRAPPERS = 2
/** The characters of export names listed per module; a module exporting more says how many are left out. */
const EXPORTS_LIMIT = 1_500
const SHOWN_CODE_SCAN = 64_000
const RESOLVE_SUFFIXES = ['', '.ts', '.tsx', '.js', '.jsx', '.mjs', '.cjs', '/index.ts', '/index.js']
const RELATIVE_IMPORT = /(?:\bfrom\s+|\bimport\s+|\brequire\(\s*)['"](\.{1,2}\/[^'"]*|\.{1,2})['"]/g

/** The relative specifiers a JavaScript/TypeScript file imports. */
export function relativeImports(content: string): string[] {
  return [...new Set([...content.matchAll(RELATIVE_IMPORT)].map((match) => match[1]))]
}

/** A relative specifier from `fromFile`, resolved to a repository file (TypeScript's `.js` → `.ts` too). */
export function resolveImport(fromFile: string, specifier: string, files: ReadonlySet<string>): string | null {
  const target = posix.join(posix.dirname(fromFile), specifier)
  const candidates = [target, target.replace(/\.([cm]?)js$/, '.$1ts')]
  for (const candidate of candidates) for (const suffix of RESOLVE_SUFFIXES) if (files.has(candidate + suffix)) return candidate + suffix
  return null
}

/** Where related modules are read from: the head commit's files, how a test imports each, and the characters left to show them. */
export interface ModuleSource {
  files: ReadonlySet<string>
  reader: FileReader
  head: string
  importOf: (path: string) => string
  budget: Budget
  /** The changed code of a changed file as shown (its changed functions, or the whole file): what it calls. */
  changedCode: (path: string) => string
}

/**
 * Names up to EXPORTS_LIMIT characters, then a marker saying how many more there are. When some must go,
 * the names `shownCode` uses come first: those are the ones a test of the shown code calls.
 */
export function capNames(names: string[], shownCode: () => string = () => ''): string[] {
  if (names.reduce((sum, name) => sum + name.length + 4, 0) <= EXPORTS_LIMIT) return names
  const used = new Set(shownCode().slice(0, SHOWN_CODE_SCAN).match(/[\w$]+/g))
  const kept: string[] = []
  let size = 0
  for (const name of [...names.filter((name) => used.has(name)), ...names.filter((name) => !used.has(name))]) {
    if (size + name.length + 4 > EXPORTS_LIMIT) continue
    kept.push(name)
    size += name.length + 4
  }
  return [...kept, `[… ${names.length - kept.length} more names left out]`]
}

/** A module's path (three times: heading, import line, convention), import and exports, charged to the budget. */
function headingCost(path: string, specifier: string, exports: string[]): number {
  return 3 * path.length + specifier.length + exports.reduce((sum, name) => sum + name.length + 4, 0) + 2 * PIECE_OVERHEAD
}

/** A module's content when it fits the budget beside its heading (which is charged either way), else null. */
function within(budget: Budget, heading: number, content: string | null): string | null {
  budget.spend(heading)
  if (content === null || content.length + PIECE_OVERHEAD > budget.remaining) return null
  budget.spend(content.length + PIECE_OVERHEAD)
  return content
}

/** The entries changed modules are reached through first, then what the changed code imports, then what the report names. */
export async function relatedModules(changed: string[], ways: WayThrough[], named: string[], source: ModuleSource): Promise<RelatedModule[]> {
  // Built in that order too: each takes its share of the budget before the next.
  const wrappers = await entryModules(ways.filter((way) => !changed.includes(way.entry)), source)
  const imported = await importedModules(changed, source)
  const shown = new Set([...changed, ...wrappers.map((module) => module.path), ...imported.map((module) => module.path)])
  return [...wrappers, ...imported, ...(await namedModules(named.filter((path) => !shown.has(path)), source))]
}

/**
 * The modules the changed files import: whole when small, else the definitions the changed code uses from
 * them (one level deep), else their export names alone.
 */
async function importedModules(changed: string[], { files, reader, head, importOf, budget, changedCode }: ModuleSource): Promise<RelatedModule[]> {
  const changedSet = new Set(changed)
  // Per imported module, the names the changed code uses from it.
  const used = new Map<string, Set<string>>()
  const scanned = changed.filter((file) => /\.[cm]?[jt]sx?$/.test(file)).slice(0, MAX_SCANNED)
  // All reads asked for at once, in a fixed order (see read.ts), then used in that order.
  const scannedContents = scanned.map((path) => reader.text(head, path))
  for (const [at, path] of scanned.entries()) {
    const content = (await scannedContents[at]) ?? ''
    for (const specifier of relativeImports(content)) {
      const resolved = resolveImport(path, specifier, files)
      if (!resolved || changedSet.has(resolved)) continue
      const names = used.get(resolved) ?? new Set<string>()
      for (const name of usedNames(importBindings(content, specifier), changedCode(path))) names.add(name)
      used.set(resolved, names)
    }
  }
  const related = [...used.keys()].slice(0, MAX_RELATED)
  const contents = related.map((path) => reader.text(head, path))
  const modules: RelatedModule[] = []
  for (const [at, path] of related.entries()) {
    const content = (await contents[at]) ?? ''
    const exports = capNames(exportedNames(content))
    const definitions = content.length <= RELATED_WHOLE_LIMIT ? [] : definitionLines(content, [...used.get(path)!])
    const code = definitions.length ? calledCode(content, definitions, budget.remaining - headingCost(path, importOf(path), exports)) : content
    const shown = within(budget, headingCost(path, importOf(path), exports), code.length <= RELATED_WHOLE_LIMIT ? code : null)
    modules.push({ path, role: definitions.length && shown ? 'called' : 'imported', importSpecifier: importOf(path), exports, content: shown })
  }
  return modules
}

/** The definitions at `lines`, as excerpts joined, within RELATED_WHOLE_LIMIT and `allowance`. */
function calledCode(content: string, lines: number[], allowance: number): string {
  const excerpts = excerptsFor(content, lines, Math.min(RELATED_WHOLE_LIMIT, allowance) - PIECE_OVERHEAD)
  return excerpts.map((excerpt) => excerpt.code).join('\n\n// …\n\n')
}

/** Named files are shown whole or not at all: their exports alone would not show the data a test needs. */
async function namedModules(paths: string[], { reader, head, importOf, budget }: ModuleSource): Promise<RelatedModule[]> {
  const modules: RelatedModule[] = []
  for (const path of paths) {
    const content = (await reader.text(head, path)) ?? ''
    const exports = capNames(exportedNames(content))
    const cost = headingCost(path, importOf(path), exports) + content.length + PIECE_OVERHEAD
    if (content.length <= RELATED_WHOLE_LIMIT && cost <= budget.remaining) {
      budget.spend(cost)
      modules.push({ path, role: 'named', importSpecifier: importOf(path), exports, content })
    }
  }
  return modules
}

const MAX_NAMED = 2

/**
 * Source files the bug report names, by path, file name or module name (`zh-cn` → `src/locale/zh-cn.js`,
 * `localizedFormat` → `src/plugin/localizedFormat/index.js`): the data or plugin the failure needs. Only
 * names that cannot be plain words count: with a `-`, `_`, `.` or `/`, or in camelCase.
 */
export function filesNamedIn(text: string, sourceFiles: readonly string[]): string[] {
  const words = new Set(
    text
      .split(/[^\w./-]+/)
      .map((word) => word.replace(/^[./-]+|[./-]+$/g, ''))
      .filter((word) => word.length >= 3 && /[-_./]|[a-z][A-Z]/.test(word))
  )
  const moduleName = (path: string) => {
    const stem = posix.basename(path).replace(/\.[^.]+$/, '')
    return stem === 'index' || stem === '__init__' ? posix.basename(posix.dirname(path)) : stem
  }
  // A name shared by several files (`index.js`, `utils`) names none of them.
  const names = (path: string) => [posix.basename(path), moduleName(path)]
  const owners = new Map<string, number>()
  for (const name of sourceFiles.flatMap((path) => [...new Set(names(path))])) owners.set(name, (owners.get(name) ?? 0) + 1)
  const named = (path: string) => words.has(path) || names(path).some((name) => words.has(name) && owners.get(name) === 1)
  return sourceFiles.filter(named).slice(0, MAX_NAMED)
}

/** A changed module, and the entry a new test reaches it through (context/way-in.ts). */
export interface WayThrough {
  module: string
  entry: string
}

/**
 * The entries changed modules are reached through (a package's index, a Python package's `__init__.py`):
 * the API a test calls. Small, an entry is shown whole; else the code in it that names the module, or
 * else its export statements.
 */
async function entryModules(ways: WayThrough[], { reader, head, importOf, budget }: ModuleSource): Promise<RelatedModule[]> {
  const modules: RelatedModule[] = []
  for (const entry of [...new Set(ways.map((way) => way.entry))].slice(0, MAX_WRAPPERS)) {
    const content = (await reader.text(head, entry)) ?? ''
    const stems = ways.filter((way) => way.entry === entry).map((way) => moduleStem(way.module))
    // The module's name is the PR's to choose: escaped, it is matched as it is spelt.
    const mention = new RegExp(`\\b(?:${stems.map(escapeRegExp).join('|')})\\b`)
    const naming = content.split('\n').flatMap((line, index) => (mention.test(line) ? [index + 1] : []))
    const lines = naming.length ? naming : exportStatementLines(content)
    // Its exports are capped to the budget's charge before its code is cut to what is left.
    const names = exportedNames(content)
    budget.spend(headingCost(entry, importOf(entry), capNames(names)))
    const allowance = Math.min(RELATED_WHOLE_LIMIT, budget.remaining)
    const code = content.length <= ENTRY_WHOLE_LIMIT && content.length <= allowance ? content : excerptsFor(content, lines, allowance).map((excerpt) => excerpt.code).join(`\n\n${entry.endsWith('.py') ? '#' : '//'} …\n\n`)
    if (!code) continue
    budget.spend(code.length + PIECE_OVERHEAD)
    modules.push({ path: entry, role: 'wrapper', importSpecifier: importOf(entry), exports: capNames(names, () => code), content: code })
  }
  return modules
}

/** `src/plugins/ordinal.js` → `ordinal`; `pkg/_parser.py` → `_parser`; `src/cart/index.ts` → `cart`. */
function moduleStem(path: string): string {
  const stem = posix.basename(path).replace(/\.[^.]+$/, '')
  return stem === 'index' || stem === '__init__' ? posix.basename(posix.dirname(path)) : stem
}

/**
 * `'../src/a'` in `test/a.test.ts` becomes `'../../src/a'` in `test/regression/`. Python's relative imports
 * cannot reach out of the regression folder (it is no package): `from . import helper` in `tests/test_a.py`
 * becomes `from tests import helper`, as pytest run from the repository root imports it.
 */
export function rebaseImports(examplePath: string, content: string, regressionDir: string): RebasedImport[] {
  if (examplePath.endsWith('.py')) return absolutePythonImports(examplePath, content)
  return relativeImports(content).map((original) => {
    const target = posix.join(posix.dirname(examplePath), original)
    const rebased = posix.relative(regressionDir, target) || '.'
    return { original, rebased: rebased.startsWith('.') ? rebased : `./${rebased}` }
  })
}

function absolutePythonImports(examplePath: string, content: string): RebasedImport[] {
  const packageParts = posix.dirname(examplePath).split('/')
  const imports = new Map<string, string>()
  for (const [, dots, rest] of content.matchAll(/^\s*from\s+(\.+)([\w.]*)\s+import\b/gm)) {
    const parts = [...packageParts.slice(0, packageParts.length - (dots.length - 1)), ...(rest ? rest.split('.') : [])]
    if (dots.length - 1 >= packageParts.length || !parts.every((part) => /^[A-Za-z_]\w*$/.test(part))) continue
    imports.set(`from ${dots}${rest} import`, `from ${parts.join('.')} import`)
  }
  return [...imports].map(([original, rebased]) => ({ original, rebased }))
}
