/** package.json scripts read as a shell would split them: commands, words, `NAME=value` variables, `npm run x`. */

const SCRIPT_RUNNER = /^(?:npm|pnpm|yarn|bun)$/
const ASSIGNMENT = /^([A-Za-z_][A-Za-z0-9_]*)=(.*)$/s

/** The script's commands (split at `&&`, `||`, `;`, `|`, `&`), each as words. */
export function scriptCommands(script: string): string[][] {
  const commands: string[][] = [[]]
  for (const word of splitWords(script, true)) {
    if (/^(?:&&|\|\||;|\||&)$/.test(word)) commands.push([])
    else commands[commands.length - 1].push(word)
  }
  return commands.filter((words) => words.length > 0)
}

/** `npm run x`, `npm test`, `yarn x`, `pnpm run x`: the script it runs. */
export function scriptTarget(words: string[]): string | null {
  const [runner, ...rest] = words.filter((word) => !ASSIGNMENT.test(word))
  if (!runner || !SCRIPT_RUNNER.test(runner)) return null
  const args = rest.filter((word) => !word.startsWith('-'))
  if (args[0] === 'run' || args[0] === 'run-script') return args[1] ?? null
  if (args[0] === 'test' || args[0] === 't') return 'test'
  return runner === 'npm' ? null : (args[0] ?? null)
}

export function assignments(words: string[]): Record<string, string> {
  const env: Record<string, string> = {}
  for (const word of words) {
    const match = ASSIGNMENT.exec(word)
    if (match) env[match[1]] = match[2]
  }
  return env
}

/** Shell-like words: quotes and backslashes as a shell reads them; operators as words of their own. */
export function splitWords(text: string, operators = false): string[] {
  const words: string[] = []
  let word: string | null = null
  let quote: string | null = null
  const flush = () => {
    if (word !== null) words.push(word)
    word = null
  }
  for (let i = 0; i < text.length; i++) {
    const char = text[i]
    if (quote) {
      if (char === quote) quote = null
      else word += char === '\\' && quote === '"' && i + 1 < text.length ? text[++i] : char
    } else if (char === '"' || char === "'") {
      quote = char
      word ??= ''
    } else if (/\s/.test(char)) {
      flush()
    } else if (operators && /[;&|]/.test(char)) {
      flush()
      const double = (char === '&' || char === '|') && text[i + 1] === char
      words.push(double ? char + text[++i] : char)
    } else {
      word = (word ?? '') + (char === '\\' && i + 1 < text.length ? text[++i] : char)
    }
  }
  flush()
  return words
}
