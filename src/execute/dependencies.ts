/** The trees reuse the repository's installed dependencies; only a PR that changed manifests reinstalls. */
import { existsSync } from 'node:fs'
import { symlink } from 'node:fs/promises'
import { join } from 'node:path'
import { UserFacingError } from '../errors.js'
import type { ProcessRunner } from '../ports/process.js'

export type DependencySource = 'reused' | 'installed' | 'none'

const INSTALLS: Array<{ lockfile: string; command: string; args: string[] }> = [
  { lockfile: 'pnpm-lock.yaml', command: 'pnpm', args: ['install', '--frozen-lockfile'] },
  { lockfile: 'yarn.lock', command: 'yarn', args: ['install', '--frozen-lockfile'] },
  { lockfile: 'package-lock.json', command: 'npm', args: ['ci'] },
  { lockfile: 'package.json', command: 'npm', args: ['install'] }
]

/** Links the repository's node_modules into a tree (a symlink: no copy, no install). */
export async function reuseDependencies(repoDir: string, treeDir: string): Promise<DependencySource> {
  const installed = join(repoDir, 'node_modules')
  if (!existsSync(installed)) {
    if (!existsSync(join(repoDir, 'package.json'))) return 'none'
    throw new UserFacingError(`Dependencies are not installed in ${repoDir}`, 'run your install command (e.g. npm ci) before regression-testgen')
  }
  await symlink(installed, join(treeDir, 'node_modules'), 'dir')
  return 'reused'
}

/** A fresh install in the tree, by its lockfile, for a pre-fix tree whose manifests differ from the head's. */
export async function installDependencies(treeDir: string, processes: ProcessRunner, timeoutMs: number): Promise<DependencySource> {
  const install = INSTALLS.find((candidate) => existsSync(join(treeDir, candidate.lockfile)))
  if (!install) return 'none'
  const result = await processes.run({ command: install.command, args: install.args, cwd: treeDir, timeoutMs, env: installEnvironment(process.env) })
  if (result.exitCode !== 0) {
    throw new UserFacingError(`${install.command} ${install.args.join(' ')} failed in the pre-fix tree (exit ${result.exitCode}${result.timedOut ? ', timed out' : ''}): ${result.output.slice(-1500)}`)
  }
  return 'installed'
}

/** An install (not a test run) may need the registry settings and proxies of the machine. */
function installEnvironment(parent: NodeJS.ProcessEnv): Record<string, string> {
  const wanted = /^(?:npm_config_|yarn_|pnpm_|https?_proxy$|no_proxy$)/i
  return Object.fromEntries(Object.entries(parent).filter((entry): entry is [string, string] => wanted.test(entry[0]) && entry[1] !== undefined))
}
