/**
 * The trees reuse the repository's installed dependencies; only a PR that changed manifests reinstalls,
 * in the pre-fix tree — from a dependency cache when one is given and holds that install.
 */
import { createHash } from 'node:crypto'
import { existsSync } from 'node:fs'
import { chmod, link, mkdir, mkdtemp, readdir, readFile, readlink, realpath, rm, symlink } from 'node:fs/promises'
import { dirname, join, sep } from 'node:path'
import { UserFacingError } from '../errors.js'
import { isWithin } from '../paths.js'
import { expandCommand, type CommandLine } from '../frameworks/command.js'
import type { Logger } from '../ports/logger.js'
import type { ProcessRunner } from '../ports/process.js'
import { makeFolderInside, moveFolderInside } from '../ports/sandbox-writes.js'
import { eachAtMost } from '../settled.js'
import { runTreeCommand } from './tree-command.js'

/** 'reused-after-failed-install': the pre-fix tree's own install failed; it runs on the head's dependencies. */
export type DependencySource = 'reused' | 'installed' | 'cached' | 'none' | 'reused-after-failed-install'

/** Keeps an install's node_modules between runs (the action: the Actions cache). Failures are its own to report. */
export interface DependencyCache {
  /** True when `dir` was filled from the entry under `key`. */
  restore(dir: string, key: string): Promise<boolean>
  save(dir: string, key: string): Promise<void>
}

export interface DependencyOptions {
  processes: ProcessRunner
  timeoutMs: number
  /** The install-command setting; null: by the lockfile. */
  installCommand: string[] | null
  /** The package folder (working-directory), '' for the root. */
  packageDir: string
  cache: DependencyCache | null
  /** Where the install says it started (an install can take minutes). */
  log: Logger
}

const INSTALLS: Array<{ lockfile: string } & CommandLine> = [
  { lockfile: 'pnpm-lock.yaml', command: 'pnpm', args: ['install', '--frozen-lockfile'], env: {} },
  { lockfile: 'yarn.lock', command: 'yarn', args: ['install', '--frozen-lockfile'], env: {} },
  { lockfile: 'bun.lock', command: 'bun', args: ['install', '--frozen-lockfile'], env: {} },
  { lockfile: 'bun.lockb', command: 'bun', args: ['install', '--frozen-lockfile'], env: {} },
  { lockfile: 'package-lock.json', command: 'npm', args: ['ci'], env: {} },
  { lockfile: 'package.json', command: 'npm', args: ['install'], env: {} }
]

/** What tools write under node_modules (vite's bundled config, caches): each tree gets its own, fresh. */
const WRITTEN_BY_TOOLS = new Set(['.cache', '.vite', '.vite-temp', '.vitest'])

/**
 * The tree `checkOut` makes (git's checkout, and what changes it), on the installed node_modules of the
 * repository root and of the package: no copy, no install. The tree's node_modules is a folder of its own
 * whose entries link to the installed ones, so what a tool writes there (vite's `.vite-temp`, a `.cache`)
 * stays in the tree: the checkout is not the tests' to write. Those links (hundreds) are made in a folder
 * beside the tree while git checks it out, then moved in whole; with the run's `links`, as new names for
 * the links made once for all its trees.
 */
export async function checkOutWithDependencies(repoDir: string, treeDir: string, packageDir: string, checkOut: () => Promise<void>, links: DependencyLinks | null = null): Promise<DependencySource> {
  const stage = async () => stageDependencies(links ? await links.made() : await foldersToLink(repoDir, packageDir), dirname(treeDir))
  const [staged, checkedOut] = await Promise.allSettled([stage(), checkOut()])
  try {
    if (checkedOut.status === 'rejected') throw checkedOut.reason
    if (staged.status === 'rejected') throw staged.reason
    return await placeDependencies(staged.value, repoDir, treeDir, packageDir)
  } finally {
    if (staged.status === 'fulfilled') await rm(staged.value.dir, { recursive: true, force: true })
  }
}

/** The installed dependencies into a tree there already (a pre-fix tree whose own install failed). */
export function reuseDependencies(repoDir: string, treeDir: string, packageDir: string): Promise<DependencySource> {
  return checkOutWithDependencies(repoDir, treeDir, packageDir, async () => undefined)
}

/**
 * The links of a run's trees, made once in a folder of the tool's beside them; each tree's are hard links
 * to these (a new name, no new file: on a busy disk, making hundreds of files is what a tree costs). A run
 * starts them first thing, beside fetching and reading the diff; one that ends before its trees stops them.
 */
export interface DependencyLinks {
  made(): Promise<FolderToLink[]>
  /** No link more; settles once those under way are (the folder is then the run's to remove). */
  stop(): Promise<void>
}

