/**
 * One file's lines, indexed once: where each declaration's block ends and which block encloses a line,
 * each answered in O(log n). Scanning the file again for every changed line made context building
 * quadratic (a 4,000-line file took 18 s), so every question about a file goes through its index.
 */

/** A method: only tried on lines ending in `{`, which keeps its backtracking off all other lines. */
const METHOD = /^\s*(?:(?:public|private|protected|static|async|readonly|override|get|set)\s+)*(?!if\b|for\b|while\b|switch\b|catch\b|return\b)([\w$]+)\s*(?:<[^>]*>)?\([^)]*\)?\s*(?::\s*[^{]+)?\{\s*$/
const DECLARATION = [
  /^\s*(?:export\s+)?(?:default\s+)?(?:async\s+)?function\s*\*?\s*([\w$]+)/,
  /^\s*(?:export\s+)?(?:default\s+)?(?:abstract\s+)?class\s+([\w$]+)/,
  /^\s*(?:export\s+)?(?:const|let|var)\s+([\w$]+)\s*(?::[^=]+)?=\s*(?:async\s+)?(?:function\b|\([^)]*\)\s*(?::[^=]+)?=>|[\w$]+\s*=>)/,
  METHOD,
  /^\s*(?:async\s+)?def\s+(\w+)/,
  /^\s*class\s+(\w+)\s*[(:]/
]
/** Longer lines are generated or minified code, never a declaration worth showing; skipping them bounds the regex work. */
const MAX_DECLARATION_LENGTH = 1_000

/** A block of lines (0-based, inclusive): a declaration's, or a window around a line no declaration encloses. */
export interface Block {
  name: string
  start: number
  end: number
}

export class LineIndex {
  readonly lines: string[]
  /** Where each line starts in the text, and (last) the text's length plus one. */
  private readonly offsets: number[]
  private readonly names: (string | null)[]
  private readonly depthAfter: MinTree
  private readonly nextOpening: Int32Array
  private readonly indents: MinTree
  private readonly lastNonBlank: Int32Array
  /** For each declaration line, minus the last line of its block; +∞ elsewhere: finds enclosing blocks. */
  private readonly blockEnds: MinTree

  constructor(content: string) {
    this.lines = content.split('\n')
    const count = this.lines.length
    this.offsets = [0]
    for (const line of this.lines) this.offsets.push(this.offsets[this.offsets.length - 1] + line.length + 1)
    this.names = this.lines.map(declaredName)
    const balances = this.lines.map(braceBalance)
    const depths = new Float64Array(count)
    for (let i = 0, depth = 0; i < count; i++) depths[i] = depth += balances[i].change
    this.depthAfter = new MinTree(depths)
    this.nextOpening = new Int32Array(count + 1).fill(-1)
    for (let i = count - 1; i >= 0; i--) this.nextOpening[i] = balances[i].opens ? i : this.nextOpening[i + 1]
    const indents = this.lines.map((line) => indentOf(line))
    this.indents = new MinTree(indents.map((indent) => (indent < 0 ? Infinity : indent)))
    this.lastNonBlank = new Int32Array(count)
    for (let i = 0, last = -1; i < count; i++) this.lastNonBlank[i] = last = indents[i] < 0 ? last : i
    this.blockEnds = new MinTree(this.names.map((name, start) => (name === null ? Infinity : -this.blockEnd(start))))
  }

  get lineCount(): number {
    return this.lines.length
  }

  /** The characters of lines `start..end` joined, without building the string. */
  size(start: number, end: number): number {
    return end < start ? 0 : this.offsets[end + 1] - this.offsets[start] - 1
  }

  text(start: number, end: number): string {
    return this.lines.slice(start, end + 1).join('\n')
  }

  /** The innermost declaration at or above `index` whose block still contains it; else null. */
  enclosing(index: number): Block | null {
    const start = this.blockEnds.lastAtMost(Math.min(index, this.lines.length - 1), -index)
    return start < 0 ? null : { name: this.names[start]!, start, end: this.blockEnd(start) }
  }

  /** Every declaration's block, in the order they start. */
  declarations(): Block[] {
    return this.names.flatMap((name, start) => (name === null ? [] : [{ name, start, end: this.blockEnd(start) }]))
  }

  /**
   * The last line of the block opening at `start` (a declaration, or a call like `test('…', () => {`):
   * brace matching for C-like code; indentation for Python-like blocks (a line ending in ':').
   */
  blockEnd(start: number): number {
    const line = this.lines[start]
    if (/:\s*(?:#.*)?$/.test(line) && !line.includes('{')) return this.indentedBlockEnd(start)
    // The block ends on the first line, from the one that opens a brace, back at the depth before it.
    const opened = this.nextOpening[start]
    const closing = opened < 0 ? -1 : this.depthAfter.firstAtMost(opened, start === 0 ? 0 : this.depthAfter.at(start - 1))
    return closing < 0 ? this.lines.length - 1 : closing
  }

  /** The last non-blank line before the next line indented no deeper than `start`. */
  private indentedBlockEnd(start: number): number {
    const outdent = this.indents.firstAtMost(start + 1, indentOf(this.lines[start]))
    const end = this.lastNonBlank[(outdent < 0 ? this.lines.length : outdent) - 1]
    return Math.max(start, end)
  }
}

function declaredName(line: string): string | null {
  if (line.length > MAX_DECLARATION_LENGTH) return null
  const endsInBrace = line.trimEnd().endsWith('{')
  for (const pattern of DECLARATION) {
    if (pattern === METHOD && !endsInBrace) continue
    const match = pattern.exec(line)
    if (match) return match[1]
  }
  return null
}

/** The column of a line's first non-blank character; -1 for a blank line. */
const indentOf = (line: string) => line.search(/\S/)

/**
 * The braces a line opens and closes outside its string literals. A quote is closed by its first unescaped
 * match on the line, else by its last escaped one, else it is no string: as the regex this replaces
 * (`(['"`])(?:\\.|(?!\1).)*\1`) read it, without its exponential backtracking on an unclosed quote
 * followed by escapes (`'\a\a\a…`: 24 of them took 0.3 s, each one more doubles it).
 */
function braceBalance(line: string): { change: number; opens: boolean } {
  let change = 0
  let opens = false
  for (let at = 0; at < line.length; at++) {
    const char = line[at]
    if (char === '"' || char === "'" || char === '`') at = stringEnd(line, at) ?? at
    else if (char === '{') (change++, (opens = true))
    else if (char === '}') change--
  }
  return { change, opens }
}

function stringEnd(line: string, open: number): number | null {
  const quote = line[open]
  let escapedQuote: number | null = null
  for (let at = open + 1; at < line.length; at++) {
    if (line[at] === quote) return at
    if (line[at] === '\\') {
      if (line[at + 1] === quote) escapedQuote = at + 1
      at++
    }
  }
  return escapedQuote
}

/**
 * Minimum over a fixed array, answering "the first index from `from` whose value is at most `limit`" and
 * "the last index up to `to` whose value is at most `limit`" in O(log n).
 */
export class MinTree {
  private readonly size: number
  private readonly tree: Float64Array

  constructor(values: ArrayLike<number>) {
    this.size = 1
    while (this.size < values.length) this.size *= 2
    this.tree = new Float64Array(2 * this.size).fill(Infinity)
    for (let i = 0; i < values.length; i++) this.tree[this.size + i] = values[i]
    for (let node = this.size - 1; node >= 1; node--) this.tree[node] = Math.min(this.tree[2 * node], this.tree[2 * node + 1])
  }

  at(index: number): number {
    return this.tree[this.size + index]
  }

  firstAtMost(from: number, limit: number, node = 1, low = 0, high = this.size - 1): number {
    if (high < from || this.tree[node] > limit) return -1
    if (low === high) return low
    const middle = (low + high) >> 1
    const left = this.firstAtMost(from, limit, 2 * node, low, middle)
    return left >= 0 ? left : this.firstAtMost(from, limit, 2 * node + 1, middle + 1, high)
  }

  lastAtMost(to: number, limit: number, node = 1, low = 0, high = this.size - 1): number {
    if (low > to || this.tree[node] > limit) return -1
    if (low === high) return low
    const middle = (low + high) >> 1
    const right = this.lastAtMost(to, limit, 2 * node + 1, middle + 1, high)
    return right >= 0 ? right : this.lastAtMost(to, limit, 2 * node, low, middle)
  }
}
