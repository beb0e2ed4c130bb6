/** `text` in kebab-case: words split at capitals, spaces and underscores, lower-cased, joined by '-'. */
export function kebabCase(text) {
  return text
    .replace(/([a-z0-9])([A-Z])/g, '$1 $2')
    .replace(/([A-Z])(?=[A-Z])/g, '$1 ')
    .split(/[\s_-]+/)
    .filter(Boolean)
    .map((word) => word.toLowerCase())
    .join('-')
}
