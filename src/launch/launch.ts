/**
 * The launch model: how the repository runs its tests, as its own test command showed it (capture.ts).
 * This file holds the types and the pure reading of what the capture recorded; no processes, no files.
 */
import { basename, dirname, isAbsolute } from 'node:path'

export type RunnerName = 'jest' | 'vitest' | 'mocha' | 'ava' | 'node-test' | 'tap' | 'pytest'

/** A command that ran before the runner in the same test command (a build, a `pretest`). */
export interface BeforeRunner {
  command: string
  /** From its start to its exit (it ended before the runner started). */
  durationMs: number
}

/**
 * A captured runner launch. Its command line is `[executable, ...execArgv, main?, ...argv]`: for jest
 * `node <jest bin> --config config/jest.config.js`; for node:test `node --import tsx --test <patterns>`
 * (no main); for pytest `python3 -m pytest -q` (execArgv `['-m', 'pytest']`, no main) or the `pytest` script.
 */
export interface Launch {
  runner: RunnerName
  /** The interpreter that ran the runner (node's or python's own path). */
  executable: string
  /** The runner's entry (jest's bin, vitest.mjs…), real path; null for `node --test` and `python -m pytest`. */
  main: string | null
  /** The runner's own arguments (its `--config`, file patterns…). */
  argv: string[]
  /** The interpreter's options (`--import tsx`, `--experimental-vm-modules`, `-m pytest`), the capture's own left out. */
  execArgv: string[]
  cwd: string
  /** What the test command set that the runner sees and its start did not have (NODE_ENV, TZ, NODE_OPTIONS…). */
  env: Record<string, string>
  /** The commands that led to the runner, outermost first (`npm test`, `ts-scripts test`, `jest`); as far as /proc shows. */
  via: string[]
  beforeRunner: BeforeRunner[]
  /**
   * What jest printed for `--showConfig` when the capture asked it to go on that way (capture.ts
   * `showConfig`): its stdout and stderr, untrusted. Absent when not asked or not printed (a jest run
   * through `require('jest').run`).
   */
  shownConfig?: ShownText
}

/** A process's output, as the capture kept it. */
export interface ShownText {
  stdout: string
  stderr: string
}

/** One line of the capture file, as the preloads write it (untrusted: the repository's processes wrote it). */
export interface CaptureRecord {
  kind: 'runner' | 'process' | 'exit' | 'shown-config'
  pid: number
  at: number
  runner?: string
  argv0?: string
  main?: string | null
  argv?: string[]
  execArgv?: string[]
  cwd?: string
  env?: Record<string, string>
  ancestors?: { pid: number; argv: string[] }[]
  /** A `shown-config` record's: what the runner printed, written as it exited. */
  stdout?: string
  stderr?: string
}

/** What the capture itself adds to a process, to be left out of what the launch reports. */
export interface CaptureFootprint {
  /** The test command as given (the root of `via`). */
  command: string
  /** The environment the command started with (from `env -0` in the root shell); null when unknown. */
  startEnv: Record<string, string> | null
  /** Our `--require "<preload>"`, as put in NODE_OPTIONS. */
  nodeOptions: string
  preloadPath: string
  /** The folder of the `node` shim put first on PATH. */
  shimDir: string
  /** The PYTHONPATH entry of our sitecustomize. */
  pythonDir: string
}

const RUNNERS: readonly RunnerName[] = ['jest', 'vitest', 'mocha', 'ava', 'node-test', 'tap', 'pytest']

/** Package managers' own bookkeeping, which says nothing about how the tests run. */
// PATH: npm's, its `node_modules/.bin` folders first, which every run puts there itself (withPackageBins);
// make's and pyenv's own bookkeeping.
const NOISE_NAMES = new Set(['PATH', 'MAKELEVEL', 'MAKEFLAGS', 'MFLAGS', 'INIT_CWD', 'NODE', 'COLOR', 'EDITOR', '_', 'SHLVL', 'PWD', 'OLDPWD', 'PROJECT_CWD', 'BERRY_BIN_FOLDER', 'PNPM_SCRIPT_SRC_DIR'])
const NOISE_PREFIXES = ['npm_', 'RTG_CAPTURE_', 'PYENV_']

