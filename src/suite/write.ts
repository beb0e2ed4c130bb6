/**
 * Writes suite files into a tree, never outside it: no absolute path, no `..`, and no symlink (a folder on
 * the way or the file itself) that resolves out of the tree. Every folder that already exists is checked
 * before anything is created, so not even an empty folder appears outside.
 */
import { lstat, mkdir, realpath, rm, writeFile } from 'node:fs/promises'
import { isAbsolute, join, relative, sep } from 'node:path'
import type { SuiteFile } from '../domain.js'
import { UserFacingError } from '../errors.js'

/** The tree as given (for messages) and as resolved (for checks). */
interface Tree {
  dir: string
  root: string
}

export async function writeSuiteFiles(rootDir: string, files: SuiteFile[]): Promise<void> {
  const tree = { dir: rootDir, root: await realpath(rootDir) }
  for (const file of files) await writeFile(await safeTarget(tree, file.path), file.content, { flag: 'w' })
}

export async function removeSuiteFiles(rootDir: string, files: SuiteFile[]): Promise<void> {
  await Promise.all(files.map((file) => rm(join(rootDir, file.path), { force: true })))
}

/** Walks the path down from the root, checking each existing folder before creating the next missing one. */
async function safeTarget(tree: Tree, path: string): Promise<string> {
  const refuse = (why: string) => new UserFacingError(`Refusing to write ${path}: ${why}`)
  const segments = path.split('/').filter((segment) => segment !== '' && segment !== '.')
  if (isAbsolute(path) || segments.length === 0 || segments.includes('..')) throw refuse(`it is not a relative path inside ${tree.dir}`)
  let dir = tree.root
  for (const segment of segments.slice(0, -1)) {
    dir = join(dir, segment)
    const entry = await lstatOrNull(dir)
    if (!entry) await mkdir(dir)
    else if (!entry.isSymbolicLink() && !entry.isDirectory()) throw refuse(`${relative(tree.root, dir)} is not a folder`)
    const escape = entry?.isSymbolicLink() && (await symlinkEscape(tree, dir))
    if (escape) throw refuse(escape)
  }
  const target = join(dir, segments[segments.length - 1])
  const escape = (await lstatOrNull(target))?.isSymbolicLink() && (await symlinkEscape(tree, target))
  if (escape) throw refuse(escape)
  return target
}

/** A symlink in the tree may lead elsewhere in the tree, never out of it (nor nowhere, where a write would create its target). */
async function symlinkEscape(tree: Tree, link: string): Promise<string | null> {
  const resolved = await realpath(link).catch(() => null)
  if (resolved === null) return `${relative(tree.root, link)} is a symlink to nothing`
  if (resolved !== tree.root && !resolved.startsWith(tree.root + sep)) return `${relative(tree.root, link)} is a symlink out of ${tree.dir}`
  return null
}

async function lstatOrNull(path: string) {
  try {
    return await lstat(path)
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return null
    throw error
  }
}
