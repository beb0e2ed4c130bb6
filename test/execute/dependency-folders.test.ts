/**
 * The folders the sandbox must see for the installed dependencies: node_modules, and where its linked
 * packages really live (`npm link`, a workspace elsewhere) — under /tmp too, which the sandbox's own /tmp
 * would otherwise hide.
 */
import { lstat, mkdir, mkdtemp, readdir, realpath, rm, symlink, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { existsSync, statSync } from 'node:fs'
import { checkOutWithDependencies, dependencyLinks, installedDependencyFolders, reuseDependencies } from '../../src/execute/dependencies.js'
import { createSandboxProvider } from '../../src/ports/sandbox.js'
import { describeWhereSandboxed } from '../support/sandbox-probe.js'

let dir: string
let repo: string
let elsewhere: string

beforeEach(async () => {
  dir = await realpath(await mkdtemp(join(tmpdir(), 'rtg-dependency-folders-')))
  repo = join(dir, 'repo')
  elsewhere = join(dir, 'elsewhere')
  // A package linked in from outside the checkout, and one that sits in another node_modules with its neighbours.
  await mkdir(join(elsewhere, 'linked-pkg'), { recursive: true })
  await writeFile(join(elsewhere, 'linked-pkg', 'index.js'), "module.exports = 'linked'\n")
  await mkdir(join(elsewhere, 'shared', 'node_modules', '@scope', 'inner'), { recursive: true })
  await writeFile(join(elsewhere, 'shared', 'node_modules', '@scope', 'inner', 'index.js'), "module.exports = 'inner'\n")
  await mkdir(join(repo, 'node_modules', '@scope'), { recursive: true })
  await mkdir(join(repo, 'node_modules', 'plain'))
  await symlink(join(elsewhere, 'linked-pkg'), join(repo, 'node_modules', 'linked-pkg'))
  await symlink(join(elsewhere, 'shared', 'node_modules', '@scope', 'inner'), join(repo, 'node_modules', '@scope', 'inner'))
})

afterEach(() => rm(dir, { recursive: true, force: true }))

test('node_modules, a linked package where it lives, and a package in another node_modules by that whole folder', async () => {
  expect((await installedDependencyFolders(repo, '')).sort()).toEqual([join(repo, 'node_modules'), join(elsewhere, 'linked-pkg'), join(elsewhere, 'shared', 'node_modules')].sort())
})

describeWhereSandboxed('in the sandbox', () => {
  test('the linked packages load, though they live under /tmp outside the checkout', async () => {
    const work = join(dir, 'work')
    await mkdir(work)
    const sandbox = await createSandboxProvider().open(work, [repo, ...(await installedDependencyFolders(repo, ''))])
    try {
      const result = await sandbox.processes.run({ command: process.execPath, args: ['-e', "console.log(require('linked-pkg'), require('@scope/inner'))"], cwd: repo, timeoutMs: 30_000 })
      expect(result.output.trim()).toBe('linked inner')
    } finally {
      sandbox.remove(work)
      sandbox.close()
    }
  })
})

test('a workspace: every package\'s own node_modules (pnpm keeps them beside each package), linked into the tree; a node_modules the tree already has is left as it is', async () => {
  for (const name of ['core', 'utils', 'shared']) {
    await mkdir(join(repo, 'packages', name, 'node_modules', `dep-of-${name}`), { recursive: true })
    await writeFile(join(repo, 'packages', name, 'package.json'), JSON.stringify({ name }))
  }
  // Not a package: no package.json beside it.
  await mkdir(join(repo, 'docs', 'node_modules', 'stray'), { recursive: true })
  const folders = await installedDependencyFolders(repo, 'packages/core')
  expect(folders).toEqual(expect.arrayContaining([join(repo, 'packages', 'core', 'node_modules'), join(repo, 'packages', 'utils', 'node_modules')]))
  expect(folders).not.toContain(join(repo, 'docs', 'node_modules'))
  const tree = join(dir, 'tree')
  // The tree tracks a fixture's node_modules of its own.
  await mkdir(join(tree, 'packages', 'utils', 'node_modules', 'tracked'), { recursive: true })
  await mkdir(join(repo, 'packages', 'utils', 'node_modules', 'tracked'), { recursive: true })
  expect(await reuseDependencies(repo, tree, 'packages/core')).toBe('reused')
  expect(await realpath(join(tree, 'packages', 'core', 'node_modules', 'dep-of-core'))).toBe(join(repo, 'packages', 'core', 'node_modules', 'dep-of-core'))
  // A sibling the package's tests import: its own dependencies resolve from its own node_modules.
  expect(await realpath(join(tree, 'packages', 'shared', 'node_modules', 'dep-of-shared'))).toBe(join(repo, 'packages', 'shared', 'node_modules', 'dep-of-shared'))
  expect(existsSync(join(tree, 'packages', 'utils', 'node_modules', 'dep-of-utils'))).toBe(false)
})

describe('the links made beside the tree while it is checked out, moved in whole', () => {
  test('the tree\'s own node_modules holds them when the checkout is done; nothing is left beside the tree', async () => {
    const tree = join(dir, 'trees', 'head')
    // A checkout that takes a while: the links are made meanwhile, not into a tree there is not yet.
    const checkOut = async () => {
      await new Promise((resolve) => setTimeout(resolve, 50))
      await mkdir(join(tree, 'src'), { recursive: true })
    }
    expect(await checkOutWithDependencies(repo, tree, '', checkOut)).toBe('reused')
    expect((await lstat(join(tree, 'node_modules'))).isDirectory()).toBe(true)
    expect((await readdir(join(tree, 'node_modules'))).sort()).toEqual(['@scope', 'linked-pkg', 'plain'])
    expect(await realpath(join(tree, 'node_modules', 'plain'))).toBe(join(repo, 'node_modules', 'plain'))
    expect(await readdir(join(dir, 'trees'))).toEqual(['head'])
  })

  test('with the run\'s links: every tree of a workspace gets each folder\'s links as new names for the ones made once', async () => {
    await mkdir(join(repo, 'packages', 'core', 'node_modules', 'dep-of-core'), { recursive: true })
    await writeFile(join(repo, 'packages', 'core', 'package.json'), JSON.stringify({ name: 'core' }))
    const trees = join(dir, 'trees')
    const links = dependencyLinks(repo, 'packages/core', trees)
    const [head, preFix] = [join(trees, 'head'), join(trees, 'pre-fix')]
    const checkOut = (tree: string) => async () => void (await mkdir(join(tree, 'packages', 'core'), { recursive: true }))
    await Promise.all([head, preFix].map((tree) => checkOutWithDependencies(repo, tree, 'packages/core', checkOut(tree), links)))
    for (const tree of [head, preFix]) {
      expect(await realpath(join(tree, 'node_modules', 'plain'))).toBe(join(repo, 'node_modules', 'plain'))
      expect(await realpath(join(tree, 'packages', 'core', 'node_modules', 'dep-of-core'))).toBe(join(repo, 'packages', 'core', 'node_modules', 'dep-of-core'))
      // Made once: the two trees' links and the run's are one file.
      expect((await lstat(join(tree, 'packages', 'core', 'node_modules', 'dep-of-core'))).nlink).toBe(3)
    }
    expect((await readdir(trees)).filter((entry) => entry.startsWith('.dependencies-'))).toHaveLength(1)
  })

  // Where the run's links are on another file system than the tree (no hard link across): new links.
  const otherFileSystem = existsSync('/dev/shm') && statSync('/dev/shm').dev !== statSync(tmpdir()).dev
  ;(otherFileSystem ? test : test.skip)('where a hard link cannot be made, the tree gets links of its own to the same places', async () => {
    const elsewhereLinks = await mkdtemp('/dev/shm/rtg-dependency-links-')
    try {
      const tree = join(dir, 'trees', 'head')
      const checkOut = async () => void (await mkdir(tree, { recursive: true }))
      expect(await checkOutWithDependencies(repo, tree, '', checkOut, dependencyLinks(repo, '', elsewhereLinks))).toBe('reused')
      expect((await readdir(join(tree, 'node_modules'))).sort()).toEqual(['@scope', 'linked-pkg', 'plain'])
      expect(await realpath(join(tree, 'node_modules', 'plain'))).toBe(join(repo, 'node_modules', 'plain'))
      expect((await lstat(join(tree, 'node_modules', 'plain'))).nlink).toBe(1)
    } finally {
      await rm(elsewhereLinks, { recursive: true, force: true })
    }
  })

  test('a checkout that fails leaves nothing beside the tree', async () => {
    const tree = join(dir, 'trees', 'pre-fix')
    await expect(checkOutWithDependencies(repo, tree, '', async () => Promise.reject(new Error('git worktree add failed')))).rejects.toThrow('git worktree add failed')
    expect(await readdir(join(dir, 'trees'))).toEqual([])
  })

  test('a node_modules the commit has keeps its entries and gets the links beside them', async () => {
    const tree = join(dir, 'tree')
    await mkdir(join(tree, 'node_modules', 'committed'), { recursive: true })
    expect(await reuseDependencies(repo, tree, '')).toBe('reused')
    expect((await readdir(join(tree, 'node_modules'))).sort()).toEqual(['@scope', 'committed', 'linked-pkg', 'plain'])
    expect((await lstat(join(tree, 'node_modules', 'committed'))).isDirectory()).toBe(true)
  })

  test('a link where node_modules goes is refused, never written through', async () => {
    const tree = join(dir, 'tree')
    await mkdir(join(dir, 'target'))
    await mkdir(tree)
    await symlink(join(dir, 'target'), join(tree, 'node_modules'))
    await expect(reuseDependencies(repo, tree, '')).rejects.toThrow(/is a symbolic link/)
    expect(await readdir(join(dir, 'target'))).toEqual([])
  })
})

test('links a run stops before its trees are made no more, and leave nothing in the trees folder', async () => {
  for (let index = 0; index < 200; index++) await mkdir(join(repo, 'node_modules', `pkg-${index}`))
  const treesDir = join(dir, 'trees')
  const links = dependencyLinks(repo, '', treesDir)
  const made = links.made()
  await links.stop()
  await expect(made).rejects.toThrow('the run ended before its trees')
  expect(await readdir(treesDir)).toEqual([])
})

test('links made before the run stopped them stay usable by its trees', async () => {
  const treesDir = join(dir, 'trees')
  const links = dependencyLinks(repo, '', treesDir)
  const [staged] = await links.made()
  await links.stop()
  expect((await readdir(staged.made!)).sort()).toEqual(['@scope', 'linked-pkg', 'plain'])
})
