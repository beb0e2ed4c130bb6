export { permalink, PERMALINK_SLUG_LENGTH, type Post } from './permalink.js'
export { slugify, type SlugifyOptions } from './slugify.js'
export { transliterate } from './transliterate.js'
export { truncateSlug } from './truncate.js'
