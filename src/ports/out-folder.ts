/**
 * The run's output folder, claimed before any work: checked (creatable, writable, outside the repository
 * or git-ignored there), marked as the tool's, locked against a second run, and cleared of the previous
 * run's results. The tool only ever removes its own entries, and only in a folder that carries its marker.
 */
import { accessSync, constants, existsSync, linkSync, lstatSync, mkdirSync, readdirSync, readFileSync, realpathSync, rmSync, statSync, writeFileSync } from 'node:fs'
import { hostname } from 'node:os'
import { basename, dirname, join, resolve } from 'node:path'
import { UserFacingError } from '../errors.js'
import { onInterrupt } from './process.js'
import { isWithin } from '../paths.js'

/** Says the folder is the tool's: without it, a non-empty folder is the user's and is never cleared. */
export const MARKER_FILE = '.regression-testgen-output'
/** Held by the run writing the folder: its pid and host. */
export const LOCK_FILE = '.regression-testgen.lock'
/** What a run writes here, and so what the next run clears first (nothing else is ever removed). */
export const OWN_ENTRIES = ['report.json', 'report.md', 'run.log', 'suite', 'concerns', 'suite.patch']

const MARKER_TEXT = `regression-testgen writes its results here. Each run first clears its own entries (${OWN_ENTRIES.join(', ')}) and nothing else.\n`

/** What the claim needs to know of the repository under test: where its work tree is, and what git ignores. */
export interface RepositoryIgnores {
  /** The work tree's root; null: not a git repository (the run then reports that itself). */
  workTreeRoot(): Promise<string | null>
  /** Whether git ignores the folder at this absolute path. */
  isIgnored(folder: string): Promise<boolean>
}

export interface OutFolderOptions {
  /** The flag or input that names the folder, for the messages (`--out`, `output-dir`). */
  input: string
  repository: RepositoryIgnores
}

export interface ClaimedOutFolder {
  dir: string
  /** Gives the lock back; also done on an interrupt. */
  release(): void
}

export async function claimOutFolder(dir: string, options: OutFolderOptions): Promise<ClaimedOutFolder> {
  // `fix`: what to pass the flag instead, so the message names the flag the user typed.
  const problem = (what: string, fix: string) => new UserFacingError(`${options.input} ${dir}: ${what}`, `pass ${options.input} ${fix}`)
  await refuseUnignoredInsideRepository(dir, options.repository, problem)
  createFolder(dir, problem)
  refuseForeignFolder(dir, problem)
  writeMarker(dir, problem)
  const unlock = takeLock(dir, problem)
  const forget = onInterrupt(unlock)
  const release = () => {
    forget()
    unlock()
  }
  try {
    clearPreviousResults(dir)
  } catch (error) {
    release()
    throw problem(`cannot clear the last run's results (${codeOf(error)})`, 'a folder you can write')
  }
  return { dir, release }
}

type Problem = (what: string, fix: string) => UserFacingError

/**
 * Another folder the run writes to (the response cache), made and checked before any work the same way:
 * one level at a time, writable, or a message naming `input`.
 */
export function ensureWritableFolder(dir: string, input: string): void {
  createFolder(dir, (what, fix) => new UserFacingError(`${input} ${dir}: ${what}`, `pass ${input} ${fix}`))
}

/** Inside the repository, the repository's own test runner would collect `<out>/suite/…`. */
async function refuseUnignoredInsideRepository(dir: string, repository: RepositoryIgnores, problem: Problem): Promise<void> {
  const root = await repository.workTreeRoot()
  if (root === null) return
  const folder = realLocation(dir)
  if (!isWithin(folder, realLocation(root))) return
  if (folder !== realLocation(root) && (await repository.isIgnored(folder))) return
  throw problem('is inside the repository under test, and git does not ignore it: its tests would collect the generated suite', 'a folder outside the repository (or leave it out for the default), or add the folder to .gitignore')
}

/** The path with its existing part resolved through links, as git (and a test runner) sees it. */
function realLocation(path: string): string {
  let existing = resolve(path)
  const missing: string[] = []
  while (!existsSync(existing) && dirname(existing) !== existing) {
    missing.unshift(basename(existing))
    existing = dirname(existing)
  }
  try {
    return join(realpathSync(existing), ...missing)
  } catch {
    return resolve(path)
  }
}


/**
 * One level at a time, never `mkdir -p`: Node's recursive mkdir loops for ever (at full CPU, deaf to
 * signals) where a parent exists but refuses a child with ENOENT, as /proc does.
 */
