/** How a new test imports a module: follow what the repository's own tests do, not a guess. */
import { posix } from 'node:path'

export interface ImportStyle {
  moduleSystem: 'esm' | 'cjs'
  /** Relative specifiers carry `.js` (ESM/NodeNext), `.ts`, or no extension. */
  extension: '' | '.js' | '.ts'
}

export function importStyleOf(styleExampleContent: string | null, packageType: string | undefined): ImportStyle {
  const fallback: ImportStyle = { moduleSystem: packageType === 'module' ? 'esm' : 'cjs', extension: packageType === 'module' ? '.js' : '' }
  if (!styleExampleContent) return fallback
  const esm = /^\s*import\s[^;]*?from\s+['"]/m.test(styleExampleContent)
  const cjs = /\brequire\(\s*['"]\.{1,2}\//.test(styleExampleContent)
  const relative = [...styleExampleContent.matchAll(/(?:from\s+|require\(\s*)['"](\.{1,2}\/[^'"]+)['"]/g)].map((m) => m[1])
  // `.mjs` and `.cjs` are written out as `.js` is (importSpecifier keeps the module's own `m`/`c`).
  const extension = relative.some((s) => /\.[cm]?js$/.test(s)) ? '.js' : relative.some((s) => /\.[cm]?ts$/.test(s)) ? '.ts' : ''
  return { moduleSystem: esm || !cjs ? (esm ? 'esm' : fallback.moduleSystem) : 'cjs', extension: relative.length ? extension : fallback.extension }
}

/** The specifier a test in `fromDir` uses for `modulePath`, e.g. `../../src/transport`. */
export function importSpecifier(fromDir: string, modulePath: string, style: ImportStyle): string {
  const withoutExtension = modulePath.replace(/\.[cm]?[jt]sx?$/, '')
  const sourceExtension = /\.([cm]?)[jt]sx?$/.exec(modulePath)?.[1] ?? ''
  const extension = style.extension === '.js' ? `.${sourceExtension}js` : style.extension === '.ts' ? posix.extname(modulePath) : ''
  // Without extensions, `dir/index` is imported as `dir`, as repositories write it.
  const target = extension === '' && posix.basename(withoutExtension) === 'index' ? posix.dirname(withoutExtension) : withoutExtension
  const relative = posix.relative(fromDir, target) || '.'
  return (relative.startsWith('.') ? relative : `./${relative}`) + (target === withoutExtension ? extension : '')
}

/**
 * Every spelling of the specifier for `modulePath` worth loading, the style's own first; the import check
 * keeps the one that loads (execute/import-check.ts). TypeScript: without an extension, with `.js`, with
 * `.ts` (each fails under some loader: ts-jest, NodeNext, TS5097). A JavaScript ES module: with `.js` (Node
 * resolves nothing else). CommonJS JavaScript resolves them all alike: the style's alone.
 */
export function importSpellings(fromDir: string, modulePath: string, style: ImportStyle): string[] {
  const typescript = /\.[cm]?tsx?$/.test(modulePath)
  const extensions = typescript ? (['', '.js', '.ts'] as const) : style.moduleSystem === 'esm' ? (['.js'] as const) : []
  return [...new Set([style, ...extensions.map((extension) => ({ ...style, extension }))].map((spelling) => importSpecifier(fromDir, modulePath, spelling)))]
}
