/** Issue and PR text is untrusted: strip what hides text from a human reader, and bound its size. */

const HTML_COMMENT = /<!--[\s\S]*?(?:-->|$)/g
// Zero-width, bidirectional-override and other invisible format characters (Unicode category Cf), except
// none we need: emoji joiners only change rendering, and dropping them keeps the text readable.
const INVISIBLE = /[\p{Cf}\u00AD]/gu
const CONTROL = /[\u0000-\u0008\u000B\u000C\u000E-\u001F\u007F]/g

export const BUG_REPORT_BUDGET = 12_000

export function sanitizeUntrusted(text: string): string {
  return text.replace(HTML_COMMENT, '').replace(INVISIBLE, '').replace(CONTROL, '').replace(/\r\n?/g, '\n').trim()
}

export function truncate(text: string, budget: number): { text: string; truncated: boolean } {
  if (text.length <= budget) return { text, truncated: false }
  return { text: `${text.slice(0, budget)}\n[… truncated]`, truncated: true }
}
