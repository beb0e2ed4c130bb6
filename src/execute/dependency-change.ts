/**
 * Whether a changed manifest changes what is installed. A release bump of package.json's `version`, or a
 * lockfile npm rewrote with other flags (`peer`, `dev`), installs the same packages: the pre-fix tree then
 * reuses the installed dependencies instead of paying for (and risking) a fresh install.
 */

// The package.json fields an install reads.
const INSTALL_FIELDS = ['dependencies', 'devDependencies', 'optionalDependencies', 'peerDependencies', 'bundledDependencies', 'overrides', 'resolutions', 'workspaces', 'packageManager', 'pnpm', 'engines']
// What a lockfile entry says about the package installed there.
const ENTRY_FIELDS = ['version', 'resolved', 'integrity', 'link']

/** True unless the two versions of the manifest at `path` are known to install the same packages. */
export function changesInstall(path: string, before: string | null, after: string | null): boolean {
  if (before === null || after === null) return true
  const name = path.split('/').pop()!
  const reading = name === 'package.json' ? installFields : name === 'package-lock.json' || name === 'npm-shrinkwrap.json' ? lockedPackages : null
  if (!reading) return before !== after
  const [a, b] = [reading(before), reading(after)]
  return a === null || b === null || a !== b
}

function installFields(text: string): string | null {
  const manifest = parseObject(text)
  return manifest && JSON.stringify(INSTALL_FIELDS.map((field) => manifest[field] ?? null))
}

/** Every installed path with its version and source (lockfile v2/v3 `packages`, v1 nested `dependencies`). */
function lockedPackages(text: string): string | null {
  const lock = parseObject(text)
  if (!lock) return null
  const entries: string[] = []
  const packages = lock.packages
  if (packages && typeof packages === 'object') {
    for (const [location, entry] of Object.entries(packages as Record<string, Record<string, unknown>>)) {
      // The root entry repeats package.json, which is compared on its own.
      if (location !== '') entries.push(JSON.stringify([location, ...ENTRY_FIELDS.map((field) => entry?.[field] ?? null)]))
    }
  } else {
    collectV1(lock.dependencies, '', entries)
  }
  return entries.sort().join('\n')
}

function collectV1(dependencies: unknown, prefix: string, entries: string[]): void {
  if (!dependencies || typeof dependencies !== 'object') return
  for (const [name, entry] of Object.entries(dependencies as Record<string, Record<string, unknown>>)) {
    const location = `${prefix}node_modules/${name}`
    entries.push(JSON.stringify([location, ...ENTRY_FIELDS.map((field) => entry?.[field] ?? null)]))
    collectV1(entry?.dependencies, `${location}/`, entries)
  }
}

function parseObject(text: string): Record<string, unknown> | null {
  try {
    const value: unknown = JSON.parse(text)
    return value && typeof value === 'object' && !Array.isArray(value) ? (value as Record<string, unknown>) : null
  } catch {
    return null
  }
}
