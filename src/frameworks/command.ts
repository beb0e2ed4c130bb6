/**
 * A repository's own test command (the `test-command` setting), run without a shell: split into argv here,
 * leading `NAME=value` words become environment variables, `{files}` becomes the test files, and the
 * adapter's reporter arguments go at the end.
 */
import { SettingsError } from '../errors.js'

export interface CommandLine {
  command: string
  args: string[]
  env: Record<string, string>
}

export const FILES_PLACEHOLDER = '{files}'

/** Splits like a POSIX shell does for plain words and quotes; anything needing a real shell is refused. */
export function splitCommandLine(text: string, input = 'test-command'): string[] {
  const words: string[] = []
  let word: string | null = null
  let quote: '"' | "'" | null = null
  for (let i = 0; i < text.length; i++) {
    const char = text[i]
    if (quote) {
      if (char === quote) quote = null
      else if (char === '\\' && quote === '"' && i + 1 < text.length) word += text[++i]
      else word += char
    } else if (char === '"' || char === "'") {
      quote = char
      word ??= ''
    } else if (/\s/.test(char)) {
      if (word !== null) words.push(word)
      word = null
    } else if (/[|&;<>()$`]/.test(char)) {
      throw new SettingsError(input, `"${text}" needs a shell (${char}); give one command, or put it in a package.json script`)
    } else {
      word = (word ?? '') + (char === '\\' && i + 1 < text.length ? text[++i] : char)
    }
  }
  if (quote) throw new SettingsError(input, `"${text}" has an unclosed ${quote}`)
  if (word !== null) words.push(word)
  if (words.length === 0) throw new SettingsError(input, 'the command is empty')
  return words
}

/** The argv for one run: `{files}` (or the end, when absent) gets the files, then the reporter arguments. */
export function expandCommand(template: string[], files: string[], reporterArgs: string[]): CommandLine {
  const env: Record<string, string> = {}
  let start = 0
  for (; start < template.length && /^[A-Za-z_][A-Za-z0-9_]*=/.test(template[start]); start++) {
    const [name, ...value] = template[start].split('=')
    env[name] = value.join('=')
  }
  const words = template.slice(start)
  const expanded = words.includes(FILES_PLACEHOLDER) ? words.flatMap((word) => (word === FILES_PLACEHOLDER ? files : [word])) : [...words, ...files]
  const [command, ...args] = [...expanded, ...reporterArgs]
  if (!command) throw new SettingsError('test-command', 'the command has only variable assignments')
  return { command, args, env }
}
