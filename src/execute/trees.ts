/**
 * The two trees the suite runs in, both git worktrees outside the user's checkout: the head, and the
 * pre-fix tree — the head with the PR's non-test source changes (and manifests) reverted.
 */
import { rm } from 'node:fs/promises'
import { join } from 'node:path'
import type { ChangeSet, ChangedFile } from '../domain.js'
import { isManifest } from '../diff/classify.js'
import type { GitCommands } from '../ports/git.js'
import type { Logger } from '../ports/logger.js'
import { expandCommand } from '../frameworks/command.js'
import type { Sandbox } from '../ports/sandbox.js'
import { UserFacingError } from '../errors.js'
import { together } from '../settled.js'
import { removeInside, writeInside } from '../ports/sandbox-writes.js'
import { changesInstall } from './dependency-change.js'
import { firstErrorLines } from '../frameworks/output.js'
import { runTreeCommand } from './tree-command.js'
import { checkOutWithDependencies, dependencyLinks, installDependencies, reuseDependencies, type DependencyLinks, type DependencyOptions, type DependencySource } from './dependencies.js'

/**
 * How the trees are set up: the sandbox that may write them and runs their installs, and how to install.
 * The sandbox may still be opening: git checks the trees out meanwhile, and they wait for it only to be
 * shared with it (or to install in it).
 */
export type TreeOptions = Omit<DependencyOptions, 'processes'> & {
  sandbox: Sandbox | Promise<Sandbox>
  /** The node_modules links, made once for all the run's trees (started before the trees, in `workDir`); else made here. */
  links?: DependencyLinks
}

export interface Trees {
  head: string
  preFix: string
  /** The files reverted in the pre-fix tree. */
  reverted: string[]
  preFixDependencies: DependencySource
  /** Why the pre-fix tree's own install failed, when it fell back to the head's dependencies. */
  preFixInstallError: string | null
  /**
   * One more worktree at head, `change` applied to it (a hunk taken out), on the head's dependencies and
   * shared with the sandbox; removed with the others.
   */
  addVariant(name: string, change: (treeDir: string) => Promise<void>): Promise<string>
  dispose(): Promise<void>
}

/** What the pre-fix tree takes back: the fix's source files, and manifests (a fix may be a dependency bump). */
export function filesToRevert(changeSet: ChangeSet): ChangedFile[] {
  return changeSet.files.filter((file) => file.role === 'source' || isManifest(file.path))
}

/**
 * Where each file the pre-fix tree has differently from head comes from: its base version at the merge
 * base, or nothing (the fix added it, or a rename's new name). Any other file is as at head.
 */
export function preFixSources(changeSet: ChangeSet): Map<string, { commit: string; path: string } | null> {
  const sources = new Map<string, { commit: string; path: string } | null>()
  for (const file of filesToRevert(changeSet)) {
    if (file.status !== 'deleted') sources.set(file.path, null)
    if (file.basePath !== null) sources.set(file.basePath, { commit: changeSet.mergeBase, path: file.basePath })
  }
  return sources
}

export async function prepareTrees(repositoryGit: GitCommands, changeSet: ChangeSet, workDir: string, options: TreeOptions): Promise<Trees> {
  const git = oneWorktreeAddAtATime(repositoryGit)
  const head = join(workDir, 'head')
  const preFix = join(workDir, 'pre-fix')
  // The tool's git never works in a tree again once the repository's code has run there: the folder goes
  // first (the sandbox's files with it), then git forgets the worktrees.
  const worktrees = [head, preFix]
  const dispose = async () => {
    await removeTrees(options.sandbox, workDir)
    for (const dir of worktrees) await git.removeWorktree(dir)
  }
  const links = options.links ?? dependencyLinks(git.repoDir, options.packageDir, workDir)
  const addVariant = async (name: string, change: (treeDir: string) => Promise<void>) => {
    const dir = join(workDir, name)
    worktrees.push(dir)
    await checkOutWithDependencies(git.repoDir, dir, options.packageDir, async () => {
      await git.addWorktree(dir, changeSet.head)
      await change(dir)
    }, links)
    await (await options.sandbox).share(dir)
    return dir
  }
  const addHead = async () => {
    await checkOutWithDependencies(git.repoDir, head, options.packageDir, () => git.addWorktree(head, changeSet.head), links)
    await (await options.sandbox).share(head)
  }
  try {
    // Side by side: neither tree reads the other. Both settle before a failure disposes of them.
    const [, preFixAdded] = await together(addHead(), addPreFixTree(git, changeSet, preFix, options, links))
    return { head, preFix, ...preFixAdded, addVariant, dispose }
  } catch (error) {
    await dispose()
    throw error
  }
}

