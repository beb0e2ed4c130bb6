/**
 * Splits one CSV record into its fields, as RFC 4180 writes them: a field may be quoted, and a quoted
 * field may hold the delimiter, line breaks and doubled quotes ("" for one ").
 */
export function parseLine(line, { delimiter = ',', quote = '"' } = {}) {
  if (delimiter.length !== 1 || quote.length !== 1) throw new TypeError('delimiter and quote must be single characters')
  const fields = []
  let field = ''
  let quoted = false
  for (let i = 0; i < line.length; i++) {
    const char = line[i]
    if (quoted) {
      if (char === quote && line[i + 1] === quote) {
        field += quote
        i++
      } else if (char === quote) {
        quoted = false
      } else {
        field += char
      }
    } else if (char === quote && field === '') {
      quoted = true
    } else if (char === delimiter) {
      fields.push(field)
      field = ''
    } else {
      field += char
    }
  }
  if (quoted) throw new SyntaxError(`unterminated quoted field in: ${line}`)
  // Every delimiter ends a field, so a line that ends with one has an empty last field: only an empty
  // line has no fields.
  if (line !== '') fields.push(field)
  return fields
}
