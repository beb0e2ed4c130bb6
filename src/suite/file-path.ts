/** The one rule for a test file path the model proposes: a plain relative path that reads as what it is. */
import { posix } from 'node:path'

// Control characters (C0, C1 with NEL), format characters (bidirectional controls, zero-width characters,
// the BOM, the soft hyphen) and the line and paragraph separators: they hide or reorder what a reader, a
// log or a terminal shows, and no test file needs them.
const HIDDEN_OR_CONTROL = /[\p{Cc}\p{Cf}\p{Zl}\p{Zp}]/u

/** Why the path may not be used, or null when it is a plain relative path with no `..`. */
export function unsafePathProblem(path: string): string | null {
  if (path.trim() === '') return 'the path is empty'
  const hidden = HIDDEN_OR_CONTROL.exec(path)
  if (hidden) return `the path has a control, line-breaking, bidirectional or invisible character (${codePoint(hidden[0])})`
  if (path.includes('\\')) return 'the path has a backslash'
  if (posix.isAbsolute(path) || /^[a-zA-Z]:/.test(path)) return 'the path is absolute'
  if (path.split('/').includes('..')) return 'the path contains ".."'
  return overLongProblem(path)
}

// Linux's NAME_MAX and PATH_MAX, in bytes: a longer name fails every file operation with ENAMETOOLONG.
const MAX_NAME_BYTES = 255
const MAX_PATH_BYTES = 4096

function overLongProblem(path: string): string | null {
  const bytes = Buffer.byteLength(path, 'utf8')
  if (bytes > MAX_PATH_BYTES) return `the path is too long (${bytes} bytes; at most ${MAX_PATH_BYTES})`
  const longest = Math.max(...path.split('/').map((name) => Buffer.byteLength(name, 'utf8')))
  if (longest > MAX_NAME_BYTES) return `a name in the path is too long (${longest} bytes; at most ${MAX_NAME_BYTES})`
  return null
}

const codePoint = (character: string) => `U+${character.codePointAt(0)!.toString(16).toUpperCase().padStart(4, '0')}`
