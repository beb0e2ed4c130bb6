/**
 * The extension of a generated JavaScript test follows the repository's own tests: an ES module test in a
 * package that is not `"type": "module"` is `.mjs` where the repository's tests are `.mjs` — a `.js` one would
 * load only through Node's syntax detection, with a warning (or not at all, before it). Where the repository's
 * own ES module tests are `.js` (a transform, or the same detection), the suite's are too.
 */
import { posix } from 'node:path'

export interface ModuleFacts {
  /** The new test's module syntax (context/imports.ts). */
  moduleSystem: 'esm' | 'cjs'
  /** `"type"` of the package.json nearest the regression folder. */
  packageType: string | undefined
  /** The repository's test files at head. */
  testFiles: string[]
}

/** `.test.js` → `.test.mjs` for an ES module test where the repository's tests are `.mjs`; else the suffix as it is. */
export function moduleSuffix(suffix: string, facts: ModuleFacts): string {
  if (!suffix.endsWith('.js') || facts.moduleSystem !== 'esm' || facts.packageType === 'module') return suffix
  return facts.testFiles.some((file) => file.endsWith('.mjs')) ? `${suffix.slice(0, -'.js'.length)}.mjs` : suffix
}

/** The `"type"` of the package.json nearest `dir` (a repository folder), read at head. */
export async function nearestPackageType(dir: string, files: ReadonlySet<string>, read: (path: string) => Promise<string | null>): Promise<string | undefined> {
  for (let folder = dir; ; folder = posix.dirname(folder)) {
    const manifest = posix.join(folder === '.' ? '' : folder, 'package.json')
    if (files.has(manifest)) return manifestType(await read(manifest))
    if (folder === '.' || folder === '' || folder === '/') return undefined
  }
}

/** A package.json's `"type"`; undefined when it has none or does not parse. */
export function manifestType(text: string | null): string | undefined {
  try {
    const type = (JSON.parse(text ?? '{}') as { type?: unknown }).type
    return typeof type === 'string' ? type : undefined
  } catch {
    return undefined
  }
}
