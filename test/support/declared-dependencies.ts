/**
 * What installing a fixture's package.json would put at the top of its node_modules: its dependencies and
 * theirs (with optional and peer dependencies, as npm installs them), found in this project's node_modules
 * as node resolves them. A fixture linked to only these has an example's own node_modules, not all of
 * this project's (the bench's example is then the size of a small project, whatever this one adds).
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs'
import { dirname, join } from 'node:path'

/** The top-level entries of `nodeModules` (a scope folder once) the manifest's dependencies need. */
export function declaredEntries(manifestPath: string, nodeModules: string): Set<string> {
  const entries = new Set<string>()
  const seen = new Set<string>()
  const queue = dependencyNames(manifestPath, true).map((name) => ({ name, from: dirname(nodeModules) }))
  for (let next = queue.pop(); next; next = queue.pop()) {
    const dir = resolvePackage(next.name, next.from)
    if (!dir || seen.has(dir)) continue
    seen.add(dir)
    if (dirname(dir) === nodeModules || dirname(dirname(dir)) === nodeModules) entries.add(next.name.split('/')[0])
    for (const name of dependencyNames(join(dir, 'package.json'))) queue.push({ name, from: dir })
  }
  return entries
}

const INSTALL_FILES = new Set(['.bin', '.package-lock.json'])

/** The entries of `nodeModules` a fixture goes without to have only the manifest's: the rest of the packages and scopes. */
export function undeclaredEntries(manifestPath: string, nodeModules: string): string[] {
  const declared = declaredEntries(manifestPath, nodeModules)
  // What an install writes besides the packages stays; what tools wrote into this project's (.cache, .vite) goes.
  return readdirSync(nodeModules).filter((entry) => !INSTALL_FILES.has(entry) && !declared.has(entry))
}

/** A package's dependencies as an install follows them: its development ones only for the project itself. */
function dependencyNames(manifestPath: string, project = false): string[] {
  const manifest = JSON.parse(readFileSync(manifestPath, 'utf8')) as Record<string, Record<string, string> | undefined>
  return Object.keys({ ...manifest.dependencies, ...(project && manifest.devDependencies), ...manifest.optionalDependencies, ...manifest.peerDependencies })
}

/** Where node finds `name` from `dir`: its node_modules, then each parent's. */
function resolvePackage(name: string, dir: string): string | null {
  for (let at = dir; ; at = dirname(at)) {
    const candidate = join(at, 'node_modules', name)
    if (existsSync(join(candidate, 'package.json'))) return candidate
    if (dirname(at) === at) return null
  }
}
