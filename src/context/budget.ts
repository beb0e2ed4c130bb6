/**
 * The context's size budget. A pull request controls how much code the context could show (a 27 KB file
 * once became a 916 KB request), so what the model is handed is bounded: the changed hunks and changed
 * functions first, then the modules around them and the style example, anything cut marked where it was cut.
 */

/**
 * The budget rule. The shared context is sent with every model call of a run (3 to 8), and the model can
 * read any file with its read tools, so what it shows of a changed module depends on what the fix touches:
 * - a module up to WHOLE_FILE_LIMIT characters (about 4k tokens) goes whole: every name a test may call;
 * - a larger one goes by parts, within LARGE_MODULE_CODE: the changed functions (a nested changed function
 *   whole, a long one by its signature and the lines around each change), the definitions the changed
 *   lines call, the export statements; then an outline within OUTLINE_LIMIT (its imports, and a line per
 *   declaration not shown, with its line number) so the model knows what exists and where to read it;
 * - its code before the fix only where the diff was cut: with the whole diff beside the code after the
 *   fix, it repeats them;
 * - the style example (an existing test) whole up to STYLE_EXAMPLE_LIMIT; a longer one by its head (imports,
 *   setup) and the tests naming the changed code, the rest as an outline of its test titles.
 * CONTEXT_BUDGET bounds it all: a pull request controls how much code there is.
 */
export const WHOLE_FILE_LIMIT = 16_000
export const LARGE_MODULE_CODE = 12_000
export const OUTLINE_LIMIT = 3_000
export const STYLE_EXAMPLE_LIMIT = 8_000

/** Characters of code and conventions the model is shown, all files together. */
export const CONTEXT_BUDGET = 120_000
/** Kept back from the changed files for the modules around them (imports, wrappers, named files). */
export const RELATED_RESERVE = 16_000
/** The headings, fences and fixed lines the prompt wraps around the code. */
export const RENDERING_RESERVE = 2_000
/** What one shown piece costs beyond its code: its heading and fence. */
export const PIECE_OVERHEAD = 80

export const linesLeftOut = (lines: number) => `[… ${lines} ${lines === 1 ? 'line' : 'lines'} left out]`
const charactersLeftOut = (characters: number) => `[… ${characters} characters left out]`
/** Room kept for the marker that ends a cut piece. */
const MARKER_ROOM = 40
/** A line longer than the room left is cut inside itself when at least this much room is left. */
const MIN_LINE_CUT = 120

/** Characters left to spend, in the order the context is built (so the same input always gives the same context). */
export class Budget {
  private left: number

  constructor(characters: number) {
    this.left = Math.max(0, characters)
  }

  get remaining(): number {
    return this.left
  }

  spend(characters: number): void {
    this.left = Math.max(0, this.left - characters)
  }

  /** Spends `characters` when they all fit; else spends nothing. */
  claim(characters: number): boolean {
    if (characters > this.left) return false
    this.left -= characters
    return true
  }
}

/**
 * Shares `total` among pieces that want `demands`: each gets all it wants up to one common level, so a small
 * hunk beside a huge one is shown whole. When that level falls below `minShare`, the pieces in order get up
 * to `minShare` each until the total runs out: a few shown usefully rather than all shown uselessly.
 */
export function allot(demands: readonly number[], total: number, minShare: number): number[] {
  if (demands.reduce((sum, demand) => sum + demand, 0) <= total) return [...demands]
  const level = waterLevel(demands, total)
  if (level >= minShare) return demands.map((demand) => Math.min(demand, level))
  let left = total
  return demands.map((demand) => {
    const share = Math.min(demand, minShare, left)
    left -= share
    return share
  })
}

/** The largest whole level with every demand capped at it summing to at most `total`. */
function waterLevel(demands: readonly number[], total: number): number {
  const sorted = [...demands].sort((a, b) => a - b)
  let left = total
  for (let i = 0; i < sorted.length; i++) {
    const sharers = sorted.length - i
    if (sorted[i] * sharers > left) return Math.floor(left / sharers)
    left -= sorted[i]
  }
  return Infinity
}

/**
 * Writes lines up to an allowance, keeping room for the marker that says what was left out. Lines are
 * added by their numbers in the source, so gaps between them are marked too.
 */
export class ClippedText {
  private readonly parts: string[] = []
  private used = 0
  private next: number
  full = false

  constructor(
    private readonly allowance: number,
    private readonly lines: readonly string[],
    first = 0
  ) {
    this.next = first
  }

  /** Shows lines `from..to` (a gap before them is marked); false once the allowance is spent. */
  show(from: number, to: number): boolean {
    for (let line = Math.max(from, this.next); line <= to && !this.full; line++) this.add(line)
    return !this.full
  }

  /** The text, with a marker for the lines up to `last` that were not shown. */
  finish(last: number): string {
    this.markGap(last + 1)
    return this.parts.join('\n')
  }

  private add(line: number): void {
    const text = this.lines[line]
    const gap = line > this.next ? linesLeftOut(line - this.next).length + 1 : 0
    const room = this.allowance - this.used - gap - MARKER_ROOM
    if (text.length + 1 <= room) {
      this.markGap(line)
      this.parts.push(text)
      this.used += text.length + 1
      this.next = line + 1
      return
    }
    // A line longer than the room left (minified code) is shown in part while a useful part fits.
    if (room >= MIN_LINE_CUT) this.cutLine(line, room - MARKER_ROOM)
    this.full = true
  }

  private cutLine(line: number, kept: number): void {
    const text = this.lines[line]
    this.markGap(line)
    this.parts.push(`${text.slice(0, kept)} ${charactersLeftOut(text.length - kept)}`)
    this.used += kept + MARKER_ROOM + 1
    this.next = line + 1
  }

  private markGap(upTo: number): void {
    if (upTo <= this.next) return
    const marker = linesLeftOut(upTo - this.next)
    this.parts.push(marker)
    this.used += marker.length + 1
    this.next = upTo
  }
}
