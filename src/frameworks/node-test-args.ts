/**
 * The repository's own node:test command, read from its `test` script: which runner (`node --test` or
 * `tsx --test`), the node flags the suite needs (`--import`, `--require`, loaders, `--experimental-*`,
 * `--test-concurrency`, `--env-file`, …) and the script's variables, without its file patterns or the
 * flags that would change what runs or how it reports.
 */
import { assignments, scriptCommands, scriptTarget } from './package-scripts.js'

export interface NodeTestScript {
  /** `node`, or `tsx` (which runs node with its TypeScript loader). */
  runner: 'node' | 'tsx'
  /** Node flags to pass on, in order, values included. */
  flags: string[]
  /** `NAME=value` words before the runner (e.g. `TZ=UTC node --test`). */
  env: Record<string, string>
}

// Node's options that take a value, as a separate word or after `=`; anything else is a switch.
const VALUE_FLAGS = new Set([
  'require', 'r', 'import', 'loader', 'experimental-loader', 'conditions', 'C', 'env-file', 'env-file-if-exists',
  'input-type', 'experimental-default-type', 'disable-warning', 'redirect-warnings', 'title', 'stack-size',
  'max-old-space-size', 'max-semi-space-size', 'diagnostic-dir', 'report-dir', 'openssl-config', 'inspect-port',
  'test-concurrency', 'test-timeout', 'test-isolation', 'experimental-test-isolation', 'test-global-setup',
  'test-reporter', 'test-reporter-destination', 'test-name-pattern', 'test-skip-pattern', 'test-shard',
  'test-coverage-include', 'test-coverage-exclude', 'test-coverage-lines', 'test-coverage-branches',
  'test-coverage-functions', 'watch-path', 'cpu-prof-dir', 'cpu-prof-name', 'heap-prof-dir', 'heap-prof-name',
  'eval', 'e', 'print', 'p'
])
/**
 * What the run decides itself: the test mode and its reporters, the whole file (no name filters, no
 * `--test-only`, no shards), coverage (added when measured; thresholds could fail the run), one run (no
 * watch), and nothing that would wait for a debugger or run other code.
 */
const DROPPED = new Set([
  'test', 'test-reporter', 'test-reporter-destination', 'test-name-pattern', 'test-skip-pattern', 'test-only',
  'test-shard', 'test-update-snapshots', 'experimental-test-coverage', 'test-coverage-include', 'test-coverage-exclude',
  'test-coverage-lines', 'test-coverage-branches', 'test-coverage-functions', 'watch', 'watch-path',
  'watch-preserve-output', 'inspect', 'inspect-brk', 'inspect-wait', 'inspect-port', 'debug', 'debug-brk', 'prof',
  'cpu-prof', 'cpu-prof-dir', 'cpu-prof-name', 'heap-prof', 'heap-prof-dir', 'heap-prof-name', 'eval', 'e', 'print',
  'p', 'check', 'c', 'interactive', 'i', 'version', 'v', 'help', 'h', 'run'
])
const RUNNER_WORD = /(?:^|[\\/])(node|nodejs|tsx)(?:\.exe)?$/

/** The first `node … --test` (or `tsx … --test`) command the `test` script runs, following `npm run x`. */
export function nodeTestScript(scripts: Record<string, string> | undefined, name = 'test', depth = 0): NodeTestScript | null {
  const script = scripts?.[name]
  if (!script || depth > 3) return null
  for (const words of scriptCommands(script)) {
    const at = words.findIndex((word) => RUNNER_WORD.test(word))
    if (at >= 0 && nodeArgs(words.slice(at + 1)).includes('--test')) {
      const runner = RUNNER_WORD.exec(words[at])![1] === 'tsx' ? 'tsx' : 'node'
      return { runner, flags: keptFlags(words.slice(at + 1)), env: assignments(words.slice(0, at)) }
    }
    const target = scriptTarget(words)
    const found = target && target !== name ? nodeTestScript(scripts, target, depth + 1) : null
    if (found) return found
  }
  return null
}

/** The runner's own options: the words before the first file (node hands the rest to the program). */
function nodeArgs(words: string[]): string[] {
  const options: string[] = []
  for (let i = 0; i < words.length; i++) {
    const word = words[i]
    // Node reads its options up to the first file (or `--`): later words belong to the program.
    if (word === '--' || !word.startsWith('-') || word === '-') break
    options.push(word)
    if (takesSeparateValue(word)) options.push(words[++i] ?? '')
  }
  return options
}

/** The options to pass on: all but the dropped ones, values kept with their flags. */
export function keptFlags(words: string[]): string[] {
  const options = nodeArgs(words)
  const kept: string[] = []
  for (let i = 0; i < options.length; i++) {
    const word = options[i]
    const value = takesSeparateValue(word) ? [options[++i]] : []
    if (!DROPPED.has(optionName(word))) kept.push(word, ...value)
  }
  return kept
}

/**
 * A node process's own options as it got them (`execArgv`: options and their values, no file), without the
 * dropped ones; `keep` names dropped options to keep (a captured `--test`). Words the tables do not know stay.
 */
export function keptNodeOptions(execArgv: string[], keep: string[] = []): string[] {
  const kept: string[] = []
  for (let i = 0; i < execArgv.length; i++) {
    const word = execArgv[i]
    const value = takesSeparateValue(word) && i + 1 < execArgv.length ? [execArgv[++i]] : []
    const name = optionName(word)
    if (!word.startsWith('-') || !DROPPED.has(name) || keep.includes(name)) kept.push(word, ...value)
  }
  return kept
}

function optionName(word: string): string {
  return word.replace(/^--?/, '').split('=')[0]
}

function takesSeparateValue(word: string): boolean {
  return !word.includes('=') && VALUE_FLAGS.has(optionName(word))
}
