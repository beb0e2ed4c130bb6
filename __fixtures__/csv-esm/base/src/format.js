const NEEDS_QUOTES = /[",\r\n]/

/** One record as CSV: fields that hold the delimiter, a quote or a line break are quoted. */
export function formatRow(fields, { delimiter = ',' } = {}) {
  return fields.map((value) => formatField(value == null ? '' : String(value), delimiter)).join(delimiter)
}

function formatField(text, delimiter) {
  const quote = NEEDS_QUOTES.test(text) || text.includes(delimiter)
  return quote ? `"${text.replaceAll('"', '""')}"` : text
}