function createFolder(dir: string, problem: Problem): void {
  const missing: string[] = []
  let existing = resolve(dir)
  while (!pathExists(existing)) {
    missing.unshift(existing)
    existing = dirname(existing)
  }
  for (const folder of [existing, ...missing]) {
    if (folder !== existing) {
      try {
        mkdirSync(folder)
      } catch (error) {
        throw problem(`cannot create ${folder} (${codeOf(error)})`, 'a folder you can create and write')
      }
    }
    const stats = statSafe(folder)
    if (!stats?.isDirectory()) throw problem(`${folder} is in the way and is not a folder`, 'a folder, not a file or a special path')
  }
  try {
    accessSync(dir, constants.W_OK | constants.X_OK)
  } catch (error) {
    throw problem(`the folder is not writable (${codeOf(error)})`, 'a folder you can write')
  }
}

/** A folder with entries and no marker is the user's: nothing in it is the tool's to clear. */
function refuseForeignFolder(dir: string, problem: Problem): void {
  let entries: string[]
  try {
    entries = readdirSync(dir)
  } catch (error) {
    throw problem(`cannot read the folder (${codeOf(error)})`, 'a folder you can read and write')
  }
  if (entries.length === 0 || entries.includes(MARKER_FILE)) return
  throw problem(`the folder holds files and was not written by regression-testgen (no ${MARKER_FILE} in it)`, 'an empty or new folder; nothing in this one was removed')
}

function writeMarker(dir: string, problem: Problem): void {
  const marker = join(dir, MARKER_FILE)
  // A link in its place would have the write land elsewhere.
  if (lstatSafe(marker)?.isFile()) return
  try {
    writeFileSync(marker, MARKER_TEXT, { flag: 'wx' })
  } catch (error) {
    throw problem(`cannot write ${MARKER_FILE} there (${codeOf(error)})`, 'a folder you can write')
  }
}

interface LockOwner {
  pid: number
  host: string
}

/** The lock file, created exclusively; a stale one (its run's process is gone, on this host) is taken over. */
function takeLock(dir: string, problem: Problem): () => void {
  const lock = join(dir, LOCK_FILE)
  const mine = JSON.stringify({ pid: process.pid, host: hostname() } satisfies LockOwner)
  for (let attempt = 0; attempt < 3; attempt++) {
    try {
      createWhole(lock, mine)
      return () => {
        // Only our own lock: a run that took over a lock it judged stale keeps its own.
        if (readSafe(lock) === mine) rmSync(lock, { force: true })
      }
    } catch (error) {
      if (codeOf(error) !== 'EEXIST') throw problem(`cannot create its lock (${codeOf(error)})`, 'a folder you can write')
    }
    const held = readSafe(lock)
    const owner = parseOwner(held)
    if (owner && isRunning(owner)) {
      throw problem(`another run (pid ${owner.pid} on ${owner.host}) is writing to this folder`, `another folder, or wait for that run to end (if no run is going, delete ${lock})`)
    }
    // Stale: removed only if it is still the one read (another run may have taken it over just now).
    if (readSafe(lock) === held) rmSync(lock, { force: true })
  }
  throw problem('its lock keeps changing hands', 'another folder: another run is starting on this one')
}

/** The file appears with its content or not at all (a link is exclusive): a reader never sees it half-written. */
function createWhole(path: string, content: string): void {
  const draft = `${path}.${process.pid}`
  writeFileSync(draft, content)
  try {
    linkSync(draft, path)
  } finally {
    rmSync(draft, { force: true })
  }
}

function parseOwner(text: string | null): LockOwner | null {
  try {
    const owner = JSON.parse(text ?? '') as LockOwner
    return Number.isInteger(owner.pid) && typeof owner.host === 'string' ? owner : null
  } catch {
    // Not a lock this tool wrote (it writes its locks whole).
    return null
  }
}

/** On another host its process cannot be seen: it counts as running. */
function isRunning(owner: LockOwner): boolean {
  if (owner.host !== hostname()) return true
  try {
    process.kill(owner.pid, 0)
    return true
  } catch (error) {
    return codeOf(error) === 'EPERM'
  }
}

/** The previous run's results go before anything is written: nothing stale survives beside the new run.log. */
function clearPreviousResults(dir: string): void {
  // rm removes a link itself, never what it points to.
  for (const entry of OWN_ENTRIES) rmSync(join(dir, entry), { recursive: true, force: true })
}

function pathExists(path: string): boolean {
  return lstatSafe(path) !== null || dirname(path) === path
}

function statSafe(path: string) {
  try {
    return statSync(path)
  } catch {
    return null
  }
}

function lstatSafe(path: string) {
  try {
    return lstatSync(path)
  } catch {
    return null
  }
}

function readSafe(path: string): string | null {
  try {
    return readFileSync(path, 'utf8')
  } catch {
    return null
  }
}

function codeOf(error: unknown): string {
  return (error as NodeJS.ErrnoException).code ?? (error as Error).message
}
