/**
 * The folders above the checkout that the sandbox's user must pass through, and giving them back.
 *
 * The sandbox's uid is in no group but its own, so a folder closed to others (a 0700 or 0750 home) lets
 * it through only with `o+x` — passing through, not listing. The run gives that to the folders the tool
 * owns on the way, and takes it back when the run ends (normally, on an error, on SIGINT/SIGTERM).
 *
 * Two runs on one machine may need the same folder: the second finds it already open, and the first must
 * not close it under the second. So each run holds the folders it needs with a file named after its pid
 * (and a tag of its own) in a registry only the tool's user can write, beside each folder's original
 * mode; the last run to let go restores the mode. A run killed outright leaves its hold, which counts no
 * more once its pid is gone.
 */
import { createHash, randomBytes } from 'node:crypto'
import { chmodSync, lstatSync, mkdirSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { dirname, join } from 'node:path'

export interface TraversableFolders {
  /** What the run changed, for the log. */
  notes: string[]
  /** Gives each folder its mode back unless another live run still needs it; what it restored. Synchronous, for interrupts. */
  restore(): string[]
}

interface Held {
  folder: string
  /** The mode to give back, when this run opened the folder itself and there is no registry. */
  original: number | null
}

/** Lets the sandbox's user through every folder above `dirs` (and the dirs themselves). */
export function makeTraversable(dirs: string[], registryParent = tmpdir()): TraversableFolders {
  // Made the first time a folder needs opening; until then no folder can have a record.
  const registry = modesRegistry(registryParent, dirs.some((dir) => pathNeedsOpening(dir)))
  const notes: string[] = []
  const held: Held[] = []
  const seen = new Set<string>()
  const holder = `${process.pid}.${randomBytes(4).toString('hex')}`
  for (const dir of dirs) {
    for (let folder = dir; !seen.has(folder); folder = dirname(folder)) {
      seen.add(folder)
      const hold = holdFolder(folder, registry, holder)
      if (hold) {
        held.push(hold.held)
        if (hold.opened) notes.push(`made ${folder} traversable by other users (o+x) for this run, so the sandbox's user can reach ${dir}`)
      }
      if (dirname(folder) === folder) break
    }
  }
  let restored = false
  return {
    notes,
    restore() {
      if (restored) return []
      restored = true
      return held.flatMap((entry) => (release(entry, registry, holder) ? [`gave ${entry.folder} its mode back`] : []))
    }
  }
}

/** The tool's own registry of held folders (0700, owned by the tool's user), or null where it is not there or cannot be trusted. */
function modesRegistry(parent: string, create: boolean): string | null {
  const dir = join(parent, `.regression-testgen-folder-modes-${process.getuid?.() ?? 0}`)
  try {
    if (create) mkdirSync(dir, { mode: 0o700 })
  } catch {
    // There already: checked below.
  }
  try {
    const stats = lstatSync(dir)
    return stats.isDirectory() && stats.uid === process.getuid?.() && (stats.mode & 0o077) === 0 ? dir : null
  } catch {
    return null
  }
}

/** Holds a folder this run needs open; opens it when closed. Null: nothing to hold (open for good, or not the tool's). */
function holdFolder(folder: string, registry: string | null, holder: string): { held: Held; opened: boolean } | null {
  const record = registry && join(registry, recordName(folder))
  const known = record !== null && exists(record)
  if (traversable(folder) && !known) return null
  // Held before it is opened, so a run letting go at this moment sees the hold once it has closed it.
  if (record) writeFileSync(`${record}.${holder}`, '')
  const mode = statSync(folder).mode & 0o7777
  if ((mode & 0o001) !== 0) return { held: { folder, original: null }, opened: false }
  try {
    chmodSync(folder, mode | 0o001)
  } catch {
    // A folder the tool may not change: the sandbox's probe then says it cannot reach the checkout.
    if (record) rmSync(`${record}.${holder}`, { force: true })
    return null
  }
  if (record) writeFileSync(record, JSON.stringify({ folder, mode }))
  return { held: { folder, original: record ? null : mode }, opened: true }
}

/** Lets go of a folder; the last live holder closes it again. True when this call restored the mode. */
function release(entry: Held, registry: string | null, holder: string): boolean {
  if (!registry) return entry.original !== null && closeAgain(entry.folder, entry.original)
  const record = join(registry, recordName(entry.folder))
  rmSync(`${record}.${holder}`, { force: true })
  if (liveHolders(registry, record).length) return false
  const original = recordedMode(record)
  if (original === null || !closeAgain(entry.folder, original)) return false
  // A run that took hold meanwhile saw the folder still open: it gets it back.
  if (liveHolders(registry, record).length) chmodSync(entry.folder, original | 0o001)
  return true
}

/** Restores `original` only where the folder is as the run left it (a mode changed since is the user's). */
function closeAgain(folder: string, original: number): boolean {
  try {
    if ((statSync(folder).mode & 0o7777) !== (original | 0o001)) return false
    chmodSync(folder, original)
    return true
  } catch {
    return false
  }
}

function liveHolders(registry: string, record: string): number[] {
  const prefix = `${record.slice(registry.length + 1)}.`
  return readdirSync(registry)
    .filter((name) => name.startsWith(prefix))
    .map((name) => Number(name.slice(prefix.length).split('.')[0]))
    .filter((pid) => Number.isInteger(pid) && isAlive(pid))
}

function recordedMode(record: string): number | null {
  try {
    const { mode } = JSON.parse(readFileSync(record, 'utf8')) as { mode: unknown }
    return typeof mode === 'number' && (mode & 0o001) === 0 ? mode : null
  } catch {
    return null
  }
}

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0)
    return true
  } catch (error) {
    // EPERM: alive, another user's.
    return (error as NodeJS.ErrnoException).code === 'EPERM'
  }
}

function pathNeedsOpening(dir: string): boolean {
  for (let folder = dir; ; folder = dirname(folder)) {
    if (!traversable(folder)) return true
    if (dirname(folder) === folder) return false
  }
}

function traversable(folder: string): boolean {
  return (statSync(folder).mode & 0o001) !== 0
}

function exists(path: string): boolean {
  try {
    lstatSync(path)
    return true
  } catch {
    return false
  }
}

function recordName(folder: string): string {
  return createHash('sha256').update(folder).digest('hex').slice(0, 32)
}