export function dependencyLinks(repoDir: string, packageDir: string, treesDir: string): DependencyLinks {
  let made: Promise<FolderToLink[]> | null = null
  const stopping = new AbortController()
  const make = async () => {
    const staged = await stageDependencies(await foldersToLink(repoDir, packageDir), treesDir, stopping.signal)
    return staged.folders.map(({ folder, installed, links }) => ({ folder, installed, made: links }))
  }
  return {
    made: () => (made ??= make()),
    async stop() {
      stopping.abort(new Error('the run ended before its trees'))
      await made?.catch(() => undefined)
    }
  }
}

/**
 * Links made at once: a file system makes them one after another anyway, and the run's other file accesses
 * (the sandbox opens meanwhile) get the rest of libuv's threads.
 */
const LINKS_AT_ONCE = 2

/** A checkout folder with installed dependencies, and the links to them made already (null: none yet). */
interface FolderToLink {
  folder: string
  installed: string
  made: string | null
}

async function foldersToLink(repoDir: string, packageDir: string): Promise<FolderToLink[]> {
  const folders = await foldersWithDependencies(repoDir, packageDir)
  return folders.map((folder) => ({ folder, installed: join(repoDir, folder, 'node_modules'), made: null })).filter(({ installed }) => existsSync(installed))
}

/** Folders of links made ahead of the tree, in `dir`: one per checkout folder with installed dependencies. */
interface StagedDependencies {
  dir: string
  folders: Array<{ folder: string; installed: string; links: string }>
}

async function stageDependencies(toLink: FolderToLink[], besideDir: string, signal?: AbortSignal): Promise<StagedDependencies> {
  // Beside the tree: on its file system (a rename moves it), in the tool's folder (the sandbox cannot write it).
  await mkdir(besideDir, { recursive: true })
  const staged: StagedDependencies = { dir: await mkdtemp(join(besideDir, '.dependencies-')), folders: [] }
  try {
    for (const { folder, installed, made } of toLink) {
      const links = join(staged.dir, String(staged.folders.length))
      await mkdir(links)
      await chmod(links, 0o755)
      await (made ? linkAgain(made, links) : linkEntries(installed, links, signal))
      staged.folders.push({ folder, installed, links })
    }
    return staged
  } catch (error) {
    await rm(staged.dir, { recursive: true, force: true })
    throw error
  }
}

/** Each link of `made` into `target` by a new name (where the file system has no hard links: a new link). */
async function linkAgain(made: string, target: string): Promise<void> {
  const entries = await readdir(made)
  await eachAtMost(entries, LINKS_AT_ONCE, (entry) => link(join(made, entry), join(target, entry)).catch(async () => symlink(await readlink(join(made, entry)), join(target, entry))))
}

/** Into the tree through the checked walk: after a failed install in the sandbox, its folders may be links. */
async function placeDependencies(staged: StagedDependencies, repoDir: string, treeDir: string, packageDir: string): Promise<DependencySource> {
  let linked = false
  for (const { folder, installed, links } of staged.folders) {
    // A fixture's node_modules that git tracks is in the tree already.
    if (folder !== '' && folder !== packageDir && existsSync(join(treeDir, folder, 'node_modules'))) continue
    const path = join(folder, 'node_modules')
    // A node_modules the commit has (or an empty one) gets the links beside its own entries.
    if (!(await moveFolderInside(treeDir, path, links))) await linkEntries(installed, await makeFolderInside(treeDir, path, 0o755))
    linked = true
  }
  if (linked) return 'reused'
  if (existsSync(join(repoDir, packageDir, 'package.json'))) {
    throw new UserFacingError(`Dependencies are not installed in ${join(repoDir, packageDir)}`, 'run your install command (e.g. npm ci) before regression-testgen')
  }
  return 'none'
}

/**
 * The real folders of the installed node_modules the trees link to, and of the packages in them that are
 * links to elsewhere (`npm link`, a workspace outside the checkout): the sandbox must be able to reach them,
 * and its private /tmp hides whatever of them lives there unless it is named.
 */
export async function installedDependencyFolders(repoDir: string, packageDir: string): Promise<string[]> {
  const folders = (await foldersWithDependencies(repoDir, packageDir)).map((folder) => join(repoDir, folder, 'node_modules')).filter((dir) => existsSync(dir))
  const installed = await Promise.all(folders.map((dir) => realpath(dir)))
  const linked = await Promise.all(installed.map((dir) => linkedPackageFolders(dir)))
  return [...new Set([...installed, ...linked.flat()])]
}

