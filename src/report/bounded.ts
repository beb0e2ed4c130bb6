/**
 * Markdown cut to a size limit: GitHub drops a job summary over 1 MiB and refuses a comment over 65,536
 * characters. The text is cut a whole piece at a time, never inside a row, a code fence or a `<details>`
 * element, so what stays renders as it would have: first the rows at the end of the largest tables and
 * lists (a line says how many went), then whole blocks from the end; a note under the title says what was
 * cut and where the whole report is.
 */

export interface SizeLimit {
  /** The size of a text in the limit's unit (bytes, characters). */
  size: (text: string) => number
  max: number
  /** The limit in words, for the note: `1 MiB, GitHub's limit for a job summary`. */
  name: string
}

export const utf8Bytes = (text: string) => Buffer.byteLength(text, 'utf8')

/** report.md and the job summary: under 1 MiB, with room left for the artifact line the action adds. */
export const REPORT_LIMIT: SizeLimit = { size: utf8Bytes, max: 1000 * 1024, name: "1 MiB, GitHub's limit for a job summary" }

/** The job summary: report.md with the artifact line, under 1 MiB. */
export const SUMMARY_LIMIT: SizeLimit = { ...REPORT_LIMIT, max: 1024 * 1024 - 1024 }

/** Where the whole report is, when report.md or the summary is cut. */
export const WHOLE_REPORT = "The whole report is report.json: beside report.md, and in the action's artifact."

/** Blocks are what blank lines separate outside code fences and `<details>`; `rows` the one table's or list's lines that may go. */
interface Block {
  lines: string[]
  rows: { start: number; end: number; kind: 'table' | 'list' } | null
  /** Rows taken off the end of `rows`. */
  cut: number
  dropped: boolean
}

export function boundedMarkdown(markdown: string, limit: SizeLimit, whole: string): string {
  if (limit.size(markdown) <= limit.max) return markdown
  const blocks = splitBlocks(markdown)
  // The note's room is set aside at its largest (the counts it may show).
  const noteRoom = limit.size(cutNote(limit, markdown.length, blocks.length, whole)) + limit.size('\n\n')
  const excess = blocks.reduce((sum, block) => sum + blockSize(block, limit), 0) + noteRoom - limit.max
  dropBlocks(blocks, cutRows(blocks, excess, limit), limit)
  const rowsCut = blocks.reduce((sum, block) => sum + (block.dropped ? 0 : block.cut), 0)
  const note = cutNote(limit, rowsCut, blocks.filter((block) => block.dropped).length, whole)
  const kept = blocks.filter((block) => !block.dropped).map(renderBlock)
  const text = [...kept.slice(0, 1), note, ...kept.slice(1)].join('\n\n') + '\n'
  // The room set aside covers it; a limit too small for the note alone gets the note alone.
  return limit.size(text) <= limit.max ? text : note + '\n'
}

const blockSize = (block: Block, limit: SizeLimit) => limit.size(renderBlock(block)) + limit.size('\n\n')

/** Rows off the end of the largest tables and lists (in bytes) until the excess is gone; returns what is left of it. */
function cutRows(blocks: Block[], excess: number, limit: SizeLimit): number {
  const rowsSize = (block: Block) => block.lines.slice(block.rows!.start, block.rows!.end).reduce((sum, line) => sum + limit.size(line) + 1, 0)
  const largestFirst = blocks.filter((block) => block.rows).map((block) => ({ block, size: rowsSize(block) })).sort((a, b) => b.size - a.size)
  for (const { block } of largestFirst) {
    if (excess <= 0) break
    // The line saying how many went, at its largest count.
    excess += limit.size(cutLine(block, rowCount(block))) + 1
    const { start, end } = block.rows!
    for (let index = end - 1; index >= start && excess > 0; index--) {
      excess -= limit.size(block.lines[index]) + 1
      block.cut++
    }
  }
  return excess
}

/** Whole blocks from the end until the excess is gone; the title last of all. */
function dropBlocks(blocks: Block[], excess: number, limit: SizeLimit): void {
  for (let index = blocks.length - 1; index >= 0 && excess > 0; index--) {
    excess -= blockSize(blocks[index], limit)
    blocks[index].dropped = true
  }
}

function cutNote(limit: SizeLimit, rows: number, blocks: number, whole: string): string {
  const what = [rows ? `${rows.toLocaleString('en-US')} table or list row(s)` : '', blocks ? `${blocks.toLocaleString('en-US')} section(s)` : ''].filter(Boolean).join(' and ')
  return `> ✂️ **Cut to stay under ${limit.name}:** ${what || 'parts'} left out. ${whole}`
}

const rowCount = (block: Block) => (block.rows ? block.rows.end - block.rows.start : 0)

function cutLine(block: Block, count: number): string {
  const text = `… ${count.toLocaleString('en-US')} more left out (see report.json)`
  return block.rows?.kind === 'table' ? `| ${text} |` : `- ${text}`
}

function renderBlock(block: Block): string {
  if (!block.cut || !block.rows) return block.lines.join('\n')
  const { end } = block.rows
  const lines = [...block.lines.slice(0, end - block.cut), cutLine(block, block.cut), ...block.lines.slice(end)]
  return lines.join('\n')
}

/** Splits at blank lines, except inside a code fence or a `<details>` element (which stay whole). */
function splitBlocks(markdown: string): Block[] {
  const blocks: Block[] = []
  let lines: string[] = []
  let fence: string | null = null
  let depth = 0
  const close = () => {
    if (lines.length) blocks.push({ lines, rows: depth === 0 && fence === null ? cuttableRows(lines) : null, cut: 0, dropped: false })
    lines = []
  }
  for (const line of markdown.split('\n')) {
    if (fence === null && depth === 0 && line.trim() === '') {
      close()
      continue
    }
    lines.push(line)
    if (fence !== null) {
      if (closesFence(line, fence)) fence = null
      continue
    }
    fence = /^ {0,3}(`{3,}|~{3,})/.exec(line)?.[1] ?? null
    if (/^\s*<details[\s>]/i.test(line)) depth++
    if (/<\/details>\s*$/i.test(line)) depth = Math.max(0, depth - 1)
  }
  close()
  // A block that opened and never closed is whole too: nothing in it is cut.
  for (const block of blocks) if (isWholeElement(block.lines)) block.rows = null
  return blocks
}

function closesFence(line: string, fence: string): boolean {
  const match = /^ {0,3}(`{3,}|~{3,})\s*$/.exec(line)
  return match !== null && match[1][0] === fence[0] && match[1].length >= fence.length
}

const isWholeElement = (lines: string[]) => /^\s*<details[\s>]/i.test(lines[0]) || /^ {0,3}(`{3,}|~{3,})/.test(lines[0])

/** The block's longest run of table rows (below its header and delimiter) or of list items. */
function cuttableRows(lines: string[]): Block['rows'] {
  let best: Block['rows'] = null
  for (let index = 0; index < lines.length; index++) {
    const table = lines[index].startsWith('|') && /^\|[\s:|-]+\|?\s*$/.test(lines[index + 1] ?? '') && lines[index + 1].includes('-')
    const list = /^[-*] /.test(lines[index])
    if (!table && !list) continue
    const start = table ? index + 2 : index
    let end = start
    while (end < lines.length && (table ? lines[end].startsWith('|') : /^[-*] /.test(lines[end]))) end++
    if (end - start > (best ? best.end - best.start : 0)) best = { start, end, kind: table ? 'table' : 'list' }
    index = Math.max(index, end - 1)
  }
  return best
}
