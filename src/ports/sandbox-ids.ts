/**
 * Each run's sandbox is its own user: a uid (and a gid of the same number) picked at random for the run,
 * with no passwd entry — `setpriv` takes numeric ids. Two runs on one machine are then two users, and
 * neither can write (nor, with the run folder's modes, reach) the other's trees.
 *
 * The ids come from 1879048192–2147352575 (0x70000000–0x7FFDFFFF), which systemd's allocation scheme
 * leaves unused: above the container ranges (524288–1879048191), below its "foreign" range and below 2^31
 * (ids from 2^31 up trip tools that read them as signed). Where the machine's user namespace does not map
 * that range (a container that maps only 0–65535), the next ranges that systemd leaves unused are tried:
 * 65536–524287, then 65520–65533 (a small range: two runs may meet there). Ids that /etc/passwd or
 * /etc/group name, and the tool's own, are never picked.
 */
import { randomInt } from 'node:crypto'
import { readFileSync } from 'node:fs'

export interface IdRange {
  first: number
  last: number
}

/** In order of preference; each inclusive. */
export const SANDBOX_ID_RANGES: readonly IdRange[] = [
  { first: 0x70000000, last: 0x7ffdffff },
  { first: 65536, last: 524287 },
  { first: 65520, last: 65533 }
]

export interface SandboxIds {
  uid: number
  gid: number
}

/** This machine's ids for a new run, or why there are none. */
export function pickSandboxIds(): SandboxIds | string {
  const mapped = intersect(mappedRanges('/proc/self/uid_map'), mappedRanges('/proc/self/gid_map'))
  const taken = new Set([...idsIn('/etc/passwd', 2), ...idsIn('/etc/group', 2), process.getuid?.() ?? 0, process.getgid?.() ?? 0])
  const id = pickId(SANDBOX_ID_RANGES, mapped, taken)
  return id === null ? 'no free uid in the ranges a sandbox takes its ids from (see the README)' : { uid: id, gid: id }
}

/** A random id from the first preferred range that the mapped ranges cover, not taken; null: none. */
export function pickId(preferred: readonly IdRange[], mapped: IdRange[], taken: Set<number>, random: (below: number) => number = randomInt): number | null {
  for (const range of preferred) {
    const usable = intersect([range], mapped)
    const size = usable.reduce((sum, part) => sum + part.last - part.first + 1, 0)
    // A few draws find a free id in a large range; a small one may be mostly taken, so it is walked.
    for (let attempt = 0; attempt < 32 && size > 0; attempt++) {
      const id = nth(usable, random(size))
      if (!taken.has(id)) return id
    }
    const free = usable.flatMap((part) => (part.last - part.first < 64 ? ids(part) : [])).find((id) => !taken.has(id))
    if (free !== undefined) return free
  }
  return null
}

/** The ids a user namespace's map makes valid (all of them, where there is no map to read). */
function mappedRanges(file: string): IdRange[] {
  try {
    return readFileSync(file, 'utf8')
      .split('\n')
      .map((line) => line.trim().split(/\s+/).map(Number))
      .filter((fields) => fields.length === 3 && fields.every(Number.isInteger) && fields[2] > 0)
      .map(([inside, , count]) => ({ first: inside, last: inside + count - 1 }))
  } catch {
    return [{ first: 0, last: 0xfffffffe }]
  }
}

function idsIn(file: string, field: number): number[] {
  try {
    return readFileSync(file, 'utf8')
      .split('\n')
      .map((line) => Number(line.split(':')[field]))
      .filter(Number.isInteger)
  } catch {
    return []
  }
}

function intersect(left: IdRange[], right: IdRange[]): IdRange[] {
  return left.flatMap((a) => right.map((b) => ({ first: Math.max(a.first, b.first), last: Math.min(a.last, b.last) }))).filter((range) => range.first <= range.last)
}

function nth(ranges: IdRange[], index: number): number {
  for (const range of ranges) {
    const size = range.last - range.first + 1
    if (index < size) return range.first + index
    index -= size
  }
  throw new RangeError(`index ${index} is past the ranges`)
}

function ids(range: IdRange): number[] {
  return Array.from({ length: range.last - range.first + 1 }, (_, offset) => range.first + offset)
}
