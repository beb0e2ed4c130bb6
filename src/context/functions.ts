/**
 * The code the change touched, as whole functions: small files go in whole (the model then sees every
 * name it may call); larger ones as the enclosing blocks of the changed lines and an outline of the rest,
 * within an allowance (the rule is in budget.ts).
 */
import type { CodeExcerpt } from '../domain.js'
import { allot, ClippedText, LARGE_MODULE_CODE, linesLeftOut, OUTLINE_LIMIT, PIECE_OVERHEAD, WHOLE_FILE_LIMIT } from './budget.js'
import { LineIndex, type Block } from './line-index.js'

export { WHOLE_FILE_LIMIT }
export const WHOLE_FILE = '(whole file)'
/** The excerpt listing a large file's imports and the declarations not shown. */
export const OUTLINE = '(outline of the rest of the file)'
/** An outline line shows this much of a declaration's first line. */
const OUTLINE_LINE = 120
/** Import statements read from the top of a file for its outline. */
const IMPORT_LINES = 60
/** What a gap between shown spans costs: its marker. */
const GAP_COST = 30
const FALLBACK_WINDOW = 15
/** A block cut to its allowance keeps its first lines (the signature) and a few lines around each change. */
const SIGNATURE_LINES = 3
const AROUND_CHANGE = 5
/** Room left once all is picked widens the lines around each change, to these. */
const WIDER_AROUND_CHANGE = [20]
/** Below this, a block is left out rather than shown as a stub. */
const MIN_SHARE = 600
/** The excerpt that counts the blocks left out. */
const LEFT_OUT_ROOM = 400

/** A block of the file and the changed lines in it (0-based). */
interface ChangedBlock extends Block {
  changed: number[]
}

/** The whole file when it is small and fits; else the blocks of the changed lines (1-based), cut to `allowance` characters. */
export function excerptsFor(content: string, changedLines: number[], allowance = Infinity): CodeExcerpt[] {
  return planExcerpts(content, changedLines).show(allowance)
}

/** A file's changed code, worked out once: what showing all of it costs, and showing it within an allowance. */
export interface ExcerptPlan {
  /** The characters of code shown when nothing is cut. */
  codeSize: number
  /** The same with the headings around each excerpt. */
  cost: number
  show(allowance: number): CodeExcerpt[]
}

/**
 * The whole file when small, else the blocks of `changedLines` and of `alsoLines` (1-based, found in the
 * file's lines, split once) within LARGE_MODULE_CODE; when not all fit, the blocks of `changedLines` get
 * their share first. With `outline`, a file shown by parts ends with an outline of what is not shown.
 */
export function planExcerpts(content: string, changedLines: number[], alsoLines: (lines: readonly string[]) => number[] = () => [], options: { outline?: boolean } = {}): ExcerptPlan {
  if (content.length <= WHOLE_FILE_LIMIT) {
    const whole = { name: WHOLE_FILE, startLine: 1, code: content }
    const cost = content.length + PIECE_OVERHEAD
    return { codeSize: content.length, cost, show: (allowance) => (allowance >= cost ? [whole] : byParts(new LineIndex(content), changedLines, alsoLines, options).show(allowance)) }
  }
  return byParts(new LineIndex(content), changedLines, alsoLines, options)
}

function byParts(index: LineIndex, changedLines: number[], alsoLines: (lines: readonly string[]) => number[], { outline = false }: { outline?: boolean }): ExcerptPlan {
  const blocks = changedBlocks(index, [...changedLines, ...alsoLines(index.lines)])
  const changed = new Set(changedLines.map((line) => line - 1))
  const first = blocks.map((block) => block.changed.some((line) => changed.has(line)))
  const costs = blocks.map((block) => blockCost(index, block))
  const outlineCost = outline ? Math.min(OUTLINE_LIMIT, fullOutlineCost(index)) : 0
  const codeCost = Math.min(LARGE_MODULE_CODE, costs.reduce((sum, cost) => sum + cost, 0))
  return {
    codeSize: blocks.reduce((sum, block) => sum + index.size(block.start, block.end), 0),
    cost: codeCost + outlineCost,
    show: (allowance) => {
      // The outline takes what the changed code leaves, and no more than a quarter of an allowance too
      // small for both: the changed code comes first.
      const outlineRoom = Math.min(outlineCost, Math.max(allowance - codeCost, Math.floor(allowance / 4)))
      const shown = showBlocks(index, blocks, allotFirst(costs, first, Math.min(LARGE_MODULE_CODE, allowance - outlineRoom)), changed)
      const rest = outline ? outlineExcerpt(index, shown.lines, outlineRoom) : null
      return rest ? [...shown.excerpts, rest] : shown.excerpts
    }
  }
}