/** The trees' folder, with what the sandbox wrote there; a sandbox that never opened wrote nothing. */
async function removeTrees(opening: TreeOptions['sandbox'], dir: string): Promise<void> {
  const sandbox = await Promise.resolve(opening).catch(() => null)
  if (sandbox) sandbox.remove(dir)
  else await rm(dir, { recursive: true, force: true })
}

/**
 * The trees are set up side by side, but git adds one worktree at a time: `git worktree add` reads the
 * entries of the others (.git/worktrees/), which an add going on at the same time is still writing.
 */
function oneWorktreeAddAtATime(git: GitCommands): GitCommands {
  let adding: Promise<unknown> = Promise.resolve()
  const addWorktree = (dir: string, commit: string) => {
    const added = adding.then(() => git.addWorktree(dir, commit))
    adding = added.catch(() => undefined)
    return added
  }
  return { ...git, addWorktree }
}

/** A worktree at head with the fix taken out, on the repository's installed dependencies where they fit. */
export async function addPreFixTree(git: GitCommands, changeSet: ChangeSet, dir: string, options: TreeOptions, links: DependencyLinks | null = null): Promise<Pick<Trees, 'reverted' | 'preFixDependencies' | 'preFixInstallError'>> {
  const reverted = filesToRevert(changeSet).map((file) => file.path)
  const checkOut = async () => {
    // The merge-base's files are read while git checks the tree out.
    const [, contents] = await Promise.all([git.addWorktree(dir, changeSet.head), preFixContents(git, changeSet)])
    await takeOutFix(dir, contents)
  }
  if (!(await fixChangesInstall(git, changeSet))) {
    const preFixDependencies = await checkOutWithDependencies(git.repoDir, dir, options.packageDir, checkOut, links)
    await (await options.sandbox).share(dir)
    return { reverted, preFixDependencies, preFixInstallError: null }
  }
  await checkOut()
  // The install runs in the sandbox: the tree is shared before it.
  const sandbox = await options.sandbox
  await sandbox.share(dir)
  try {
    return { reverted, preFixDependencies: await installDependencies(dir, { ...options, processes: sandbox.processes }), preFixInstallError: null }
  } catch (error) {
    if (!(error instanceof UserFacingError)) throw error
    // A lockfile this machine's package manager cannot install (an old format, a registry out of reach):
    // the head's dependencies still test the reverted sources, unless the fix was the dependency change.
    sandbox.remove(join(dir, 'node_modules'))
    await reuseDependencies(git.repoDir, dir, options.packageDir)
    return { reverted, preFixDependencies: 'reused-after-failed-install', preFixInstallError: firstErrorLines(error.message, 4) }
  }
}

/** A manifest the fix changed in a way that installs other packages (not a version bump, not lockfile flags). */
async function fixChangesInstall(git: GitCommands, changeSet: ChangeSet): Promise<boolean> {
  for (const file of changeSet.files.filter((changed) => isManifest(changed.path))) {
    const before = file.basePath === null ? null : await git.fileAt(changeSet.mergeBase, file.basePath)
    const after = file.status === 'deleted' ? null : await git.fileAt(changeSet.head, file.path)
    if (changesInstall(file.path, before, after)) return true
  }
  return false
}

/** Takes the fix out of a checkout of the head: its source files (and manifests) go back to the merge-base. */
export async function revertFix(git: GitCommands, changeSet: ChangeSet, treeDir: string): Promise<string[]> {
  await takeOutFix(treeDir, await preFixContents(git, changeSet))
  return filesToRevert(changeSet).map((file) => file.path)
}

/** Each file to revert, with its merge-base content (null: the pre-fix tree has none there). */
async function preFixContents(git: GitCommands, changeSet: ChangeSet): Promise<Array<{ file: ChangedFile; content: string | null }>> {
  const contents = []
  for (const file of filesToRevert(changeSet)) contents.push({ file, content: file.basePath === null ? null : await git.fileAt(changeSet.mergeBase, file.basePath) })
  return contents
}

async function takeOutFix(treeDir: string, contents: Array<{ file: ChangedFile; content: string | null }>): Promise<void> {
  for (const { file, content } of contents) {
    // Through the checked walk: a link committed in the tree is never written through.
    if (file.status !== 'deleted') await removeInside(treeDir, file.path)
    if (file.basePath !== null && content !== null) await writeInside(treeDir, file.basePath, content)
  }
}

/** The build-command, in the package folder of each tree, so the tests import this tree's own output. */
export async function buildTrees(trees: Trees, buildCommand: string[], packageDir: string, processes: Sandbox['processes'], timeoutMs: number, log: Logger): Promise<void> {
  const command = expandCommand(buildCommand, [], [])
  await runTreeCommand(processes, command, join(trees.head, packageDir), timeoutMs, 'The build at head', log)
  await runTreeCommand(processes, command, join(trees.preFix, packageDir), timeoutMs, 'The build of the pre-fix tree', log)
}
