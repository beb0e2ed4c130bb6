import { realpath } from 'node:fs/promises'
import { relative, sep } from 'node:path'

/** The tree's path and its real path: runners report real paths (a symlinked tmp dir resolves). */
export async function treeRoots(treeDir: string): Promise<string[]> {
  return [treeDir, await realpath(treeDir).catch(() => treeDir)]
}

/** A runner's absolute path as a repository-relative, '/'-separated one. */
export function repoRelative(path: string, roots: string[]): string {
  for (const root of roots) {
    const rel = relative(root, path)
    if (!rel.startsWith('..') && rel !== '') return rel.split(sep).join('/')
  }
  return path.split(sep).join('/')
}
