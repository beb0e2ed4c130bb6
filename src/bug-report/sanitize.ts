import { escapeRegExp } from '../regexp.js'

/** Issue and PR text is untrusted: strip what hides text from a human reader, and bound its size. */

const HTML_COMMENT = /<!--[\s\S]*?(?:-->|$)/g
// Zero-width, bidirectional-override and other invisible format characters (Unicode category Cf), except
// none we need: emoji joiners only change rendering, and dropping them keeps the text readable.
const INVISIBLE = /[\p{Cf}\u00AD]/gu
// Every line break a reader or a log might honour (CRLF, CR, vertical tab, form feed, NEL, the Unicode line
// and paragraph separators) becomes a plain \n, so a line looks the same to everything downstream.
const LINE_BREAK = /\r\n|[\r\u000B\u000C\u0085\u2028\u2029]/g
// C0 and C1 control characters, but \t and \n (terminal escapes start with ESC or a C1 introducer).
const CONTROL = /[\u0000-\u0008\u000E-\u001F\u007F-\u009F]/g

export const BUG_REPORT_BUDGET = 12_000

export function sanitizeUntrusted(text: string): string {
  return text.replace(HTML_COMMENT, '').replace(INVISIBLE, '').replace(LINE_BREAK, '\n').replace(CONTROL, '').trim()
}

export function truncate(text: string, budget: number): { text: string; truncated: boolean } {
  if (text.length <= budget) return { text, truncated: false }
  return { text: `${text.slice(0, budget)}\n[… truncated]`, truncated: true }
}

/**
 * Untrusted text quoted in `<tag>…</tag>` must not close the quote (or open another): the `<` of any tag of
 * that name, in any case and spacing (`</bug_report>`, `< / BUG_REPORT >`, `<bug-report x>`, `</bug_reports>`), becomes `&lt;`.
 */
export function escapeQuoteTags(text: string, tag: string): string {
  const name = tag.split(/[_\s-]+/).map(escapeRegExp).join('[\\s_-]*')
  return text.replace(new RegExp(`<(?=\\s*/?\\s*${name})`, 'gi'), '&lt;')
}
