/** Where a post lives: `/<year>/<month>/<slug>`, the slug short enough for a tweet. */
import { slugify } from './slugify.js'

export const PERMALINK_SLUG_LENGTH = 60

export interface Post {
  title: string
  published: Date
  /** An explicit slug wins over the title's. */
  slug?: string
}

export function permalink(post: Post): string {
  const year = post.published.getUTCFullYear()
  const month = String(post.published.getUTCMonth() + 1).padStart(2, '0')
  const slug = post.slug ?? slugify(post.title, { maxLength: PERMALINK_SLUG_LENGTH })
  if (slug === '') throw new Error(`the post "${post.title}" has no slug: give it one explicitly`)
  return `/${year}/${month}/${slug}`
}
