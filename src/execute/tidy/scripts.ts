/**
 * What the repository's package.json scripts pass to a formatter or linter: `"lint": "eslint . --ext .ts
 * -c config/eslint.js"` runs eslint with `--ext .ts -c config/eslint.js`. Only the options the tool's entry
 * carries (tools.ts) are kept; the globs, the check/write mode and the output format are the run's own.
 */
import { scriptCommands } from '../../frameworks/package-scripts.js'
import type { ToolSpec } from './tools.js'

/** Scripts that say how the repository formats or lints, looked at first; then the rest, in their order. */
const PREFERRED_SCRIPTS = ['format', 'fmt', 'prettier', 'lint:fix', 'fix', 'lint', 'check', 'pretest', 'test']

export interface ScriptUse {
  /** The script's name (`lint`). */
  script: string
  /** The options carried into the run. */
  options: string[]
}

/** The first script that runs `tool` (by its program's name, as `biome format` or `ruff check` too), and the options it passes. */
export function scriptUse(scripts: Record<string, unknown>, tool: ToolSpec, subcommand: string | null = null): ScriptUse | null {
  const names = Object.keys(scripts)
  const ordered = [...PREFERRED_SCRIPTS.filter((name) => names.includes(name)), ...names.filter((name) => !PREFERRED_SCRIPTS.includes(name))]
  for (const name of ordered) {
    const text = scripts[name]
    if (typeof text !== 'string') continue
    for (const command of scriptCommands(text)) {
      const start = command.findIndex((word) => isProgram(word, tool.program))
      if (start < 0) continue
      const rest = command.slice(start + 1)
      if (subcommand !== null && rest[0] !== subcommand) continue
      return { script: name, options: carriedOptions(subcommand === null ? rest : rest.slice(1), tool) }
    }
  }
  return null
}

/** `prettier`, `./node_modules/.bin/prettier`, `node_modules/prettier/bin/prettier.cjs`. */
function isProgram(word: string, program: string): boolean {
  return word === program || word.endsWith(`/.bin/${program}`) || new RegExp(`(?:^|/)node_modules/${program}/bin/`).test(word)
}

function carriedOptions(words: string[], tool: ToolSpec): string[] {
  const options: string[] = []
  for (let i = 0; i < words.length; i++) {
    const word = words[i]
    const [name, inlineValue] = word.startsWith('--') && word.includes('=') ? [word.slice(0, word.indexOf('=')), word] : [word, null]
    if (tool.carried.withValue.includes(name)) {
      if (inlineValue !== null) options.push(inlineValue)
      else if (i + 1 < words.length) options.push(word, words[++i])
    } else if (tool.carried.flags.includes(name)) options.push(word)
  }
  return options
}
