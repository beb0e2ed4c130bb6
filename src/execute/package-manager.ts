/**
 * The package manager a repository names, and how to run it where it is not installed: pnpm and yarn
 * through node's corepack (`corepack pnpm@8 …`), else `npx pnpm@8 …`. The version is the one the
 * `packageManager` field pins (with its hash, which corepack checks), else the lockfile's major. Pure: what
 * the repository's files say in, words and script text out (package-manager-shims.ts writes them).
 */

export type PackageManagerName = 'npm' | 'pnpm' | 'yarn' | 'bun'

export interface PackageManager {
  name: PackageManagerName
  /** The version corepack resolves: exact (`8.15.4+sha512.…`), a major (`8`), or null (corepack's default). */
  version: string | null
  /** Where it was read, for the log: `packageManager "pnpm@8.15.4"`, `pnpm-lock.yaml lockfileVersion 6.0`. */
  source: string
}

/** The managers corepack provides, and the program names each one answers to. */
export const CORE_PACKED: Partial<Record<PackageManagerName, string[]>> = { pnpm: ['pnpm', 'pnpx'], yarn: ['yarn', 'yarnpkg'] }

/** Lockfiles by the manager that writes them, in the order an install chooses (dependencies.ts). */
export const LOCKFILES: Array<[string, PackageManagerName]> = [
  ['pnpm-lock.yaml', 'pnpm'],
  ['yarn.lock', 'yarn'],
  ['bun.lock', 'bun'],
  ['bun.lockb', 'bun']
]

// `name@version` with corepack's optional `+sha512.<hex>` (or another algorithm) hash.
const FIELD = /^(npm|pnpm|yarn|bun)@(\d+\.\d+\.\d+(?:-[0-9A-Za-z.-]+)?(?:\+[a-z0-9]+\.[0-9a-f]+)?)$/
// pnpm's lockfile format → the major that writes it (6.x: pnpm 8; 5.4: pnpm 7; 5.3: pnpm 6); 9.0 is written
// by pnpm 9 and 10 alike, and pnpm 9 reads it.
const PNPM_LOCKFILES: Array<[RegExp, string]> = [[/^9\./, '9'], [/^6\./, '8'], [/^5\.4$/, '7'], [/^5\.3$/, '6']]
// yarn berry's `__metadata.version` → the major that writes it; yarn 1 writes `# yarn lockfile v1`.
const YARN_LOCKFILES: Record<string, string> = { '4': '2', '5': '3', '6': '3', '8': '4' }

/** The `packageManager` field, when it is one corepack understands; null for anything else. */
export function fromPackageManagerField(field: unknown): PackageManager | null {
  const match = typeof field === 'string' ? FIELD.exec(field.trim()) : null
  return match ? { name: match[1] as PackageManagerName, version: match[2], source: `packageManager "${field as string}"` } : null
}

/** The manager a lockfile names, its major read from the lockfile's format where it says. */
export function fromLockfile(lockfile: string, text: string): PackageManager | null {
  const name = LOCKFILES.find(([file]) => file === lockfile)?.[1]
  if (!name) return null
  if (name === 'pnpm') {
    const format = /^lockfileVersion:\s*['"]?([\d.]+)['"]?\s*$/m.exec(text)?.[1] ?? null
    const major = format ? (PNPM_LOCKFILES.find(([pattern]) => pattern.test(format))?.[1] ?? null) : null
    return { name, version: major, source: format ? `${lockfile} lockfileVersion ${format}` : lockfile }
  }
  if (name === 'yarn') {
    if (/^# yarn lockfile v1\s*$/m.test(text)) return { name, version: '1', source: `${lockfile} (yarn 1)` }
    const format = /^__metadata:\s*\n\s+version:\s*(\d+)/m.exec(text)?.[1] ?? null
    return { name, version: format ? (YARN_LOCKFILES[format] ?? null) : null, source: format ? `${lockfile} __metadata.version ${format}` : lockfile }
  }
  return { name, version: null, source: lockfile }
}

/** `pnpm@8.15.4+sha512.…`, `pnpm@8`, `pnpm`: what corepack is asked for. */
export function corepackSpec(manager: PackageManager, program: string): string {
  return manager.version ? `${program}@${manager.version}` : program
}

/**
 * The shim that stands in for `program` (`pnpm`, `yarn`) first missing from PATH: corepack when node has
 * it (its downloads kept in the sandbox's home, never a prompt), else npx. `corepack` and `npx` are
 * absolute paths, found by the tool.
 */
export function shimScript(manager: PackageManager, program: string, runner: { corepack: string } | { npx: string }): string {
  const head = '#!/bin/sh\n# Written by regression-testgen: the repository names this package manager, and PATH has none.\n'
  if ('corepack' in runner) {
    return `${head}export COREPACK_HOME="\${COREPACK_HOME:-$HOME/.cache/node/corepack}"\nexport COREPACK_ENABLE_DOWNLOAD_PROMPT=0\nexec ${quote(runner.corepack)} ${quote(corepackSpec(manager, program))} "$@"\n`
  }
  // npx installs a package, not a program of it: pnpx is `pnpm dlx`, yarnpkg is yarn.
  const packageName = manager.name
  const version = manager.version?.replace(/\+.*$/, '')
  const args = program === 'pnpx' ? ' dlx' : ''
  return `${head}exec ${quote(runner.npx)} --yes ${quote(version ? `${packageName}@${version}` : packageName)}${args} "$@"\n`
}

/**
 * The machine's settings a download by corepack needs (its registry, its integrity keys, the CA of a proxy
 * that inspects TLS, the proxies), for commands that have the network; never the tool's corepack home.
 */
export function corepackEnvironment(parent: NodeJS.ProcessEnv): Record<string, string> {
  const wanted = /^(?:COREPACK_(?!HOME$)\w+|NODE_EXTRA_CA_CERTS|https?_proxy|no_proxy)$/i
  return Object.fromEntries(Object.entries(parent).filter((entry): entry is [string, string] => wanted.test(entry[0]) && entry[1] !== undefined))
}

function quote(word: string): string {
  return `'${word.replace(/'/g, `'\\''`)}'`
}