/** Shares of `allowance`: the blocks marked first, then the rest; room kept for the marker of any left out. */
function allotFirst(costs: number[], first: boolean[], allowance: number): number[] {
  const fits = costs.reduce((sum, cost) => sum + cost, 0) <= allowance
  let left = fits ? allowance : Math.max(0, allowance - LEFT_OUT_ROOM)
  // A changed block too long for the allowance would take all of it: the rest (what the change calls, the
  // exports) keeps up to a third.
  const rest = costs.reduce((sum, cost, i) => sum + (first[i] ? 0 : cost), 0)
  const kept = Math.min(rest, Math.floor(left / 3))
  const shares = new Array<number>(costs.length).fill(0)
  for (const tier of [true, false]) {
    const members = costs.flatMap((_, i) => (first[i] === tier ? [i] : []))
    const tierShares = allot(members.map((i) => costs[i]), tier ? left - kept : left, MIN_SHARE)
    members.forEach((i, at) => (shares[i] = tierShares[at]))
    left -= tierShares.reduce((sum, share) => sum + share, 0)
  }
  return shares
}

/**
 * The innermost declaration around each changed line (1-based), once per block, a block nested in another
 * shown with it; a line no declaration encloses gets a window around it, stopping short of the blocks
 * beside it (a window never swallows a changed function), and overlapping windows become one.
 */
function changedBlocks(index: LineIndex, changedLines: number[]): ChangedBlock[] {
  const byStart = new Map<number, ChangedBlock>()
  const loose: number[] = []
  for (const line of changedLines) {
    const block = index.enclosing(line - 1)
    if (!block) loose.push(line - 1)
    else if (byStart.has(block.start)) byStart.get(block.start)!.changed.push(line - 1)
    else byStart.set(block.start, { ...block, changed: [line - 1] })
  }
  const declared = outermost([...byStart.values()])
  const blocks = [...declared, ...joinWindows(loose.sort((a, b) => a - b).map((line) => windowBetween(index, declared, line)))].sort((a, b) => a.start - b.start)
  for (const block of blocks) block.changed.sort((a, b) => a - b)
  return blocks
}

/** What showing a block whole costs. */
const blockCost = (index: LineIndex, block: Block) => index.size(block.start, block.end) + block.name.length + PIECE_OVERHEAD

/** Each block whole, cut to its allowance, or (allowance 0) counted in one closing marker; and the line spans shown. */
function showBlocks(index: LineIndex, blocks: ChangedBlock[], allowances: number[], fixLines: ReadonlySet<number>): { excerpts: CodeExcerpt[]; lines: Span[] } {
  const excerpts: CodeExcerpt[] = []
  const lines: Span[] = []
  const leftOut: ChangedBlock[] = []
  blocks.forEach((block, i) => {
    const cost = blockCost(index, block)
    if (allowances[i] >= cost) {
      excerpts.push({ name: block.name, startLine: block.start + 1, code: index.text(block.start, block.end) })
      lines.push([block.start, block.end])
    } else if (allowances[i] >= MIN_SHARE) {
      const allowance = allowances[i] - block.name.length - PIECE_OVERHEAD
      // Picked with room kept for the marker closing the block, so the last span picked is shown whole.
      const spans = pickSpans(index, block, allowance - GAP_COST, fixLines)
      excerpts.push({ name: block.name, startLine: block.start + 1, code: cutBlock(index, block, spans, allowance) })
      append(lines, spans)
    } else leftOut.push(block)
  })
  if (leftOut.length > 0) excerpts.push(leftOutExcerpt(leftOut))
  return { excerpts, lines }
}

