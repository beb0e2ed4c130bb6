/**
 * The repository's own mocha flags, read from its `test` script (and a legacy `mocha.opts`): kept so the
 * run loads what the suite needs (`--require`, `--ui`, `--timeout`, node flags), without the script's spec
 * paths (the run gives its files) or flags that would change what runs or how it reports.
 */

import { assignments, scriptCommands, scriptTarget, splitWords } from './package-scripts.js'

export interface ScriptFlags {
  /** Flags to pass on, in order, values included. */
  flags: string[]
  /** `NAME=value` words before mocha in the script (e.g. `TZ=UTC mocha`). */
  env: Record<string, string>
  /** `--config FILE`, `--no-config` (false), or not said (undefined). */
  config?: string | false
  /** `--package FILE`, `--no-package` (false), or not said. */
  package?: string | false
  /** `--opts FILE` (mocha ≤ 7), `--no-opts` (false), or not said. */
  opts?: string | false
}

// Mocha's flags that take a value (mocha 6–11, plus the legacy --opts and --compilers); anything else is a
// switch, as mocha itself treats unknown (node) flags written without `=`.
export const VALUE_FLAGS = new Set([
  'config', 'extension', 'fgrep', 'file', 'global', 'grep', 'ignore', 'jobs', 'node-option', 'package', 'reporter',
  'reporter-option', 'require', 'retries', 'slow', 'spec', 'timeout', 'ui', 'watch-files', 'watch-ignore', 'opts', 'compilers'
])
export const ALIASES: Record<string, string> = {
  A: 'async-only', b: 'bail', c: 'color', colors: 'color', C: 'no-colors', f: 'fgrep', g: 'grep', globals: 'global',
  exclude: 'ignore', i: 'invert', j: 'jobs', n: 'node-option', p: 'parallel', R: 'reporter', O: 'reporter-option',
  'reporter-options': 'reporter-option', r: 'require', s: 'slow', S: 'sort', t: 'timeout', timeouts: 'timeout',
  u: 'ui', w: 'watch'
}
/**
 * What the run decides itself: the files, the reporter, a full run (no filter, no bail), one run (no watch),
 * and where the configuration comes from. Exported for the configuration wrapper, which drops the same.
 */
export const DROPPED_OPTIONS = [
  'spec', 'reporter', 'reporter-option', 'watch', 'watch-files', 'watch-ignore', 'grep', 'fgrep', 'invert', 'bail',
  'dry-run', 'list-interfaces', 'list-reporters', 'config', 'package', 'opts'
]
const DROPPED = new Set(DROPPED_OPTIONS)
const MOCHA_WORD = /(?:^|[\\/])_?mocha(?:\.js)?$/

/** The flags of the first mocha command the `test` script runs, following `npm run x` into other scripts. */
export function scriptFlags(scripts: Record<string, string> | undefined, name = 'test', depth = 0): ScriptFlags {
  const script = scripts?.[name]
  if (!script || depth > 3) return { flags: [], env: {} }
  for (const words of scriptCommands(script)) {
    const at = words.findIndex((word) => MOCHA_WORD.test(word))
    if (at >= 0) return { ...parseMochaArgs(words.slice(at + 1)), env: assignments(words.slice(0, at)) }
    const target = scriptTarget(words)
    if (target && target !== name && scripts?.[target]) {
      const found = scriptFlags(scripts, target, depth + 1)
      if (found.flags.length || Object.keys(found.env).length || found.config !== undefined) return found
    }
  }
  return { flags: [], env: {} }
}

/** The words after mocha's bin in a command (`node …/mocha/bin/mocha.js --config x {files}`); null when no word is mocha's. */
export function mochaCommandArgs(words: string[]): string[] | null {
  const at = words.findIndex((word) => MOCHA_WORD.test(word))
  return at >= 0 ? words.slice(at + 1) : null
}

/** Mocha's arguments, minus positionals (spec paths) and the dropped options; config sources apart. */
export function parseMochaArgs(words: string[]): Omit<ScriptFlags, 'env'> {
  const result: Omit<ScriptFlags, 'env'> = { flags: [] }
  for (let i = 0; i < words.length; i++) {
    const word = words[i]
    if (word === '--') break
    if (!word.startsWith('-') || word === '-') continue
    const [rawName, ...inline] = word.replace(/^--?/, '').split('=')
    const name = ALIASES[rawName] ?? rawName
    const negated = name.startsWith('no-') && ['config', 'package', 'opts'].includes(name.slice(3))
    const takesValue = VALUE_FLAGS.has(name) && inline.length === 0
    const value = inline.length ? inline.join('=') : takesValue ? words[++i] : undefined
    if (negated) result[name.slice(3) as 'config' | 'package' | 'opts'] = false
    else if (name === 'config' || name === 'package' || name === 'opts') result[name] = value
    else if (DROPPED.has(name) || (name.startsWith('no-') && DROPPED.has(name.slice(3)))) continue
    else result.flags.push(...(takesValue && value !== undefined ? [word, value] : [word]))
  }
  return result
}

/** A `mocha.opts` file: flags, one or more a line, `#` comments. */
export function parseOptsFile(text: string): Omit<ScriptFlags, 'env'> {
  const words = text
    .split('\n')
    .filter((line) => !line.trim().startsWith('#'))
    .flatMap((line) => splitWords(line))
  return parseMochaArgs(words)
}
