/**
 * The code the change touched, as whole functions: small files go in whole (the model then sees every
 * name it may call); larger ones as the enclosing blocks of the changed lines.
 */
import type { CodeExcerpt } from '../domain.js'

export const WHOLE_FILE_LIMIT = 16_000
export const WHOLE_FILE = '(whole file)'
const FALLBACK_WINDOW = 15

const DECLARATION = [
  /^\s*(?:export\s+)?(?:default\s+)?(?:async\s+)?function\s*\*?\s*([\w$]+)/,
  /^\s*(?:export\s+)?(?:default\s+)?(?:abstract\s+)?class\s+([\w$]+)/,
  /^\s*(?:export\s+)?(?:const|let|var)\s+([\w$]+)\s*(?::[^=]+)?=\s*(?:async\s+)?(?:function\b|\([^)]*\)\s*(?::[^=]+)?=>|[\w$]+\s*=>)/,
  /^\s*(?:(?:public|private|protected|static|async|readonly|override|get|set)\s+)*(?!if\b|for\b|while\b|switch\b|catch\b|return\b)([\w$]+)\s*(?:<[^>]*>)?\([^)]*\)?\s*(?::\s*[^{]+)?\{\s*$/,
  /^\s*(?:async\s+)?def\s+(\w+)/,
  /^\s*class\s+(\w+)\s*[(:]/
]

export function excerptsFor(content: string, changedLines: number[]): CodeExcerpt[] {
  if (content.length <= WHOLE_FILE_LIMIT) return [{ name: WHOLE_FILE, startLine: 1, code: content }]
  const lines = content.split('\n')
  const excerpts = new Map<number, CodeExcerpt>()
  for (const line of changedLines) {
    const excerpt = enclosingBlock(lines, line - 1)
    if (!excerpts.has(excerpt.startLine)) excerpts.set(excerpt.startLine, excerpt)
  }
  // A changed helper nested in a changed function is already shown with it.
  const sorted = [...excerpts.values()].sort((a, b) => a.startLine - b.startLine || b.code.length - a.code.length)
  return sorted.filter((inner) => !sorted.some((outer) => outer !== inner && outer.startLine <= inner.startLine && lastLine(inner) <= lastLine(outer)))
}

const lastLine = (excerpt: CodeExcerpt) => excerpt.startLine + excerpt.code.split('\n').length - 1

/** The lines that say what a module exports as a whole (`module.exports = …`, `export default …`), 1-based. */
export function exportStatementLines(content: string): number[] {
  return content.split('\n').flatMap((line, index) => (/^\s*(?:module\.exports\s*=|export\s+default\b|export\s*\{)/.test(line) ? [index + 1] : []))
}

/** The innermost declaration above `index` whose block still contains it; else a window around it. */
function enclosingBlock(lines: string[], index: number): CodeExcerpt {
  for (let start = Math.min(index, lines.length - 1); start >= 0; start--) {
    const name = declaredName(lines[start])
    if (!name) continue
    const end = blockEnd(lines, start)
    if (end >= index) return excerpt(lines, name, start, end)
  }
  const start = Math.max(0, index - FALLBACK_WINDOW)
  return excerpt(lines, `(lines around ${index + 1})`, start, Math.min(lines.length - 1, index + FALLBACK_WINDOW))
}

function declaredName(line: string): string | null {
  for (const pattern of DECLARATION) {
    const match = pattern.exec(line)
    if (match) return match[1]
  }
  return null
}

/** Brace matching for C-like code; indentation for Python-like blocks (a line ending in ':'). */
function blockEnd(lines: string[], start: number): number {
  if (/:\s*(?:#.*)?$/.test(lines[start]) && !lines[start].includes('{')) return indentedBlockEnd(lines, start)
  let depth = 0
  let opened = false
  for (let i = start; i < lines.length; i++) {
    for (const char of lines[i].replace(/(['"`])(?:\\.|(?!\1).)*\1/g, '')) {
      if (char === '{') (depth++, (opened = true))
      if (char === '}') depth--
    }
    if (opened && depth <= 0) return i
  }
  return lines.length - 1
}

function indentedBlockEnd(lines: string[], start: number): number {
  const indent = lines[start].search(/\S/)
  let end = start
  for (let i = start + 1; i < lines.length; i++) {
    if (lines[i].trim() === '') continue
    if (lines[i].search(/\S/) <= indent) break
    end = i
  }
  return end
}

function excerpt(lines: string[], name: string, start: number, end: number): CodeExcerpt {
  return { name, startLine: start + 1, code: lines.slice(start, end + 1).join('\n') }
}

const EXPORT_PATTERNS = [
  /^\s*export\s+(?:default\s+)?(?:declare\s+)?(?:abstract\s+)?(?:async\s+)?(?:function\s*\*?|class|const|let|var|interface|type|enum)\s+([\w$]+)/gm,
  /^\s*(?:module\.)?exports\.([\w$]+)\s*=/gm
]

/** The names a module exports (ESM `export`, `export { … }`, CommonJS `exports.x` / `module.exports = { … }`). */
export function exportedNames(content: string): string[] {
  const names = new Set<string>()
  for (const pattern of EXPORT_PATTERNS) for (const match of content.matchAll(pattern)) names.add(match[1])
  // `export { a as b }` exports the name after `as`; `module.exports = { b: a }` the key before the colon.
  for (const list of content.matchAll(/^\s*export\s+(?:type\s+)?\{([^}]*)\}/gm)) addListed(list[1], names, (item) => item.split(/\s+as\s+/).pop())
  for (const match of content.matchAll(/module\.exports\s*=\s*\{/g)) {
    for (const key of topLevelKeys(content, match.index + match[0].length)) names.add(key)
  }
  if (/^\s*export\s+default\b/m.test(content) || /module\.exports\s*=\s*(?![\s{])/.test(content)) names.add('default')
  // `__all__ = [...]`, `(...)` or `+= [...]`.
  for (const match of content.matchAll(/^__all__\s*\+?=\s*[[(]([^\])]*)[\])]/gm)) addListed(match[1].replace(/['"]/g, ''), names, (item) => item)
  // A Python module without __all__ exports its public top-level functions and classes.
  if (!/^__all__\s*=/m.test(content)) {
    for (const match of content.matchAll(/^(?:(?:async\s+)?def\s+([A-Za-z]\w*)\s*\(|class\s+([A-Za-z]\w*)\s*[(:])/gm)) names.add(match[1] ?? match[2])
  }
  return [...names]
}

/**
 * The keys of the object literal that opens just before `start`: `a`, `b: x`, `c() {…}`, `get d() {…}`, `'e': 1`
 * (a spread has none). Comments are dropped; what nests inside, or sits in a string, is skipped.
 */
function topLevelKeys(content: string, start: number): string[] {
  const text = withoutComments(content.slice(start))
  const keys: string[] = []
  let depth = 0
  let item = ''
  let quote: string | null = null
  for (let at = 0; at < text.length; at++) {
    const char = text[at]
    if (depth === 0) item += char
    if (quote) {
      if (char === '\\') at++
      else if (char === quote) quote = null
    } else if (char === '"' || char === "'" || char === '`') quote = char
    else if ('{[('.includes(char)) depth++
    else if ('}])'.includes(char)) depth--
    if (depth < 0 || (depth === 0 && !quote && char === ',')) {
      const key = /^(?:(?:get|set|async)\s+(?=[\w$'"*]))?\*?\s*['"]?([A-Za-z_$][\w$]*)/.exec(item.trim())?.[1]
      if (key) keys.push(key)
      if (depth < 0) break
      item = ''
    }
  }
  return keys
}

/**
 * JavaScript without its comments and regular expression literals (which may hold quotes); strings are kept,
 * so `'http://x'` is no comment. A `/` after an operator or an opening bracket starts a regular expression.
 */
function withoutComments(code: string): string {
  const string = /"(?:\\.|[^"\\\n])*"|'(?:\\.|[^'\\\n])*'|`(?:\\.|[^`\\])*`/.source
  const comment = /\/\*[\s\S]*?\*\/|\/\/[^\n]*/.source
  const regex = /(?<=[(,=:[!&|?{};]\s*)\/(?![*/])(?:\\.|\[(?:\\.|[^\]\\\n])*\]|[^/\\\n])+\/[a-z]*/.source
  return code.replace(new RegExp(`(${string})|${comment}|${regex}`, 'g'), (_match, kept: string | undefined) => kept ?? ' ')
}

function addListed(list: string, names: Set<string>, nameOf: (item: string) => string | undefined): void {
  for (const item of list.split(',')) {
    const name = nameOf(item.trim())?.trim()
    if (name && /^[\w$]+$/.test(name)) names.add(name)
  }
}
