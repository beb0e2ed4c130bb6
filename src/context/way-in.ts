/**
 * How a new test reaches each changed module: one import per module. Through an entry the repository's
 * tests already import (the style example's imports, then the package entry) when that entry reaches the
 * module; else the module itself. The candidates are checked by loading them in each tree (execute/
 * import-check.ts); the model is given the one that loads.
 */
import { posix } from 'node:path'
import type { ImportCandidate, ImportLine, RebasedImport, StyleExample } from '../domain.js'
import type { FileReader } from './read.js'
import { escapeRegExp } from '../regexp.js'
import { exportedNames } from './functions.js'
import { capNames, relativeImports, resolveImport } from './related.js'

/** How far an entry's imports are followed, and how many files at most, looking for the changed module. */
const MAX_DEPTH = 4
const MAX_FILES_READ = 60
const BUILD_FOLDERS = /^(?:dist|lib|build|es|esm|cjs|out)\//

export interface WayInSource {
  /** Tracked files at head. */
  files: ReadonlySet<string>
  reader: FileReader
  head: string
  styleExample: StyleExample | null
  styleImports: RebasedImport[]
  /** The package folder the tests run in ('' for the root): its package.json names the entry. */
  packageDir: string
  /** The module's own specifier from the regression folder (context/imports.ts, python-imports.ts). */
  importOf: (path: string) => string
  /**
   * Every spelling of a module's specifier worth loading, `importOf`'s first (with or without `.js`, `.ts`):
   * the import check keeps the one that loads. Default: `importOf`'s alone.
   */
  spellings?: (path: string) => string[]
  /** Changed modules that are command-line entries (commandLineEntries): never imported. */
  commandLines?: ReadonlySet<string>
}

/**
 * The ways in for each changed module, best first, not yet checked. The repository's tests decide: a
 * module the style example imports is imported itself; else an entry the example imports (an index, the
 * package entry) that reaches it; else, when the example imports source modules directly, the module
 * itself; else the package entry when it reaches the module. The module itself always comes last.
 */
export async function waysIn(modules: string[], source: WayInSource): Promise<ImportLine[]> {
  const entries = await entryCandidates(source)
  const reach = reachability(source)
  const spellings = source.spellings ?? ((path: string) => [source.importOf(path)])
  const lines: ImportLine[] = []
  for (const module of modules.filter((path) => !source.commandLines?.has(path))) {
    const own: ImportCandidate[] = spellings(module).map((specifier) => ({ module, specifier, through: null }))
    const entry = module.endsWith('.py') ? await pythonPackageOf(module, source) : entries.imported.includes(module) ? undefined : await findAsync(entries.usable, (candidate) => reach(candidate.path, module))
    // An entry the example imports is spelt as the example spells it; the package entry found by itself is spelt every way.
    const through = !entry ? [] : entry.spelt ? [entry.specifier] : spellings(entry.path)
    const candidates = [...through.map((specifier) => ({ module, specifier, through: entry!.path })), ...own]
    lines.push(...candidates.map((candidate) => ({ ...candidate, loads: { head: null, preFix: null } })))
  }
  return lines
}

/**
 * The import check by spelling: the first spelling of each way in (a module itself, or through an entry) is
 * checked; the others only for the ways whose first did not load at head, in a second round, so a
 * repository whose own spelling loads pays for no more. Unchecked spellings are dropped.
 */
export async function checkBySpelling(lines: ImportLine[], check: (lines: ImportLine[]) => Promise<ImportLine[]>): Promise<ImportLine[]> {
  const way = (line: ImportLine) => `${line.module}\0${line.through ?? ''}`
  const firsts = firstSpellings(lines)
  const first = await check(firsts)
  const failed = new Set(first.filter((line) => line.loads.head === false).map(way))
  const others = lines.filter((line) => failed.has(way(line)) && !firsts.includes(line))
  const second = others.length ? await check(others) : []
  // Back in the order of the ways in, best first.
  return lines.flatMap((line) => [...first, ...second].filter((checked) => checked.module === line.module && checked.specifier === line.specifier && checked.through === line.through))
}

/** Each way in by its first spelling: what a run that checks nothing, or checks first, is given. */
export function firstSpellings(lines: ImportLine[]): ImportLine[] {
  const seen = new Set<string>()
  return lines.filter((line) => {
    const way = `${line.module}\0${line.through ?? ''}`
    return !seen.has(way) && !!seen.add(way)
  })
}

