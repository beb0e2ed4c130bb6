/**
 * Listing the files of a folder the sandbox wrote (a build's output, `dist/`): the one place that walks one.
 * The build is the repository's code, so a folder may hold links (to `/`, to a folder of root's) or be one;
 * the walk never follows a link, lists only regular files, and stops at a bound so a huge tree costs little.
 */
import { lstat, readdir } from 'node:fs/promises'
import { join } from 'node:path'

export interface Listing {
  /** Root-relative, '/'-separated paths of the regular files found, in walk order. */
  files: string[]
  /** True when the walk stopped at the bound: there are more files than listed. */
  truncated: boolean
}

/** Folders a build never writes its output into, skipped to keep the walk short. */
const SKIPPED = new Set(['node_modules', '.git'])

/**
 * The regular files under `root/folder` (folder root-relative, '/'-separated, '' for root itself), links
 * neither followed nor listed; empty when the folder is missing, is a link, or a link is on the way to it.
 */
export async function listSandboxFiles(root: string, folder: string, options: { limit?: number; keep?: (path: string) => boolean } = {}): Promise<Listing> {
  const { limit = 100_000, keep = () => true } = options
  const listing: Listing = { files: [], truncated: false }
  if (!(await plainFolders(root, folder))) return listing
  const pending = [folder]
  while (pending.length > 0) {
    const current = pending.shift()!
    const entries = await readdir(join(root, current), { withFileTypes: true }).catch(() => [])
    for (const entry of entries.sort((a, b) => a.name.localeCompare(b.name))) {
      const path = current ? `${current}/${entry.name}` : entry.name
      // Dirent types come from lstat: a link is neither a file nor a folder here.
      if (entry.isDirectory() && !SKIPPED.has(entry.name)) pending.push(path)
      else if (entry.isFile() && keep(path)) {
        if (listing.files.length >= limit) return { ...listing, truncated: true }
        listing.files.push(path)
      }
    }
  }
  return listing
}

/** True when every component from root down to the folder is a folder, none a link. */
async function plainFolders(root: string, folder: string): Promise<boolean> {
  return (await linkOnTheWay(root, folder)) === null && (await lstat(join(root, folder)).catch(() => null))?.isDirectory() === true
}

/** The first component (root-relative) from root down to `path` that is a symbolic link; null when none is. */
export async function linkOnTheWay(root: string, path: string): Promise<string | null> {
  let current = ''
  for (const name of path.split('/').filter(Boolean)) {
    current = current ? `${current}/${name}` : name
    const stats = await lstat(join(root, current)).catch(() => null)
    if (!stats) return null
    if (stats.isSymbolicLink()) return current
  }
  return null
}
