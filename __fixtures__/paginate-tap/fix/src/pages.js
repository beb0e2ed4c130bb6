/** How many pages `total` items fill at `perPage` items a page. */
export function pageCount(total, perPage) {
  if (!(perPage > 0)) throw new RangeError(`perPage must be positive, got ${perPage}`)
  const fullPages = Math.floor(total / perPage)
  return total % perPage === 0 ? fullPages : fullPages + 1
}

/** The items on page `page` (1-based), at `perPage` items a page. */
export function pageOf(items, page, perPage) {
  const start = (page - 1) * perPage
  return items.slice(start, start + perPage)
}
