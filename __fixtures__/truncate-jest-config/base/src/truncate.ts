const ELLIPSIS = '…'

/** `text` cut to at most `max` characters, ending in an ellipsis when cut. */
export function truncate(text: string, max: number): string {
  if (text.length <= max) return text
  return text.slice(0, max) + ELLIPSIS
}