/** Blocks left out for the budget, as one marker the model can see. */
function leftOutExcerpt(blocks: ChangedBlock[]): CodeExcerpt {
  const lines = blocks.reduce((sum, block) => sum + block.end - block.start + 1, 0)
  const names = blocks.slice(0, 5).map((block) => block.name.slice(0, 40))
  return { name: `(${blocks.length} more changed blocks left out: ${names.join(', ')}${blocks.length > names.length ? ', …' : ''})`, startLine: blocks[0].start + 1, code: linesLeftOut(lines) }
}

/** Lines `from..to` (0-based, inclusive). */
export type Span = [number, number]

/** A block longer than its allowance, by the spans picked for it (in line order), the gaps marked. */
function cutBlock(index: LineIndex, block: ChangedBlock, spans: Span[], allowance: number): string {
  const text = new ClippedText(allowance, index.lines, block.start)
  for (const [from, to] of spans) if (!text.show(from, to)) break
  return text.finish(block.end)
}

/**
 * What a block too long to show whole shows, picked in this order while it fits: its first lines (the
 * signature); for each changed line the function nested in the block around it, whole (else its first
 * line and the lines around the change); then for each other line (a definition the change calls, an
 * export) its nested function whole, else its first lines; then, with room left, more lines around each
 * change. Returned in line order, overlaps joined.
 */
function pickSpans(index: LineIndex, block: ChangedBlock, allowance: number, fixLines: ReadonlySet<number>): Span[] {
  const covered = new Uint8Array(block.end - block.start + 1)
  const picked: Span[] = []
  let left = allowance
  const take = (from: number, to: number): boolean => {
    const [start, end] = [Math.max(block.start, from), Math.min(block.end, to)]
    let cost = GAP_COST
    for (let line = start; line <= end; line++) if (!covered[line - block.start]) cost += index.lines[line].length + 1
    if (cost > left) return false
    covered.fill(1, start - block.start, end - block.start + 1)
    picked.push([start, end])
    left -= cost
    return true
  }
  const nested = (line: number) => {
    const inner = index.enclosing(line)
    return inner && inner.start > block.start && inner.end <= block.end ? inner : null
  }
  take(block.start, block.start + SIGNATURE_LINES - 1)
  for (const line of block.changed.filter((line) => fixLines.has(line))) {
    if (covered[line - block.start]) continue
    const inner = nested(line)
    if (inner && take(inner.start, inner.end)) continue
    if (inner) take(inner.start, inner.start)
    take(line - AROUND_CHANGE, line + AROUND_CHANGE)
  }
  for (const line of block.changed.filter((line) => !fixLines.has(line))) {
    if (covered[line - block.start]) continue
    const inner = nested(line)
    if (!(inner && inner.start === line && take(inner.start, inner.end))) take(line, line + SIGNATURE_LINES - 1)
  }
  for (const around of WIDER_AROUND_CHANGE) for (const line of block.changed.filter((line) => fixLines.has(line))) take(line - around, line + around)
  return joinSpans(picked)
}

/** Spans sorted, those overlapping or touching joined. */
export function joinSpans(spans: Span[]): Span[] {
  const joined: Span[] = []
  for (const [from, to] of [...spans].sort((a, b) => a[0] - b[0])) {
    const last = joined[joined.length - 1]
    if (last && from <= last[1] + 1) last[1] = Math.max(last[1], to)
    else joined.push([from, to])
  }
  return joined
}