/**
 * Per module, the first way in that was not seen failing to load at head; where every way failed, none:
 * the conventions then say what failed and why (model/render.ts).
 */
export function loadingImports(lines: ImportLine[]): ImportLine[] {
  return chosenImports(lines).filter((line) => line.loads.head !== false)
}

/**
 * The modules among `paths` that are command-line entries, run rather than imported: named by a package.json
 * `bin` (the root's or the package folder's), or starting with a shebang line. (A `bin/` folder alone says
 * nothing: helpers live there too.)
 */
export async function commandLineEntries(paths: string[], source: Pick<WayInSource, 'reader' | 'head' | 'packageDir'>): Promise<Set<string>> {
  const manifests = await Promise.all([...new Set(['', source.packageDir])].map((dir) => packageManifest(dir, source).then((manifest) => ({ dir, manifest }))))
  const bins = new Set(manifests.flatMap(({ dir, manifest }) => binPaths(manifest.bin).map((bin) => posix.join(dir, bin))))
  const scripts = paths.filter((path) => /\.[cm]?[jt]sx?$/.test(path))
  const firstLines = await Promise.all(scripts.map((path) => source.reader.text(source.head, path).then((text) => (text ?? '').slice(0, 2))))
  const shebang = new Set(scripts.filter((_, i) => firstLines[i] === '#!'))
  return new Set(scripts.filter((path) => bins.has(path) || shebang.has(path)))
}

function binPaths(bin: unknown): string[] {
  const values = typeof bin === 'string' ? [bin] : bin && typeof bin === 'object' ? Object.values(bin) : []
  return values.filter((value): value is string => typeof value === 'string').map((value) => posix.normalize(value))
}

/** Per module, the first way in that was not seen failing to load at head. */
export function chosenImports(lines: ImportLine[]): ImportLine[] {
  const chosen = new Map<string, ImportLine>()
  for (const line of lines) {
    const current = chosen.get(line.module)
    if (!current || (current.loads.head === false && line.loads.head !== false)) chosen.set(line.module, line)
  }
  return [...chosen.values()]
}

interface Entry {
  path: string
  specifier: string
  /** Spelt as the repository's own tests spell it. */
  spelt?: boolean
}

/** A private Python module (`pkg/_parser.py`) is used through its package when `pkg/__init__.py` names it. */
async function pythonPackageOf(module: string, { files, reader, head, importOf }: WayInSource): Promise<Entry | undefined> {
  const stem = posix.basename(module, '.py')
  const init = posix.join(posix.dirname(module), '__init__.py')
  if (!/^_[^_]/.test(stem) || !files.has(init)) return undefined
  const content = (await reader.text(head, init)) ?? ''
  return new RegExp(`\\b${escapeRegExp(stem)}\\b`).test(content) ? { path: init, specifier: importOf(init) } : undefined
}

/** The source files the style example imports, and the entries a new test may go through (as the example writes them, from the regression folder). */
async function entryCandidates(source: WayInSource): Promise<{ imported: string[]; usable: Entry[] }> {
  const main = await packageEntry(source.packageDir, source)
  const isEntry = (path: string) => path === main || /^index\.[cm]?[jt]sx?$/.test(posix.basename(path))
  const imported = [...(await exampleSources(source))].map(([specifier, path]) => ({ path, specifier, spelt: true }))
  const viaEntries = imported.filter((entry) => isEntry(entry.path))
  // Tests that import source modules directly, and no entry, are the repository's way: the module itself.
  const direct = imported.length > 0 && viaEntries.length === 0
  const usable = direct || !main || viaEntries.some((entry) => entry.path === main) ? viaEntries : [...viaEntries, { path: main, specifier: source.importOf(main) }]
  return { imported: imported.map((entry) => entry.path), usable }
}

/** How many of the style example's source imports are listed with their exports. */
const MAX_EXAMPLE_SOURCES = 6

/**
 * The style example's imports, each source module among them with its path and exports: the API the
 * repository's tests reach the changed code through (a `Liquid` from the main entry), which a new test needs too.
 */
export async function withExampleSources(source: WayInSource): Promise<RebasedImport[]> {
  const listed = [...(await exampleSources(source))].slice(0, MAX_EXAMPLE_SOURCES)
  const exports = await Promise.all(listed.map(([, path]) => source.reader.text(source.head, path).then((text) => capNames(exportedNames(text ?? '')))))
  const found = new Map(listed.map(([specifier, path], i) => [specifier, { path, exports: exports[i] }]))
  return source.styleImports.map((entry) => (found.has(entry.rebased) ? { ...entry, source: found.get(entry.rebased)! } : entry))
}