/** Splits the capture file into records, skipping lines that are not one (a process killed mid-write). */
export function parseCaptureRecords(text: string): CaptureRecord[] {
  const records: CaptureRecord[] = []
  for (const line of text.split('\n')) {
    if (!line.trim()) continue
    try {
      const value = JSON.parse(line) as CaptureRecord
      if (value && typeof value === 'object' && typeof value.kind === 'string' && typeof value.pid === 'number') records.push(value)
    } catch {
      // A torn line: the others still count.
    }
  }
  return records
}

/** The first runner the command started that the tool has no adapter for (tape, jasmine…), when it started no other first. */
export function unsupportedRunner(records: CaptureRecord[]): string | null {
  const first = records.find((record) => record.kind === 'runner')
  return first && !RUNNERS.includes(first.runner as RunnerName) ? String(first.runner) : null
}

/** The runner launches in the order they started (a script may start several: `jest && mocha`). */
export function launchesFrom(records: CaptureRecord[], footprint: CaptureFootprint): Launch[] {
  return records.filter((record) => record.kind === 'runner' && RUNNERS.includes(record.runner as RunnerName)).map((record) => launchOf(record, records, footprint))
}

function launchOf(record: CaptureRecord, records: CaptureRecord[], footprint: CaptureFootprint): Launch {
  const launch = {
    runner: record.runner as RunnerName,
    executable: String(record.argv0 ?? ''),
    main: typeof record.main === 'string' ? record.main : null,
    argv: strings(record.argv),
    execArgv: withoutPreload(strings(record.execArgv), footprint.preloadPath),
    cwd: String(record.cwd ?? ''),
    env: environmentSet(record.env ?? {}, footprint)
  }
  const shownConfig = shownBy(record, records)
  return { ...launch, via: viaOf(record, launch, footprint.command), beforeRunner: beforeRunner(record, records), ...(shownConfig && { shownConfig }) }
}

/** What the runner's own process printed when it went on as `--showConfig` (written by that process as it exited). */
function shownBy(runner: CaptureRecord, records: CaptureRecord[]): ShownText | null {
  const shown = records.find((record) => record.kind === 'shown-config' && record.pid === runner.pid)
  return shown ? { stdout: typeof shown.stdout === 'string' ? shown.stdout : '', stderr: typeof shown.stderr === 'string' ? shown.stderr : '' } : null
}

function strings(value: unknown): string[] {
  return Array.isArray(value) ? value.map(String) : []
}

/** The shim's `--require <preload>` is ours, not the repository's. */
function withoutPreload(execArgv: string[], preloadPath: string): string[] {
  const kept: string[] = []
  for (let i = 0; i < execArgv.length; i++) {
    if ((execArgv[i] === '--require' || execArgv[i] === '-r') && execArgv[i + 1] === preloadPath) i++
    else if (execArgv[i] !== `--require=${preloadPath}`) kept.push(execArgv[i])
  }
  return kept
}

/** What differs from the start, without package managers' bookkeeping and the capture's own additions. */
export function environmentSet(env: Record<string, string>, footprint: CaptureFootprint): Record<string, string> {
  const start = footprint.startEnv ?? {}
  const set: Record<string, string> = {}
  for (const [name, raw] of Object.entries(env)) {
    if (NOISE_NAMES.has(name) || NOISE_PREFIXES.some((prefix) => name.startsWith(prefix))) continue
    const value = withoutFootprint(name, String(raw), footprint)
    const before = start[name] === undefined ? undefined : withoutFootprint(name, start[name], footprint)
    if (value !== before && value !== '') set[name] = value
  }
  return set
}

function withoutFootprint(name: string, value: string, footprint: CaptureFootprint): string {
  if (name === 'NODE_OPTIONS') return value.split(footprint.nodeOptions).join(' ').replace(/\s+/g, ' ').trim()
  if (name === 'PYTHONPATH') return value.split(':').filter((entry) => entry !== footprint.pythonDir).join(':')
  return value
}

/** The test command, then each process between the root shell and the runner, then the runner itself. */
function viaOf(record: CaptureRecord, launch: Pick<Launch, 'runner' | 'main' | 'argv' | 'execArgv'>, command: string): string[] {
  const chain = [command]
  const ancestors = record.ancestors ?? []
  // The first ancestor is the root shell running the command: already `command`.
  for (const ancestor of ancestors.slice(1)) chain.push(commandText(strings(ancestor.argv)))
  chain.push(runnerText(launch))
  return chain.filter((text, i) => text !== '' && text !== chain[i - 1])
}

