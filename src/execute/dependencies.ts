/** The trees reuse the repository's installed dependencies; only a PR that changed manifests reinstalls. */
import { existsSync } from 'node:fs'
import { symlink } from 'node:fs/promises'
import { join } from 'node:path'
import { UserFacingError } from '../errors.js'
import { expandCommand, type CommandLine } from '../frameworks/command.js'
import type { ProcessRunner } from '../ports/process.js'
import { runTreeCommand } from './tree-command.js'

export type DependencySource = 'reused' | 'installed' | 'none'

export interface DependencyOptions {
  processes: ProcessRunner
  timeoutMs: number
  /** The install-command setting; null: by the lockfile. */
  installCommand: string[] | null
  /** The package folder (working-directory), '' for the root. */
  packageDir: string
}

const INSTALLS: Array<{ lockfile: string } & CommandLine> = [
  { lockfile: 'pnpm-lock.yaml', command: 'pnpm', args: ['install', '--frozen-lockfile'], env: {} },
  { lockfile: 'yarn.lock', command: 'yarn', args: ['install', '--frozen-lockfile'], env: {} },
  { lockfile: 'bun.lock', command: 'bun', args: ['install', '--frozen-lockfile'], env: {} },
  { lockfile: 'bun.lockb', command: 'bun', args: ['install', '--frozen-lockfile'], env: {} },
  { lockfile: 'package-lock.json', command: 'npm', args: ['ci'], env: {} },
  { lockfile: 'package.json', command: 'npm', args: ['install'], env: {} }
]

/** Links node_modules of the repository root and of the package into the tree: no copy, no install. */
export async function reuseDependencies(repoDir: string, treeDir: string, packageDir: string): Promise<DependencySource> {
  let linked = false
  for (const folder of new Set(['', packageDir])) {
    const installed = join(repoDir, folder, 'node_modules')
    if (!existsSync(installed)) continue
    await symlink(installed, join(treeDir, folder, 'node_modules'), 'dir')
    linked = true
  }
  if (linked) return 'reused'
  if (existsSync(join(repoDir, packageDir, 'package.json'))) {
    throw new UserFacingError(`Dependencies are not installed in ${join(repoDir, packageDir)}`, 'run your install command (e.g. npm ci) before regression-testgen')
  }
  return 'none'
}

/** A fresh install at the tree's root, for a pre-fix tree whose manifests differ from the head's. */
export async function installDependencies(treeDir: string, options: DependencyOptions): Promise<DependencySource> {
  const install = options.installCommand ? expandCommand(options.installCommand, [], []) : INSTALLS.find((candidate) => existsSync(join(treeDir, candidate.lockfile)))
  if (!install) return 'none'
  await runTreeCommand(options.processes, install, treeDir, options.timeoutMs, 'Installing dependencies in the pre-fix tree')
  return 'installed'
}
