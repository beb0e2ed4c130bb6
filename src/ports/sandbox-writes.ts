/**
 * Writing, removing and making folders where the sandbox could have written (the trees, the runners'
 * scratch folders): the one place that does it. A test can replace any folder or file it may write with a
 * symbolic link (to a folder of root's, to /etc); the tool, root or a sudo-capable user, must never follow it.
 *
 * The rule, the checked walk: from `root` (a folder the sandbox cannot replace: the tool's own, or one in a
 * folder of the tool's) down, lstat every component and refuse a link or a non-folder on the way; create
 * missing folders one level at a time; open the final file with O_NOFOLLOW and O_CREAT|O_EXCL (an existing
 * plain file is unlinked first, so not even a hard link to another file is written through); change a
 * folder's mode through a descriptor opened with O_NOFOLLOW, never by path. No sandboxed process outlives its
 * command (its PID namespace ends with it), so nothing changes a path between the walk and its use.
 */
import { constants, type Stats } from 'node:fs'
import { lstat, mkdir, open, rename, rm, unlink } from 'node:fs/promises'
import { isAbsolute, join } from 'node:path'
import { UserFacingError } from '../errors.js'

/** Longer names than Linux allows (255 bytes) are refused before the system refuses them with a raw error. */
const MAX_NAME_BYTES = 255

/** A path the tool will not write, remove or make a folder at: says which and why. Ends the run. */
export class SandboxPathRefused extends UserFacingError {
  constructor(
    readonly action: 'write' | 'remove' | 'make the folder' | 'move a folder to',
    readonly path: string,
    readonly reason: string
  ) {
    super(`Refused to ${action} ${printable(path)}: ${reason}`, 'a test (or a commit) put a link, or a file where a folder should be, in a folder the tool writes; nothing was written through it')
    this.name = 'SandboxPathRefused'
  }
}

/** Writes `content` at `relativePath` under `root` as a new regular file, making missing folders on the way. */
export async function writeInside(root: string, relativePath: string, content: string | Uint8Array, mode = 0o666): Promise<string> {
  const { path, parent } = await walk(root, relativePath, 'write', 'create')
  const existing = await lstatOrNull(path)
  if (existing?.isSymbolicLink()) throw new SandboxPathRefused('write', path, 'it is a symbolic link')
  if (existing && !existing.isFile()) throw new SandboxPathRefused('write', path, `it is ${kindOf(existing)}`)
  if (existing) await unlink(path)
  let handle
  try {
    handle = await open(path, constants.O_WRONLY | constants.O_CREAT | constants.O_EXCL | constants.O_NOFOLLOW, mode)
  } catch (error) {
    throw new SandboxPathRefused('write', path, `it could not be created in ${parent} (${codeOf(error)})`)
  }
  try {
    await handle.writeFile(content)
  } finally {
    await handle.close()
  }
  return path
}

/**
 * Removes the file (or link: unlinking one never touches its target) at `relativePath` under `root`; a
 * folder only when `recursive` (node's rm unlinks the links it meets inside, never follows them). Nothing
 * there, or a folder on the way missing: nothing to do.
 */
export async function removeInside(root: string, relativePath: string, options: { recursive?: boolean } = {}): Promise<void> {
  const walked = await walk(root, relativePath, 'remove', 'stop').catch((error: unknown) => {
    if (error instanceof MissingFolder) return null
    throw error
  })
  if (!walked) return
  const existing = await lstatOrNull(walked.path)
  if (!existing) return
  if (!existing.isDirectory()) return unlink(walked.path)
  if (!options.recursive) throw new SandboxPathRefused('remove', walked.path, 'it is a folder')
  await rm(walked.path, { recursive: true, force: true })
}

/**
 * Makes the folder at `relativePath` under `root` (and the missing ones on the way, mode 0755), or checks an
 * existing one, then gives it `mode` through a descriptor of the folder itself.
 */
export async function makeFolderInside(root: string, relativePath: string, mode: number): Promise<string> {
  const { path } = await walk(root, `${relativePath}/.`, 'make the folder', 'create')
  let handle
  try {
    handle = await open(path, constants.O_RDONLY | constants.O_DIRECTORY | constants.O_NOFOLLOW)
  } catch (error) {
    throw new SandboxPathRefused('make the folder', path, `it could not be opened as a folder (${codeOf(error)})`)
  }
  try {
    await handle.chmod(mode)
  } finally {
    await handle.close()
  }
  return path
}

