/**
 * Which lines of a source file hold code outside comments. A coverage tool's line map can still name a
 * comment line (code transformed without a source map, V8's every-line-of-a-function, a comment inside a
 * multi-line statement); a comment the fix re-indented is not a changed executable line.
 */

/**
 * The 1-based lines with code on them, outside JavaScript/TypeScript comments (`//`, `/* … *\/`) or Python's
 * `#`; a line of brackets and separators alone is not one.
 */
export function codeLines(path: string, lines: string[]): Set<number> {
  return path.endsWith('.py') ? pythonCodeLines(lines) : scriptCodeLines(lines)
}

function pythonCodeLines(lines: string[]): Set<number> {
  const code = new Set<number>()
  lines.forEach((line, index) => {
    const text = line.trim()
    if (text !== '' && !text.startsWith('#')) code.add(index + 1)
  })
  return code
}

const PUNCTUATION = /[{}()[\];,]/

/** A small scanner: strings and template literals are code (a `//` inside one is not a comment). */
function scriptCodeLines(lines: string[]): Set<number> {
  const code = new Set<number>()
  let inBlockComment = false
  let quote: string | null = null
  lines.forEach((line, index) => {
    // A quote other than a template literal does not run past its line.
    if (quote !== '`') quote = null
    for (let at = 0; at < line.length; at++) {
      const char = line[at]
      const pair = line.slice(at, at + 2)
      if (inBlockComment) {
        if (pair === '*/') {
          inBlockComment = false
          at++
        }
      } else if (quote) {
        code.add(index + 1)
        if (char === '\\') at++
        else if (char === quote) quote = null
      } else if (char === '\\') {
        // An escape outside a string (in a regular expression, `/\/*/`) starts no comment.
        code.add(index + 1)
        at++
      } else if (pair === '/*') {
        inBlockComment = true
        at++
      } else if (pair === '//') {
        break
      } else if (!/\s/.test(char)) {
        // Brackets and separators alone (`}`, `});`, JSX's `{/* … */}`) are no statement of their own.
        if (!PUNCTUATION.test(char)) code.add(index + 1)
        if (char === '"' || char === "'" || char === '`') quote = char
      }
    }
  })
  return code
}
