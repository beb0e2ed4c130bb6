import { parseLine } from './parse-line.js'

/**
 * Parses CSV text: each record as an array of fields, or, with `header: true`, as an object keyed by the
 * first record's fields. A record with more or fewer fields than the header is an error.
 */
export function parse(text, { header = false, delimiter = ',' } = {}) {
  const rows = splitRecords(text).map((record) => parseLine(record, { delimiter }))
  if (!header) return rows
  const [names = [], ...records] = rows
  return records.map((fields, index) => {
    if (fields.length !== names.length) {
      throw new RangeError(`row ${index + 2} has ${fields.length} fields, the header has ${names.length}`)
    }
    return Object.fromEntries(names.map((name, i) => [name, fields[i]]))
  })
}

/** The records of CSV text: its lines (LF or CRLF), except line breaks inside quoted fields; no final empty line. */
export function splitRecords(text) {
  const records = []
  let start = 0
  let quoted = false
  for (let i = 0; i < text.length; i++) {
    const char = text[i]
    if (char === '"') quoted = !quoted
    else if (char === '\n' && !quoted) {
      records.push(text.slice(start, text[i - 1] === '\r' ? i - 1 : i))
      start = i + 1
    }
  }
  if (start < text.length) records.push(text.slice(start))
  return records
}
