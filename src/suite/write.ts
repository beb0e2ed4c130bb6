/** Writes suite files into a tree, refusing any path that would resolve outside it (e.g. through a symlink). */
import { mkdir, realpath, rm, writeFile } from 'node:fs/promises'
import { dirname, join, relative, sep } from 'node:path'
import type { SuiteFile } from '../domain.js'
import { UserFacingError } from '../errors.js'

export async function writeSuiteFiles(rootDir: string, files: SuiteFile[]): Promise<void> {
  const root = await realpath(rootDir)
  for (const file of files) {
    const target = join(root, file.path)
    const parent = dirname(target)
    await mkdir(parent, { recursive: true })
    const resolvedParent = await realpath(parent)
    if (resolvedParent !== root && !resolvedParent.startsWith(root + sep)) {
      throw new UserFacingError(`Refusing to write ${file.path}: it resolves outside ${rootDir} (${relative(root, resolvedParent)})`)
    }
    await writeFile(join(resolvedParent, relative(parent, target)), file.content, { flag: 'w' })
  }
}

export async function removeSuiteFiles(rootDir: string, files: SuiteFile[]): Promise<void> {
  await Promise.all(files.map((file) => rm(join(rootDir, file.path), { force: true })))
}
