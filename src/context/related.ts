/**
 * Code around the change that a test needs and the diff does not show: the modules the changed files
 * import, the public API around a private changed module, files the bug report names, and the style
 * example's own imports as seen from the regression folder.
 */
import { posix } from 'node:path'
import type { RebasedImport, RelatedModule } from '../domain.js'
import type { GitCommands } from '../ports/git.js'
import { excerptsFor, exportedNames } from './functions.js'

const MAX_RELATED = 4
const RELATED_WHOLE_LIMIT = 6_000
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

/** Where related modules are read from: the head commit's files, and how a test imports each. */
export interface ModuleSource {
  files: ReadonlySet<string>
  git: GitCommands
  head: string
  importOf: (path: string) => string
}

/** The wrapper of a private changed module first, then what the changed code imports, then what the report names. */
export async function relatedModules(changed: string[], named: string[], source: ModuleSource): Promise<RelatedModule[]> {
  const imported = await importedModules(changed, source)
  const shown = new Set([...changed, ...imported.map((module) => module.path)])
  return [...(await publicWrappers(changed, source)), ...imported, ...(await namedModules(named.filter((path) => !shown.has(path)), source))]
}

async function importedModules(changed: string[], { files, git, head, importOf }: ModuleSource): Promise<RelatedModule[]> {
  const paths: string[] = []
  for (const path of changed.filter((file) => /\.[cm]?[jt]sx?$/.test(file))) {
    const content = (await git.fileAt(head, path)) ?? ''
    for (const specifier of relativeImports(content)) {
      const resolved = resolveImport(path, specifier, files)
      if (resolved && !changed.includes(resolved) && !paths.includes(resolved)) paths.push(resolved)
    }
  }
  return Promise.all(
    paths.slice(0, MAX_RELATED).map(async (path): Promise<RelatedModule> => {
      const content = (await git.fileAt(head, path)) ?? ''
      return { path, role: 'imported', importSpecifier: importOf(path), exports: exportedNames(content), content: content.length <= RELATED_WHOLE_LIMIT ? content : null }
    })
  )
}

/** Named files are shown whole or not at all: their exports alone would not show the data a test needs. */
async function namedModules(paths: string[], { git, head, importOf }: ModuleSource): Promise<RelatedModule[]> {
  const modules: RelatedModule[] = []
  for (const path of paths) {
    const content = (await git.fileAt(head, path)) ?? ''
    if (content.length <= RELATED_WHOLE_LIMIT) modules.push({ path, role: 'named', importSpecifier: importOf(path), exports: exportedNames(content), content })
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

/**
 * A private Python module (`pkg/_impl.py`) is used through its package: the code of `pkg/__init__.py` that
 * names it is the API a test should call, with its signature.
 */
async function publicWrappers(changed: string[], { files, git, head, importOf }: ModuleSource): Promise<RelatedModule[]> {
  const wrappers: RelatedModule[] = []
  for (const path of changed) {
    const name = posix.basename(path, '.py')
    const init = posix.join(posix.dirname(path), '__init__.py')
    if (!path.endsWith('.py') || !/^_[^_]/.test(name) || !files.has(init) || changed.includes(init)) continue
    const content = (await git.fileAt(head, init)) ?? ''
    const mention = new RegExp(`\\b${name}\\b`)
    const naming = content.split('\n').flatMap((line, index) => (mention.test(line) ? [index + 1] : []))
    if (naming.length === 0) continue
    const code = excerptsFor(content, naming).map((excerpt) => excerpt.code).join('\n\n# …\n\n')
    wrappers.push({ path: init, role: 'wrapper', importSpecifier: importOf(init), exports: exportedNames(content), content: code })
  }
  return wrappers
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