/** A file's import statements at its top level, and its declarations at the top level or one level in. */
function outlineEntries(index: LineIndex): { imports: Span[]; declarations: (Block & { depth: number })[] } {
  const declarations: (Block & { depth: number })[] = []
  const open: number[] = []
  for (const block of index.declarations()) {
    while (open.length && open[open.length - 1] < block.start) open.pop()
    if (open.length <= 1) declarations.push({ ...block, depth: open.length })
    open.push(block.end)
  }
  return { imports: importStatements(index.lines), declarations }
}

const IMPORT_START = /^(?:import[\s{*'"]|from\s+[\w.]+\s+import\s|(?:const|let|var)\s[^=]*=\s*require\(\s*['"])/

/** The top-level import statements (a statement over several lines whole), up to IMPORT_LINES lines. */
function importStatements(lines: readonly string[]): Span[] {
  const spans: Span[] = []
  let taken = 0
  for (let line = 0; line < lines.length && taken < IMPORT_LINES; line++) {
    if (!IMPORT_START.test(lines[line])) continue
    let end = line
    // `import {` and `from x import (` go on until the line that closes them.
    const closes = lines[line].startsWith('from') ? (text: string) => !/\(\s*(?:#.*)?$/.test(lines[line]) || text.includes(')') : (text: string) => /['"]\)?;?\s*(?:\/\/.*)?$/.test(text)
    while (end < lines.length - 1 && end - line < IMPORT_LINES && !closes(lines[end])) end++
    spans.push([line, end])
    taken += end - line + 1
    line = end
  }
  return spans
}

/** What the whole outline costs: its imports and a line per declaration. */
function fullOutlineCost(index: LineIndex): number {
  const { imports, declarations } = outlineEntries(index)
  const importCost = imports.reduce((sum, [from, to]) => sum + index.size(from, to) + 1, 0)
  return OUTLINE.length + PIECE_OVERHEAD + importCost + declarations.reduce((sum, block) => sum + outlineLine(index, block).length + 1, 0)
}

function outlineLine(index: LineIndex, block: Block & { depth: number }): string {
  return `${block.start + 1}: ${'  '.repeat(block.depth)}${index.lines[block.start].trim().slice(0, OUTLINE_LINE)}`
}

/**
 * The outline of what `shown` does not show, within `room`: the import statements, then a line per
 * declaration (its line number and first line), so the model knows what exists and where to read it.
 */
function outlineExcerpt(index: LineIndex, shown: Span[], room: number): CodeExcerpt | null {
  const isShown = (line: number) => shown.some(([from, to]) => line >= from && line <= to)
  const { imports, declarations } = outlineEntries(index)
  const notShown = declarations.filter((block) => !isShown(block.start))
  const roomLeft = room - OUTLINE.length - PIECE_OVERHEAD - MARKER_RESERVE
  const importLines = imports.filter(([from]) => !isShown(from)).map(([from, to]) => index.text(from, to))
  const full = notShown.map((block) => outlineLine(index, block))
  // Too many declarations for their first lines: their names and lines, several to a line.
  const listed = [...importLines, '', ...full].join('\n').length <= roomLeft ? full : compactOutline(notShown)
  const text = [...importLines, ...(importLines.length ? [''] : []), ...listed]
  const kept: string[] = []
  let left = roomLeft
  for (const line of text) {
    if (line.length + 1 > left) break
    kept.push(line)
    left -= line.length + 1
  }
  if (kept.length < text.length) kept.push(`[… ${text.length - kept.length} more outline lines left out]`)
  return kept.some((line) => line.trim() && !line.startsWith('[…')) ? { name: OUTLINE, startLine: 1, code: kept.join('\n') } : null
}
/** Declarations as `name (line)`, about 100 characters to a line. */
function compactOutline(blocks: Block[]): string[] {
  const lines: string[] = []
  let line = ''
  for (const block of blocks) {
    const entry = `${block.name} (${block.start + 1})`
    if (line && line.length + entry.length + 2 > 100) (lines.push(`${line},`), (line = ''))
    line = line ? `${line}, ${entry}` : entry
  }
  return line ? [...lines, line] : lines
}

/** Room for the marker ending a cut outline. */
const MARKER_RESERVE = 50

/** Blocks that no other contains, sorted; a contained block's changed lines go to the block containing it. */
function outermost(blocks: ChangedBlock[]): ChangedBlock[] {
  const kept: ChangedBlock[] = []
  for (const block of blocks.sort((a, b) => a.start - b.start)) {
    // Sorted by start, the kept block reaching furthest is the last one: it contains any block ending within it.
    const outer = kept[kept.length - 1]
    if (outer && block.end <= outer.end) append(outer.changed, block.changed)
    else kept.push(block)
  }
  return kept
}

/** Windows (sorted) that overlap or touch become one: each line once. */
function joinWindows(windows: ChangedBlock[]): ChangedBlock[] {
  const joined: ChangedBlock[] = []
  for (const block of windows) {
    const last = joined[joined.length - 1]
    if (last && block.start <= last.end + 1) {
      last.end = Math.max(last.end, block.end)
      append(last.changed, block.changed)
      last.name = `(lines ${last.start + 1} to ${last.end + 1})`
    } else joined.push(block)
  }
  return joined
}

/** Pushes one by one: a spread of 100,000 lines would overflow the stack. */
function append<T>(target: T[], items: readonly T[]): void {
  for (const item of items) target.push(item)
}

/** Lines around `line`, within the file and between the declared blocks (sorted, none containing it) before and after it. */
function windowBetween(index: LineIndex, declared: ChangedBlock[], line: number): ChangedBlock {
  const next = firstStartingAfter(declared, line)
  const before = next > 0 ? declared[next - 1].end + 1 : 0
  const after = next < declared.length ? declared[next].start - 1 : index.lineCount - 1
  const start = Math.max(0, before, line - FALLBACK_WINDOW)
  return { name: `(lines around ${line + 1})`, start, end: Math.min(after, line + FALLBACK_WINDOW), changed: [line] }
}

/** The position of the first block starting after `line`, by binary search. */
function firstStartingAfter(blocks: ChangedBlock[], line: number): number {
  let low = 0
  let high = blocks.length
  while (low < high) {
    const middle = (low + high) >> 1
    if (blocks[middle].start <= line) low = middle + 1
    else high = middle
  }
  return low
}

const EXPORT_STATEMENT = /^\s*(?:module\.exports\s*=|export\s+default\b|export\s*\{|export\s*\*)/

/** The lines that say what a module exports as a whole (`module.exports = …`, `export default …`), 1-based. */
export function exportStatementLines(content: string | readonly string[]): number[] {
  const lines = typeof content === 'string' ? content.split('\n') : content
  return lines.flatMap((line, index) => (EXPORT_STATEMENT.test(line) ? [index + 1] : []))
}

/**
 * Leading blanks of a line, never its line break: `^\s*` would run on over every blank line below, so each
 * line start rescanned them all (80,000 blank lines took 10 s).
 */
const INDENT = String.raw`[^\S\r\n\u2028\u2029]*`
const EXPORT_PATTERNS = [
  // `export default class extends Tag` is anonymous: `extends` is no name.
  new RegExp(String.raw`^${INDENT}export\s+(?:default\s+)?(?:declare\s+)?(?:abstract\s+)?(?:async\s+)?(?:function\s*\*?|class|const|let|var|interface|type|enum)\s+(?!(?:extends|implements)\b)([\w$]+)`, 'gm'),
  new RegExp(String.raw`^${INDENT}(?:module\.)?exports\.([\w$]+)\s*=`, 'gm')
]
const EXPORT_LIST = new RegExp(String.raw`^${INDENT}export\s+(?:type\s+)?\{([^}]*)\}`, 'gm')
/** `export * from './x'` re-exports all of `./x` (listed as that statement); `export * as x from` names `x`. */
const EXPORT_ALL = new RegExp(String.raw`^${INDENT}export\s+\*\s+(?:as\s+([\w$]+)\s+)?from\s+(['"][^'"\n]+['"])`, 'gm')
const EXPORT_DEFAULT = new RegExp(String.raw`^${INDENT}export\s+default\b`, 'm')
/** The `module.exports = { … }` objects read for their keys, and how far into each. */
const MAX_EXPORT_OBJECTS = 4
const EXPORT_OBJECT_SCAN = 64_000

/** The names a module exports (ESM `export`, `export { … }`, CommonJS `exports.x` / `module.exports = { … }`). */
export function exportedNames(content: string): string[] {
  const names = new Set<string>()
  for (const pattern of EXPORT_PATTERNS) for (const match of content.matchAll(pattern)) names.add(match[1])
  // `export { a as b }` exports the name after `as`; `module.exports = { b: a }` the key before the colon.
  for (const [, name, from] of content.matchAll(EXPORT_ALL)) names.add(name ?? `* from ${from}`)
  for (const list of upToLast(content, '}').matchAll(EXPORT_LIST)) addListed(list[1], names, (item) => item.split(/\s+as\s+/).pop())
  for (const match of [...content.matchAll(/module\.exports\s*=\s*\{/g)].slice(0, MAX_EXPORT_OBJECTS)) {
    for (const key of topLevelKeys(content, match.index + match[0].length)) names.add(key)
  }
  if (EXPORT_DEFAULT.test(content) || /module\.exports\s*=\s*(?![\s{])/.test(content)) names.add('default')
  // `__all__ = [...]`, `(...)` or `+= [...]`.
  for (const match of upToLast(content, ']', ')').matchAll(/^__all__\s*\+?=\s*[[(]([^\])]*)[\])]/gm)) addListed(match[1].replace(/['"]/g, ''), names, (item) => item)
  // A Python module without __all__ exports its public top-level functions and classes.
  if (!/^__all__\s*=/m.test(content)) {
    for (const match of content.matchAll(/^(?:(?:async\s+)?def\s+([A-Za-z]\w*)\s*\(|class\s+([A-Za-z]\w*)\s*[(:])/gm)) names.add(match[1] ?? match[2])
  }
  return [...names]
}

/**
 * The text up to its last closing character: a list pattern (`{([^}]*)\}`) then finds its close, or starts
 * after it and fails at once, instead of scanning to the end of the file from every unclosed opening.
 */
function upToLast(content: string, ...closers: string[]): string {
  return content.slice(0, Math.max(...closers.map((closer) => content.lastIndexOf(closer))) + 1)
}

/**
 * The keys of the object literal that opens just before `start`: `a`, `b: x`, `c() {…}`, `get d() {…}`, `'e': 1`
 * (a spread has none). Comments are dropped; what nests inside, or sits in a string, is skipped.
 */
function topLevelKeys(content: string, start: number): string[] {
  const text = withoutComments(content.slice(start, start + EXPORT_OBJECT_SCAN))
  const keys: string[] = []
  let depth = 0
  let item = ''
  let quote: string | null = null
  for (let at = 0; at < text.length; at++) {
    const char = text[at]
    if (depth === 0) item += char
    if (quote) {
      if (char === '\\') at++
      else if (char === quote) quote = null
    } else if (char === '"' || char === "'" || char === '`') quote = char
    else if ('{[('.includes(char)) depth++
    else if ('}])'.includes(char)) depth--
    if (depth < 0 || (depth === 0 && !quote && char === ',')) {
      const key = /^(?:(?:get|set|async)\s+(?=[\w$'"*]))?\*?\s*['"]?([A-Za-z_$][\w$]*)/.exec(item.trim())?.[1]
      if (key) keys.push(key)
      if (depth < 0) break
      item = ''
    }
  }
  return keys
}

/** Characters after which a `/` starts a regular expression rather than a division. */
const BEFORE_REGEX = '(,=:[!&|?{};'
/** Longer "regular expressions" are taken for divisions: it bounds the look-ahead from each `/`. */
const REGEX_LITERAL_LIMIT = 500
const LINE_BREAK = /[\n\r\u2028\u2029]/

/**
 * JavaScript without its comments and regular expression literals (which may hold quotes); strings are kept,
 * so `'http://x'` is no comment. A `/` after an operator or an opening bracket starts a regular expression.
 * One pass, remembering where a string or comment could not close, so no opening rescans the rest.
 */
function withoutComments(code: string): string {
  const parts: string[] = []
  const unclosed = { '"': -1, "'": -1, '`': -1, '/*': -1 }
  let copied = 0
  for (let at = 0; at < code.length; at++) {
    const char = code[at]
    if (char === '"' || char === "'" || char === '`') {
      at = at < unclosed[char] ? at : (stringEnd(code, at, unclosed) ?? at + 1) - 1
      continue
    }
    if (char !== '/') continue
    const end = code[at + 1] === '*' ? blockCommentEnd(code, at, unclosed) : code[at + 1] === '/' ? lineEnd(code, at) : opensRegex(code, at) ? regexEnd(code, at) : null
    if (end === null) continue
    parts.push(code.slice(copied, at), ' ')
    copied = end
    at = end - 1
  }
  parts.push(code.slice(copied))
  return parts.join('')
}

/** Just past the quote closing the string that opens at `open`; null (and remembered) when it does not close. */
function stringEnd(code: string, open: number, unclosed: Record<string, number>): number | null {
  const quote = code[open]
  for (let at = open + 1; at < code.length; at++) {
    const char = code[at]
    if (char === quote) return at + 1
    if (char === '\\') {
      if (at + 1 >= code.length || LINE_BREAK.test(code[at + 1])) return fail(at)
      at++
    } else if (char === '\n' && quote !== '`') return fail(at)
  }
  return fail(code.length)

  // A quote of the same kind before `at` cannot close either: it would scan the same characters.
  function fail(at: number): null {
    unclosed[quote] = at
    return null
  }
}

function blockCommentEnd(code: string, open: number, unclosed: Record<string, number>): number | null {
  if (open < unclosed['/*']) return null
  const close = code.indexOf('*/', open + 2)
  if (close >= 0) return close + 2
  unclosed['/*'] = code.length
  return null
}

function lineEnd(code: string, at: number): number {
  const end = code.indexOf('\n', at)
  return end < 0 ? code.length : end
}

function opensRegex(code: string, slash: number): boolean {
  let before = slash - 1
  while (before >= 0 && /\s/.test(code[before])) before--
  return before >= 0 && BEFORE_REGEX.includes(code[before])
}

/** Just past the flags of the regular expression literal at `open`, or null: none closes on its line, near enough. */
function regexEnd(code: string, open: number): number | null {
  const limit = Math.min(code.length, open + REGEX_LITERAL_LIMIT)
  let classesUnclosedBefore = -1
  for (let at = open + 1; at < limit; at++) {
    const char = code[at]
    if (char === '/') return at === open + 1 ? null : flagsEnd(code, at + 1)
    if (char === '\n') return null
    if (char === '\\') {
      if (at + 1 >= limit || LINE_BREAK.test(code[at + 1])) return null
      at++
    } else if (char === '[' && at >= classesUnclosedBefore) {
      const close = classEnd(code, at, limit)
      if (close === null) classesUnclosedBefore = limit
      else at = close
    }
  }
  return null
}

/** The `]` closing the character class at `open`, on its line. */
function classEnd(code: string, open: number, limit: number): number | null {
  for (let at = open + 1; at < limit; at++) {
    if (code[at] === ']') return at
    if (code[at] === '\n') return null
    if (code[at] === '\\') {
      if (at + 1 >= limit || LINE_BREAK.test(code[at + 1])) return null
      at++
    }
  }
  return null
}

function flagsEnd(code: string, from: number): number {
  let at = from
  while (at < code.length && code[at] >= 'a' && code[at] <= 'z') at++
  return at
}

function addListed(list: string, names: Set<string>, nameOf: (item: string) => string | undefined): void {
  for (const item of list.split(',')) {
    const name = nameOf(item.trim())?.trim()
    if (name && /^[\w$]+$/.test(name)) names.add(name)
  }
}