/** The source files the style example imports, with the rebased specifier of each (not fixtures or helpers). */
export async function exampleSources(source: WayInSource): Promise<Map<string, string>> {
  const { styleExample } = source
  const examples = !styleExample || styleExample.path.endsWith('.py') ? [] : source.styleImports
  const resolved = await Promise.all(examples.map(({ original }) => resolveFromExample(styleExample!.path, original, source)))
  return new Map(examples.flatMap(({ rebased }, i) => (resolved[i] && !isTestSupport(resolved[i]!) ? [[rebased, resolved[i]!] as const] : [])))
}

/** Fixtures and helpers the example imports are not the code under test. */
const isTestSupport = (path: string) => /(?:^|\/)(?:__)?(?:tests?|spec|fixtures?|__mocks__|helpers?)(?:__)?\//.test(path)

/** A relative specifier to a file, or to a package folder (`'../..'`: the entry its package.json names). */
async function resolveFromExample(fromFile: string, specifier: string, source: WayInSource): Promise<string | null> {
  const file = resolveImport(fromFile, specifier, source.files)
  if (file) return file
  const folder = posix.join(posix.dirname(fromFile), specifier)
  return source.files.has(posix.join(folder, 'package.json')) ? packageEntry(folder === '.' ? '' : folder, source) : null
}

/**
 * The source file the package.json in `packageDir` names as its entry: `source`, `exports['.']`, `module`,
 * `main` (a build output mapped back to `src/`).
 */
async function packageEntry(packageDir: string, source: WayInSource): Promise<string | null> {
  const { files } = source
  const manifest = await packageManifest(packageDir, source)
  const fields = [manifest.source, exportOfRoot(manifest.exports), manifest.module, manifest.main, 'index.js', 'src/index.ts', 'src/index.js']
  for (const field of fields.filter((value): value is string => typeof value === 'string')) {
    const relative = field.replace(/^\.\//, '')
    const candidates = [relative, relative.replace(BUILD_FOLDERS, 'src/').replace(/\.(?:c|m)?js$/, '')]
    for (const candidate of candidates) {
      const resolved = resolveImport(posix.join(packageDir, 'package.json'), `./${candidate}`, files)
      if (resolved) return resolved
    }
  }
  return null
}

async function packageManifest(packageDir: string, { reader, head }: Pick<WayInSource, 'reader' | 'head'>): Promise<Record<string, unknown>> {
  try {
    const manifest: unknown = JSON.parse((await reader.text(head, posix.join(packageDir, 'package.json'))) ?? '{}')
    return manifest && typeof manifest === 'object' ? (manifest as Record<string, unknown>) : {}
  } catch {
    return {}
  }
}

function exportOfRoot(exports: unknown): unknown {
  if (typeof exports === 'string' || exports === null || typeof exports !== 'object') return exports
  const root = '.' in exports ? (exports as Record<string, unknown>)['.'] : exports
  if (typeof root === 'string' || root === null || typeof root !== 'object') return root
  const conditions = root as Record<string, unknown>
  return exportOfRoot(conditions.source ?? conditions.import ?? conditions.require ?? conditions.default)
}

/** Whether `from` reaches `target` through relative imports, within MAX_DEPTH steps and MAX_FILES_READ reads. */
function reachability({ files, reader, head }: WayInSource): (from: string, target: string) => Promise<boolean> {
  const importsOf = new Map<string, Promise<string[]>>()
  const imported = (path: string) => {
    if (!importsOf.has(path)) {
      if (importsOf.size >= MAX_FILES_READ) return Promise.resolve([])
      importsOf.set(path, reader.text(head, path).then((content) => relativeImports(content ?? '').flatMap((specifier) => resolveImport(path, specifier, files) ?? [])))
    }
    return importsOf.get(path)!
  }
  return async (from, target) => {
    let frontier = [from]
    const seen = new Set(frontier)
    for (let depth = 0; depth < MAX_DEPTH && frontier.length; depth++) {
      const next = (await Promise.all(frontier.map(imported))).flat().filter((path) => !seen.has(path))
      if (next.includes(target)) return true
      for (const path of next) seen.add(path)
      frontier = next
    }
    return false
  }
}

async function findAsync<T>(items: T[], test: (item: T) => Promise<boolean>): Promise<T | undefined> {
  for (const item of items) if (await test(item)) return item
  return undefined
}
