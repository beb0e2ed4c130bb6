/**
 * The CLI's --apply (issue 24 item 4): the delivered files written into the repository's working tree at
 * their paths, for the user to review with git. All or nothing: any path that exists, or that passes
 * through a symbolic link or a file, refuses them all before one is written.
 */
import { lstat, mkdir, writeFile } from 'node:fs/promises'
import { dirname, join } from 'node:path'
import type { SuiteFile } from '../domain.js'
import { UserFacingError } from '../errors.js'
import { unsafePathProblem } from '../suite/file-path.js'

export async function applyToWorkingTree(root: string, files: SuiteFile[]): Promise<string[]> {
  const problems = (await Promise.all(files.map(async (file) => [file.path, await pathProblem(root, file.path)] as const))).filter(([, problem]) => problem)
  if (problems.length) {
    throw new UserFacingError(`--apply wrote nothing: ${problems.map(([path, problem]) => `${path} (${problem})`).join('; ')}`, 'move or remove what is in the way, or apply suite.patch from the output folder by hand')
  }
  for (const file of files) {
    const target = join(root, file.path)
    await mkdir(dirname(target), { recursive: true })
    // `wx`: never over a file (nor through a link) that appeared since the check.
    await writeFile(target, file.content, { flag: 'wx', mode: 0o644 })
  }
  return files.map((file) => file.path)
}

/** Why the file may not be written there: an unsafe path, a link or a file on the way, or something already there. */
async function pathProblem(root: string, path: string): Promise<string | null> {
  const unsafe = unsafePathProblem(path)
  if (unsafe) return unsafe
  const names = path.split('/')
  for (let depth = 1; depth <= names.length; depth++) {
    const sofar = names.slice(0, depth).join('/')
    const entry = await lstat(join(root, sofar)).catch(() => null)
    if (!entry) return null
    if (entry.isSymbolicLink()) return `${sofar} is a symbolic link`
    if (depth === names.length) return 'a file already exists there'
    if (!entry.isDirectory()) return `${sofar} is not a folder`
  }
  return null
}
