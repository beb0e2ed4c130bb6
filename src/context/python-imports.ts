/**
 * How a new Python test imports a changed module: its canonical absolute module path, as the package's
 * users and the repository's own tests write it (`from pricing.discounts import apply_discount`).
 * src layout → without `src/`; flat layout → as it is; a project folder in a monorepo → from that
 * project's own root. Never `src.pricing…`, never a relative import.
 */
import { posix } from 'node:path'
import { PROJECT_FILES } from '../frameworks/python.js'

/** True when a repository-relative file exists (at the commit the context is built from). */
export type HasFile = (path: string) => boolean

/** `src/pricing/discounts.py` → `pricing.discounts`; `src/pricing/__init__.py` → `pricing`. */
export function pythonModuleName(sourcePath: string, hasFile: HasFile, existingTests: string[] = []): string {
  const parts = modulePartsOf(sourcePath)
  const structural = importRootDepth(sourcePath, hasFile)
  const imported = importedTopLevelNames(existingTests)
  // What the repository's tests already import wins over the layout guess, when they name this module's package.
  const candidates = [structural, ...parts.keys()].filter((depth) => depth < parts.length && isImportable(parts.slice(depth)))
  const evidenced = candidates.find((depth) => imported.has(parts[depth]))
  return parts.slice(evidenced ?? candidates[0] ?? structural).join('.')
}

/**
 * How many leading folders of `sourcePath` are not part of its module name: up to the nearest project root
 * (a folder with pyproject.toml, setup.py or setup.cfg; else the repository root), plus its `src/`, or else
 * up to the top of the chain of `__init__.py` packages that holds the file.
 */
export function importRootDepth(sourcePath: string, hasFile: HasFile): number {
  const dirs = sourcePath.split('/').slice(0, -1)
  let project = dirs.length
  while (project > 0 && !PROJECT_FILES.some((file) => hasFile(posix.join(...dirs.slice(0, project), file)))) project--
  if (dirs[project] === 'src') return project + 1
  let root = dirs.length
  while (root > project && hasFile(posix.join(...dirs.slice(0, root), '__init__.py'))) root--
  // A file outside any regular package: namespace packages from the project root.
  return root === dirs.length ? project : root
}

function modulePartsOf(sourcePath: string): string[] {
  const parts = sourcePath.replace(/\.pyi?$/, '').split('/')
  return parts[parts.length - 1] === '__init__' && parts.length > 1 ? parts.slice(0, -1) : parts
}

function isImportable(parts: string[]): boolean {
  return parts[0] !== 'src' && parts.every((part) => /^[A-Za-z_]\w*$/.test(part))
}

/** The top-level module names that test code imports (`from a.b import c`, `import a.b, d`). */
export function importedTopLevelNames(sources: string[]): Set<string> {
  const names = new Set<string>()
  for (const source of sources) {
    for (const match of source.matchAll(/^[ \t]*from[ \t]+([A-Za-z_]\w*)[\w.]*[ \t]+import\b/gm)) names.add(match[1])
    for (const match of source.matchAll(/^[ \t]*import[ \t]+([\w.]+(?:[ \t]+as[ \t]+\w+)?(?:[ \t]*,[ \t]*[\w.]+(?:[ \t]+as[ \t]+\w+)?)*)/gm)) {
      for (const item of match[1].split(',')) names.add(item.trim().split(/[.\s]/)[0])
    }
  }
  return names
}

/** The dotted module names test code imports: `import a.b` → a.b; `from a.b import c, d` → a.b, a.b.c, a.b.d. */
export function importedModuleNames(source: string): Set<string> {
  const names = new Set<string>()
  for (const [, module, list] of source.matchAll(/^[ \t]*from[ \t]+([A-Za-z_][\w.]*)[ \t]+import[ \t]+\(?([\w \t,]+)/gm)) {
    names.add(module)
    for (const item of list.split(',')) if (item.trim()) names.add(`${module}.${item.trim().split(/\s/)[0]}`)
  }
  for (const [, list] of source.matchAll(/^[ \t]*import[ \t]+([\w. \t,]+)/gm)) {
    for (const item of list.split(',')) if (item.trim()) names.add(item.trim().split(/\s/)[0])
  }
  return names
}
