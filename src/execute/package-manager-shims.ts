/**
 * A package manager the repository names but this machine lacks (a workflow that never ran
 * `corepack enable`): pnpm or yarn, absent from PATH, is a shim last on the PATH of every command the
 * sandbox runs — the tool's installs and builds, the test command's capture, the repository's scripts that
 * call `pnpm run build` — running it through corepack at the repository's version (package-manager.ts).
 */
import { existsSync } from 'node:fs'
import { chmod, mkdir, writeFile } from 'node:fs/promises'
import { delimiter, dirname, join } from 'node:path'
import type { Logger } from '../ports/logger.js'
import type { ProcessRequest } from '../ports/process.js'
import { onPath } from '../ports/programs.js'
import type { Sandbox } from '../ports/sandbox.js'
import { readPlainFileSync } from '../ports/sandbox-files.js'
import { CORE_PACKED, corepackEnvironment, fromLockfile, fromPackageManagerField, LOCKFILES, shimScript, type PackageManager } from './package-manager.js'

export interface PackageManagerShims {
  /** The folder of shims, the tool's (the sandbox reads it, never writes it). */
  folder: string
  manager: PackageManager
  /** `corepack` or `npx`: what the shims run. */
  via: string
}

/** How long the first download of the package manager may take. */
const PREPARE_TIMEOUT_MS = 3 * 60_000

/**
 * The package manager of the package at `packageDir` in the checkout: its `packageManager` field, else the
 * root's, else the package's lockfile, else the root's; null when none is named (npm).
 */
export function repositoryManager(repoDir: string, packageDir: string): PackageManager | null {
  const folders = [...new Set([packageDir, ''])].map((folder) => join(repoDir, folder))
  for (const folder of folders) {
    const manifest = parseJson(readPlainFileSync(join(folder, 'package.json')))
    const named = fromPackageManagerField(manifest?.packageManager)
    if (named) return named
  }
  for (const folder of folders) {
    for (const [lockfile] of LOCKFILES) {
      const text = readPlainFileSync(join(folder, lockfile))
      if (text !== null) return fromLockfile(lockfile, text)
    }
  }
  return null
}

/**
 * Writes the shims into `folder` (made here) when the repository's manager is one corepack provides and
 * `path` has none of it; null when nothing is missing, or nothing can stand in for it.
 */
export async function writePackageManagerShims(repoDir: string, packageDir: string, folder: string, path = process.env.PATH ?? ''): Promise<PackageManagerShims | null> {
  const manager = repositoryManager(repoDir, packageDir)
  const programs = manager && CORE_PACKED[manager.name]
  if (!manager || !programs || onPath(programs[0], path)) return null
  const corepack = onPath('corepack', path) ?? besideNode('corepack')
  const npx = onPath('npx', path) ?? besideNode('npx')
  if (!corepack && !npx) return null
  await mkdir(folder, { recursive: true, mode: 0o755 })
  for (const program of programs) {
    const shim = join(folder, program)
    await writeFile(shim, shimScript(manager, program, corepack ? { corepack } : { npx: npx! }), { mode: 0o755 })
    await chmod(shim, 0o755)
  }
  return { folder, manager, via: corepack ? 'corepack' : 'npx' }
}

/** The same sandbox, its commands finding the shims after everything else on PATH, with the machine's corepack settings. */
export function withPackageManagerShims(sandbox: Sandbox, shims: PackageManagerShims): Sandbox {
  const run = (request: ProcessRequest) => sandbox.processes.run(shimmed(request, shims.folder))
  // Each member delegated (not spread): a sandbox may keep its methods on a prototype.
  return {
    isolation: sandbox.isolation,
    detail: sandbox.detail,
    isolatesNetwork: sandbox.isolatesNetwork,
    notes: sandbox.notes,
    processes: { run },
    share: (dir) => sandbox.share(dir),
    remove: (dir) => sandbox.remove(dir),
    close: () => sandbox.close()
  }
}

/**
 * PATH with the shims last: a pnpm the repository installed itself, or one on the machine, still wins. A
 * command with the network (an install, a build) also gets what corepack's download needs.
 */
export function shimmed(request: ProcessRequest, folder: string): ProcessRequest {
  const path = [request.env?.PATH ?? process.env.PATH ?? '', folder].filter(Boolean).join(delimiter)
  const download = request.network ? corepackEnvironment(process.env) : {}
  return { ...request, env: { ...download, ...request.env, PATH: path } }
}

/**
 * The shims for the repository's package manager on the sandbox's commands, its first download done now
 * with the network (into the sandbox's home), so the commands that run offline — the capture, the tests —
 * find it there. The sandbox as it is when nothing is missing.
 */
export async function usePackageManagers(sandbox: Sandbox, repoDir: string, packageDir: string, folder: string, log: Logger): Promise<Sandbox> {
  const shims = await writePackageManagerShims(repoDir, packageDir, folder)
  if (!shims) return sandbox
  const { manager } = shims
  const shimmedSandbox = withPackageManagerShims(sandbox, shims)
  log.info(`Package manager: ${manager.name} (${manager.source}) is not on PATH; it runs through ${shims.via} as ${manager.name}${manager.version ? `@${manager.version}` : ''}`)
  const prepared = await shimmedSandbox.processes.run({ command: manager.name, args: ['--version'], cwd: folder, timeoutMs: PREPARE_TIMEOUT_MS, network: true })
  if (prepared.exitCode !== 0) log.warn(`Package manager: ${manager.name} through ${shims.via} did not start (exit ${prepared.exitCode}): ${whyNot(prepared.output)}`)
  else log.info(`Package manager: ${manager.name} ${prepared.stdout.trim().split('\n')[0].slice(0, 40)} ready (${(prepared.durationMs / 1000).toFixed(1)} s)`)
  return shimmedSandbox
}

function besideNode(program: string): string | null {
  const candidate = join(dirname(process.execPath), program)
  return existsSync(candidate) ? candidate : null
}

function parseJson(text: string | null): Record<string, unknown> | null {
  try {
    const value: unknown = JSON.parse(text ?? '')
    return value && typeof value === 'object' ? (value as Record<string, unknown>) : null
  } catch {
    return null
  }
}

/** The error a failed start printed (node's uncaught `Error: …` line), else its last line. */
function whyNot(output: string): string {
  const lines = output.trim().split('\n')
  return lines.find((line) => /^\w*Error\b/.test(line))?.trim() ?? lines[lines.length - 1] ?? '(no output)'
}
