/**
 * Reading files the sandbox could have written (a runner's reports and coverage in a scratch folder): the
 * one place that opens them. A test can replace its report with a link to a file only the tool may read, a
 * FIFO that would block a read forever, or a file far too big to load; none of these is followed or read.
 *
 * The rule: no link anywhere between the scratch folder and the file (lstat every component, and open the
 * file itself with O_NOFOLLOW), O_NONBLOCK so a FIFO opens without a writer, then `fstat` the open file —
 * only a regular file, owned by a uid that may write runner output (the tool's own, when it ran the runner
 * unisolated, or the sandbox's), no bigger than its kind's limit — and read from that same descriptor.
 */
import { closeSync, constants, fstatSync, openSync, readSync, type Stats } from 'node:fs'
import { lstat, open } from 'node:fs/promises'
import { isAbsolute, join, relative, sep } from 'node:path'
import { UserFacingError } from '../errors.js'

const MB = 1024 * 1024

/** How much of each kind of runner output the tool reads at most. */
export const SANDBOX_FILE_LIMITS = {
  /** Test results: jest/vitest/mocha JSON, JUnit XML, TAP. */
  results: 32 * MB,
  /** Coverage: V8 coverage, istanbul JSON, lcov, coverage.py JSON. */
  coverage: 64 * MB,
  /** The repository's own configuration, read from a tree the tests ran in (package.json, mocha.opts): any owner. */
  config: 4 * MB,
  /** A generated test file as the repository's formatter or linter left it in the head tree. */
  suite: 4 * MB
} as const

export type SandboxFileKind = keyof typeof SANDBOX_FILE_LIMITS

/** Deeper JSON than any runner writes (V8 coverage and jest reports nest under 10): refused before walking it. */
export const MAX_JSON_DEPTH = 64

/** A file the sandbox wrote that the tool will not read: says which and why. Ends the run. */
export class SandboxFileRefused extends UserFacingError {
  constructor(
    readonly path: string,
    readonly reason: string
  ) {
    super(`Refused to read ${printable(path)}, written by the repository's tests: ${reason}`, 'a test replaced or bloated the runner\'s report; the run cannot trust its results')
    this.name = 'SandboxFileRefused'
  }
}

/** Owners besides the tool's own uid whose files count as runner output: the sandbox's user(s). */
const sandboxOwners = new Set<number>()

/** The sandbox says which uid its commands run as, so their files are accepted. */
export function acceptSandboxOwner(uid: number): void {
  sandboxOwners.add(uid)
}

function ownerAccepted(uid: number): boolean {
  return uid === process.getuid?.() || sandboxOwners.has(uid)
}

/**
 * The text of `path` (inside `scratchRoot`, the folder the tool made for the runner), or null when there
 * is no such file. Anything but a plain, bounded file of an accepted owner throws SandboxFileRefused.
 */
export async function readSandboxFile(scratchRoot: string, path: string, kind: SandboxFileKind): Promise<string | null> {
  const limit = SANDBOX_FILE_LIMITS[kind]
  if (!(await parentsAreFolders(scratchRoot, path))) return null
  let handle
  try {
    handle = await open(path, constants.O_RDONLY | constants.O_NOFOLLOW | constants.O_NONBLOCK)
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code
    if (code === 'ENOENT' || code === 'ENOTDIR') return null
    if (code === 'ELOOP') throw new SandboxFileRefused(path, 'it is a symbolic link')
    throw new SandboxFileRefused(path, `it could not be opened (${code ?? String(error)})`)
  }
  try {
    refuseUnlessPlain(path, await handle.stat(), kind)
    return await readAtMost(handle, path, limit)
  } finally {
    await handle.close()
  }
}

/**
 * A small file read synchronously where the tool follows the tree's own links on purpose (an installed
 * package's package.json, through the tree's link to the checkout's node_modules): null unless it is a
 * regular file within the `config` limit. O_NONBLOCK, so a FIFO planted there does not block the tool.
 */
export function readPlainFileSync(path: string): string | null {
  let fd: number
  try {
    fd = openSync(path, constants.O_RDONLY | constants.O_NONBLOCK)
  } catch {
    return null
  }
  try {
    const stats = fstatSync(fd)
    if (!stats.isFile() || stats.size > SANDBOX_FILE_LIMITS.config) return null
    const buffer = Buffer.alloc(stats.size)
    let filled = 0
    while (filled < buffer.length) {
      const read = readSync(fd, buffer, filled, buffer.length - filled, null)
      if (read === 0) break
      filled += read
    }
    return buffer.subarray(0, filled).toString('utf8')
  } finally {
    closeSync(fd)
  }
}