/** How deep workspace packages sit (`packages/x`, `packages/group/y`, `apps/web/packages/z`). */
const MAX_WORKSPACE_DEPTH = 3

/**
 * The folders (checkout-relative) whose installed node_modules the trees get: the root, the package, and
 * every other workspace package with its own (pnpm and yarn keep a package's dependencies beside it, and a
 * package's tests import its siblings, whose imports resolve from their own node_modules).
 */
async function foldersWithDependencies(repoDir: string, packageDir: string): Promise<string[]> {
  const folders = new Set(['', packageDir])
  const walk = async (folder: string, depth: number): Promise<void> => {
    if (depth > MAX_WORKSPACE_DEPTH) return
    const entries = await readdir(join(repoDir, folder), { withFileTypes: true }).catch(() => [])
    if (folder && entries.some((entry) => entry.name === 'node_modules' && entry.isDirectory()) && entries.some((entry) => entry.name === 'package.json')) folders.add(folder)
    const below = entries.filter((entry) => entry.isDirectory() && !entry.name.startsWith('.') && entry.name !== 'node_modules')
    await Promise.all(below.map((entry) => walk(folder ? `${folder}/${entry.name}` : entry.name, depth + 1)))
  }
  await walk('', 0)
  return [...folders]
}

/**
 * Where the linked packages of a node_modules live, when outside it: for a package inside another
 * node_modules, that whole folder (its dependencies sit beside it, and hundreds of links then need one folder).
 */
async function linkedPackageFolders(nodeModules: string): Promise<string[]> {
  const entries = await readdir(nodeModules, { withFileTypes: true }).catch(() => [])
  const scoped = await Promise.all(entries.filter((entry) => entry.name.startsWith('@') && entry.isDirectory()).map(async (scope) => (await readdir(join(nodeModules, scope.name), { withFileTypes: true }).catch(() => [])).map((entry) => ({ entry, path: join(nodeModules, scope.name, entry.name) }))))
  const packages = [...entries.map((entry) => ({ entry, path: join(nodeModules, entry.name) })), ...scoped.flat()]
  const targets = await Promise.all(packages.filter(({ entry }) => entry.isSymbolicLink()).map(({ path }) => realpath(path).catch(() => null)))
  const outside = targets.filter((target): target is string => target !== null && !isWithin(target, nodeModules))
  return [...new Set(outside.map(enclosingNodeModules))]
}

/** The nearest node_modules folder holding `dir`, else `dir` itself. */
function enclosingNodeModules(dir: string): string {
  const parts = dir.split(sep)
  const at = parts.lastIndexOf('node_modules')
  return at > 0 ? parts.slice(0, at + 1).join(sep) : dir
}

/** A link in `target` to each installed entry but what tools write (each tree gets its own of those). */
async function linkEntries(installed: string, target: string, signal?: AbortSignal): Promise<void> {
  // Straight to the real folder: a linked node_modules may pass through folders the sandbox cannot enter.
  const source = await realpath(installed)
  const entries = (await readdir(source)).filter((entry) => !WRITTEN_BY_TOOLS.has(entry))
  await eachAtMost(entries, LINKS_AT_ONCE, (entry) => symlink(join(source, entry), join(target, entry)), signal)
}

/** A fresh install at the tree's root, for a pre-fix tree whose manifests differ from the head's. */
export async function installDependencies(treeDir: string, options: DependencyOptions): Promise<DependencySource> {
  const install = options.installCommand ? expandCommand(options.installCommand, [], []) : INSTALLS.find((candidate) => existsSync(join(treeDir, candidate.lockfile)))
  if (!install) return 'none'
  const installed = join(treeDir, 'node_modules')
  const key = options.cache && (await cacheKey(treeDir, install))
  if (key && (await options.cache!.restore(installed, key))) return 'cached'
  await runTreeCommand(options.processes, install, treeDir, options.timeoutMs, 'Installing dependencies in the pre-fix tree', options.log)
  if (key && existsSync(installed)) await options.cache!.save(installed, key)
  return 'installed'
}

/** The install is the same when the command, the manifests it reads, the platform and node's major are. */
async function cacheKey(treeDir: string, install: CommandLine): Promise<string> {
  const hash = createHash('sha256').update(JSON.stringify([install.command, install.args, install.env]))
  for (const { lockfile } of INSTALLS) if (existsSync(join(treeDir, lockfile))) hash.update(lockfile).update(await readFile(join(treeDir, lockfile)))
  const node = process.versions.node.split('.')[0]
  return `regression-testgen-pre-fix-deps-v1-${process.platform}-${process.arch}-node${node}-${hash.digest('hex').slice(0, 32)}`
}
