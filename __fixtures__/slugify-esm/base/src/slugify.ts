/** Titles to URL slugs: ASCII words joined by a separator, optionally shortened at a word boundary. */
import { transliterate } from './transliterate.js'
import { truncateSlug } from './truncate.js'

export interface SlugifyOptions {
  /** Joins the words; default '-'. */
  separator?: string
  /** The longest slug allowed; longer slugs are cut at the last word that fits. Default: no limit. */
  maxLength?: number
  /** Default true. */
  lowercase?: boolean
}

export function slugify(input: string, options: SlugifyOptions = {}): string {
  const { separator = '-', maxLength = Number.POSITIVE_INFINITY, lowercase = true } = options
  if (maxLength < 1) throw new RangeError(`maxLength must be at least 1, got ${maxLength}`)
  const words = transliterate(input).match(/[A-Za-z0-9]+/g) ?? []
  const slug = words.join(separator)
  return truncateSlug(lowercase ? slug.toLowerCase() : slug, maxLength, separator)
}