/** JSON from the sandbox, refused when nested deeper than any runner writes (later code walks it). */
export function parseSandboxJson(path: string, text: string): unknown {
  const depth = maxNesting(text)
  if (depth > MAX_JSON_DEPTH) throw new SandboxFileRefused(path, `its JSON nests ${depth} levels deep (the limit is ${MAX_JSON_DEPTH})`)
  return JSON.parse(text)
}

/** False when a folder between the root and the file is missing; throws when one is a link or not a folder. */
async function parentsAreFolders(scratchRoot: string, path: string): Promise<boolean> {
  const inside = relative(scratchRoot, path)
  if (inside === '' || inside.startsWith('..') || isAbsolute(inside)) throw new SandboxFileRefused(path, `it is not inside the runner's folder ${scratchRoot}`)
  const folders = inside.split(sep).slice(0, -1)
  let current = scratchRoot
  for (const name of folders) {
    current = join(current, name)
    const stats = await lstat(current).catch(() => null)
    if (!stats) return false
    if (stats.isSymbolicLink()) throw new SandboxFileRefused(path, `its folder ${current} is a symbolic link`)
    if (!stats.isDirectory()) throw new SandboxFileRefused(path, `its folder ${current} is not a folder`)
  }
  return true
}

function refuseUnlessPlain(path: string, stats: Stats, kind: SandboxFileKind): void {
  const limit = SANDBOX_FILE_LIMITS[kind]
  if (!stats.isFile()) throw new SandboxFileRefused(path, `it is not a regular file (${kindOf(stats)})`)
  // The repository's files belong to whoever checked it out; a link, not an owner, is what betrays a swap there.
  if (kind !== 'config' && !ownerAccepted(stats.uid)) throw new SandboxFileRefused(path, `it is owned by uid ${stats.uid}, neither the sandbox's user nor the tool's`)
  if (stats.size > limit) throw new SandboxFileRefused(path, `it is ${megabytes(stats.size)}, over the ${megabytes(limit)} limit for this kind of report`)
}

/** Reads from the descriptor, never more than the limit, even if the file grew after fstat. */
async function readAtMost(handle: import('node:fs/promises').FileHandle, path: string, limit: number): Promise<string> {
  const buffer = Buffer.alloc(Math.min(limit + 1, 1 * MB))
  const chunks: Buffer[] = []
  let total = 0
  for (;;) {
    const { bytesRead } = await handle.read(buffer, 0, buffer.length, null)
    if (bytesRead === 0) break
    total += bytesRead
    if (total > limit) throw new SandboxFileRefused(path, `it grew over the ${megabytes(limit)} limit for this kind of report`)
    chunks.push(Buffer.from(buffer.subarray(0, bytesRead)))
  }
  return Buffer.concat(chunks, total).toString('utf8')
}

/** The deepest nesting of arrays and objects, outside strings: one pass, no recursion. */
function maxNesting(text: string): number {
  let depth = 0
  let deepest = 0
  let inString = false
  for (let i = 0; i < text.length; i++) {
    const char = text.charCodeAt(i)
    if (inString) {
      if (char === 0x5c) i++ // a backslash escapes the next character
      else if (char === 0x22) inString = false
    } else if (char === 0x22) inString = true
    else if (char === 0x5b || char === 0x7b) deepest = Math.max(deepest, ++depth)
    else if (char === 0x5d || char === 0x7d) depth--
  }
  return deepest
}

/** A file name the test chose (a V8 coverage file's) may hold control characters: shown escaped, on one line. */
function printable(path: string): string {
  return path.replace(/[\u0000-\u001f\u007f]/g, (char) => `\\x${char.charCodeAt(0).toString(16).padStart(2, '0')}`)
}

function kindOf(stats: Stats): string {
  if (stats.isFIFO()) return 'a FIFO'
  if (stats.isDirectory()) return 'a folder'
  if (stats.isSocket()) return 'a socket'
  if (stats.isCharacterDevice() || stats.isBlockDevice()) return 'a device'
  return 'not a plain file'
}

function megabytes(bytes: number): string {
  return `${(bytes / MB).toFixed(bytes < MB ? 2 : 0)} MB`
}