/**
 * Moves `folder` (the tool's own, on the same file system) to `relativePath` under `root`, making missing
 * folders on the way: one rename, however much it holds. False, and nothing moved, when something is there
 * already (rename never follows a link there, and would merge into nothing).
 */
export async function moveFolderInside(root: string, relativePath: string, folder: string): Promise<boolean> {
  const { path, parent } = await walk(root, relativePath, 'move a folder to', 'create')
  if (await lstatOrNull(path)) return false
  try {
    await rename(folder, path)
  } catch (error) {
    throw new SandboxPathRefused('move a folder to', path, `it could not be moved into ${parent} (${codeOf(error)})`)
  }
  return true
}

/** A folder on the way is missing, and the walk was not to create it. */
class MissingFolder extends Error {}

/**
 * Checks (or makes) every folder from `root` to the last component's folder; returns the last component's
 * path. A trailing `.` (makeFolderInside) walks the whole path as folders.
 */
async function walk(root: string, relativePath: string, action: SandboxPathRefused['action'], missing: 'create' | 'stop'): Promise<{ path: string; parent: string }> {
  const names = relativePath.split('/').filter((name) => name !== '' && name !== '.')
  const endsInFolder = relativePath.endsWith('/.')
  const shown = join(root, relativePath)
  if (isAbsolute(relativePath) || names.includes('..') || names.length === 0) throw new SandboxPathRefused(action, shown, `it is not a relative path inside ${root}`)
  const tooLong = names.find((name) => Buffer.byteLength(name) > MAX_NAME_BYTES)
  if (tooLong) throw new SandboxPathRefused(action, shown, `the name ${printable(tooLong.slice(0, 40))}… is longer than ${MAX_NAME_BYTES} bytes`)
  const rootStats = await lstatOrNull(root)
  if (!rootStats && missing === 'stop') throw new MissingFolder(root)
  checkFolder(root, shown, action, rootStats)
  const folders = endsInFolder ? names : names.slice(0, -1)
  let current = root
  for (const name of folders) {
    current = join(current, name)
    const stats = await lstatOrNull(current)
    if (stats) checkFolder(current, shown, action, stats)
    else if (missing === 'stop') throw new MissingFolder(current)
    else await makeOneFolder(current, shown, action)
  }
  return endsInFolder ? { path: current, parent: join(current, '..') } : { path: join(current, names[names.length - 1]), parent: current }
}

function checkFolder(folder: string, shown: string, action: SandboxPathRefused['action'], stats: Stats | null): void {
  if (!stats) throw new SandboxPathRefused(action, shown, `its folder ${folder} does not exist`)
  if (stats.isSymbolicLink()) throw new SandboxPathRefused(action, shown, `${folder} is a symbolic link`)
  if (!stats.isDirectory()) throw new SandboxPathRefused(action, shown, `${folder} is not a folder (${kindOf(stats)})`)
}

/** One level, never `recursive` (which would follow a link it met on the way). */
async function makeOneFolder(folder: string, shown: string, action: SandboxPathRefused['action']): Promise<void> {
  try {
    await mkdir(folder, 0o755)
  } catch (error) {
    throw new SandboxPathRefused(action, shown, `${folder} could not be made (${codeOf(error)})`)
  }
}

async function lstatOrNull(path: string): Promise<Stats | null> {
  try {
    return await lstat(path)
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code
    if (code === 'ENOENT') return null
    throw error
  }
}

function kindOf(stats: Stats): string {
  if (stats.isSymbolicLink()) return 'a symbolic link'
  if (stats.isFIFO()) return 'a FIFO'
  if (stats.isDirectory()) return 'a folder'
  if (stats.isSocket()) return 'a socket'
  if (stats.isCharacterDevice() || stats.isBlockDevice()) return 'a device'
  if (stats.isFile()) return 'a file'
  return 'not a plain file'
}

function codeOf(error: unknown): string {
  return (error as NodeJS.ErrnoException).code ?? String(error)
}

/** A path the test chose may hold control characters: shown escaped, on one line. */
function printable(path: string): string {
  return path.replace(/[\u0000-\u001f\u007f]/g, (char) => `\\x${char.charCodeAt(0).toString(16).padStart(2, '0')}`)
}