function runnerText(launch: Pick<Launch, 'runner' | 'main' | 'argv' | 'execArgv'>): string {
  const name = launch.runner === 'node-test' ? 'node' : launch.runner === 'pytest' && !launch.main ? 'python -m pytest' : launch.runner
  const options = launch.runner === 'node-test' ? launch.execArgv : []
  return [name, ...options, ...launch.argv].join(' ')
}

/**
 * A process's command line as a person would write it: a shell's `-c` script as is; `node <script> args`
 * as the script's package (`node …/node_modules/npm/bin/npm-cli.js test` → `npm test`); else the program's name.
 */
export function commandText(rawArgv: string[]): string {
  // A process may rewrite its command line (npm sets its title: `npm test` padded with NULs, read as empty arguments).
  const argv = rawArgv.map((arg) => arg.trim()).filter((arg) => arg !== '')
  if (argv.length === 0) return ''
  const program = basename(argv[0])
  if (/^(ba|da|z)?sh$/.test(program) && argv[1] === '-c') return argv[2] ?? ''
  if (/^(node|nodejs)$/.test(program)) {
    const script = scriptIndex(argv)
    if (script < 0) return ['node', ...argv.slice(1)].join(' ')
    return [scriptName(argv[script]), ...argv.slice(script + 1)].join(' ')
  }
  return [program, ...argv.slice(1)].join(' ')
}

/** Node options that take the next argument as their value (the capture's own `--require <preload>` among them). */
const NODE_OPTIONS_WITH_VALUE = new Set(['-r', '--require', '--import', '--loader', '--experimental-loader', '-C', '--conditions', '--env-file'])

function scriptIndex(argv: string[]): number {
  for (let i = 1; i < argv.length; i++) {
    if (NODE_OPTIONS_WITH_VALUE.has(argv[i])) i++
    else if (!argv[i].startsWith('-')) return i
  }
  return -1
}

/**
 * A Node script as the command a person would type: a package's bin by its file (`typescript/bin/tsc` →
 * `tsc`, `npm/bin/npm-cli.js` → `npm`, `node_modules/.bin/jest` → `jest`), a bin on PATH by its name
 * (`/usr/bin/npm` → `npm`), the repository's own script as `node <path>`.
 */
function scriptName(path: string): string {
  const inPackage = /node_modules\/((?:@[^/]+\/)?[^/]+)\/(.*)$/.exec(path)
  if (inPackage) {
    const file = basename(inPackage[2]).replace(/\.[cm]?js$/, '').replace(/-cli$/, '')
    return GENERIC_FILE_NAMES.has(file) ? inPackage[1] : file
  }
  return isAbsolute(path) && basename(dirname(path)) === 'bin' ? basename(path) : `node ${path}`
}

/** Entry files named for what they are, not for the command (ava's `entrypoints/cli.mjs`). */
const GENERIC_FILE_NAMES = new Set(['cli', 'index', 'main', 'run', 'bin'])

/**
 * The outermost processes that started before the runner and are not on its way (a `tsc`, `npm run build`),
 * with how long each took when it said so on exit.
 */
function beforeRunner(runner: CaptureRecord, records: CaptureRecord[]): BeforeRunner[] {
  const onTheWay = new Set((runner.ancestors ?? []).map((ancestor) => ancestor.pid))
  const exits = new Map(records.filter((record) => record.kind === 'exit').map((record) => [record.pid, record.at]))
  // A step before the runner ended before it: what still ran beside it (c8's and nyc's watchdog, a server
  // started in the background) was no build.
  const endedBefore = (record: CaptureRecord) => (exits.get(record.pid) ?? Infinity) <= runner.at
  const before = records.filter((record) => record.kind === 'process' && record.at <= runner.at && !onTheWay.has(record.pid) && endedBefore(record))
  const beforePids = new Set(before.map((record) => record.pid))
  return before
    .filter((record) => !(record.ancestors ?? []).some((ancestor) => beforePids.has(ancestor.pid)))
    .map((record) => {
      const exit = exits.get(record.pid)!
      return { command: processText(record), durationMs: exit - record.at }
    })
}

function processText(record: CaptureRecord): string {
  const main = typeof record.main === 'string' ? record.main : null
  const script = main && record.cwd && main.startsWith(`${record.cwd}/`) ? main.slice(record.cwd.length + 1) : main
  if (script) return [scriptName(script), ...strings(record.argv)].join(' ')
  return [basename(String(record.argv0 ?? '')), ...strings(record.execArgv), ...strings(record.argv)].join(' ')
}
