/** Shortening a slug without cutting a word in half. */

/**
 * The longest prefix of `slug` that is at most `maxLength` characters and ends at a word boundary; a
 * single word longer than `maxLength` is cut hard.
 */
export function truncateSlug(slug: string, maxLength: number, separator = '-'): string {
  if (slug.length < maxLength) return slug
  // A separator at index maxLength still leaves exactly maxLength characters before it.
  const cut = slug.lastIndexOf(separator, maxLength)
  return cut > 0 ? slug.slice(0, cut) : slug.slice(0, maxLength)
}
