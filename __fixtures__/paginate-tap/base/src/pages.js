/** How many pages `total` items fill at `perPage` items a page. */
export function pageCount(total, perPage) {
  if (!(perPage > 0)) throw new RangeError(`perPage must be positive, got ${perPage}`)
  return Math.floor(total / perPage)
}

/** The items on page `page` (1-based), at `perPage` items a page. */
export function pageOf(items, page, perPage) {
  const start = (page - 1) * perPage
  return items.slice(start, start + perPage)
}
