/**
 * Writes suite files into a tree, never outside it: no absolute path, no `..`, and no symbolic link
 * followed (a folder on the way or the file itself: the tests may have replaced either). The checked walk
 * is ports/sandbox-writes.ts; every folder that already exists is checked before the next is created.
 */
import type { SuiteFile } from '../domain.js'
import { removeInside, writeInside } from '../ports/sandbox-writes.js'

export async function writeSuiteFiles(rootDir: string, files: SuiteFile[]): Promise<void> {
  for (const file of files) await writeInside(rootDir, file.path, file.content)
}

/** A folder of the suite's replaced by a link ends the run (SandboxPathRefused) before anything is removed through it. */
export async function removeSuiteFiles(rootDir: string, files: SuiteFile[]): Promise<void> {
  for (const file of files) await removeInside(rootDir, file.path)
}
