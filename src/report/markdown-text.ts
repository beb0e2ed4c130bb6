/**
 * Untrusted text (test titles, file names, failure lines, the issue, the model's analysis, reasons quoting
 * them) placed in GitHub markdown as text: it cannot open or close HTML (`</details>`, `<!--`, `<h1>`),
 * mention anyone, link, show an image, start a block or break out of a table cell. The tool's own fixed
 * text is not passed through here.
 */
import { forTerminal } from '../text.js'

/** Zero-width space: splits `@name`, `#123` and `http://` for GitHub's autolinkers, shows nothing. */
const ZERO_WIDTH = '\u200B'

const HTML: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;' }

/**
 * Prose: one line (nothing can start a block below it), HTML-escaped, markdown punctuation backslash-escaped,
 * mentions, references and bare links split. Safe in a paragraph and a list item; in a table, through cell.
 */
export function inertText(text: string): string {
  // Terminal escape sequences and control characters first, whole: nothing to show on GitHub or a terminal.
  return forTerminal(text)
    .replace(/\s+/g, ' ')
    .trim()
    .replace(/[&<>]/g, (character) => HTML[character])
    .replace(/[\\`[\]~*]/g, '\\$&')
    .replace(/(?<![\p{L}\p{N}])_|_(?![\p{L}\p{N}])/gu, '\\_')
    .replace(/([@#])(?=[\p{L}\p{N}_-])/gu, `$1${ZERO_WIDTH}`)
    .replace(/:\/\//g, `:${ZERO_WIDTH}//`)
    .replace(/\bwww\./gi, (www) => `${www.slice(0, 3)}${ZERO_WIDTH}.`)
    // What would start a list, a heading or a thematic break at the start of a line.
    .replace(/^(?=[-+=#])/, '\\')
    .replace(/^(\d+)([.)])/, '$1\\$2')
}

/**
 * A title or a path as inline code: a fence longer than any run of backticks in it, so it cannot close early;
 * inside it nothing is markup. One line; pipes are the table cell's to escape (cell).
 */
export function inlineCode(text: string): string {
  const longestRun = (text.match(/`+/g) ?? []).reduce((longest, run) => Math.max(longest, run.length), 0)
  const fence = '`'.repeat(longestRun + 1)
  const oneLine = text.replace(/\s+/g, ' ')
  if (oneLine === '') return '` `'
  // A space each side where the text starts or ends with a backtick or a space, which CommonMark strips again.
  const pad = longestRun > 0 || /^ | $/.test(oneLine) ? ' ' : ''
  return `${fence}${pad}${oneLine}${pad}${fence}`
}

/** Markdown (inert or the tool's own) in a table cell: a pipe would end the cell, a line break the row. */
export const cell = (markdown: string) => markdown.replace(/\|/g, '\\|').replace(/\n+/g, ' ')
