/** Line lists as ranges: a 20,000-line change is a handful of `[first, last]` pairs in the report, not 20,000 numbers. */

/** 1-based, inclusive: `[3, 7]` is lines 3 to 7. */
export type LineRanges = Array<[number, number]>

/** The lines as sorted ranges of consecutive lines; duplicates and order do not matter. */
export function toRanges(lines: Iterable<number>): LineRanges {
  const ranges: LineRanges = []
  for (const line of [...new Set(lines)].sort((a, b) => a - b)) {
    const last = ranges[ranges.length - 1]
    if (last && line === last[1] + 1) last[1] = line
    else ranges.push([line, line])
  }
  return ranges
}

export const inRanges = (ranges: LineRanges, line: number): boolean => ranges.some(([first, last]) => line >= first && line <= last)

/** `3–7, 12` for people. */
export const describeRanges = (ranges: LineRanges): string => ranges.map(([first, last]) => (first === last ? `${first}` : `${first}–${last}`)).join(', ')
