/** One validated settings object: the CLI (argv) and the action (inputs) each build it; nothing below reads either. */
import { createHash } from 'node:crypto'
import { tmpdir } from 'node:os'
import { basename, isAbsolute, join, posix, resolve } from 'node:path'
import { SettingsError, UserFacingError } from './errors.js'
import { splitCommandLine } from './frameworks/command.js'
import { ADAPTERS } from './frameworks/detect.js'
import { DELIVER_MODES, type DeliverMode } from './deliver/delivery.js'
import { githubLinksFrom, type GitHubLinks } from './deliver/links.js'

export type Mode = 'generate' | 'verify'
export type OnNoFailToPass = 'fail' | 'warn'
/** What a confirmed fix concern does to the exit status: nothing (warn, the default) or exit 1 (fail). */
export type OnFixConcern = 'warn' | 'fail'

export interface BugReportSource {
  issueFile?: string
  issueText?: string
  /** Title and body handed over by the action (the pull request). */
  pullRequest?: { title: string; body: string }
  /** The issues the pull request fixes, fetched by the action: they win over the pull request's own text. */
  linkedIssues?: LinkedIssue[]
}

export interface LinkedIssue {
  reference: string
  title: string
  body: string
  comments: string[]
}

export interface ModelSettings {
  apiKey: string
  model: string
  maxTokens: number
  baseURL: string | undefined
  /** SDK retries on 429, 5xx and overloaded. */
  maxRetries: number
  /** At most this many calls in a run (each stage, retry, read, repair and strengthen round is one). */
  maxCalls: number
  /** Rounds of repository reads (read_file, search, list_files) each stage may make before it answers; 0: none. */
  toolRounds: number
  /** Replies kept here by request hash and replayed on the next run; null: no cache. */
  responseCacheDir: string | null
}

export interface Settings {
  mode: Mode
  repoDir: string
  base: string
  head: string
  outDir: string
  /** Where the trees go; null: a new temporary folder. A fixed one is emptied first (the action uses one). */
  workDir: string | null
  bugReport: BugReportSource
  model: ModelSettings | null
  onNoFailToPass: OnNoFailToPass
  onFixConcern: OnFixConcern
  repairRounds: number
  /** How many times the suite runs at head (the second with coverage); a test whose result changes is flaky. */
  reruns: number
  testTimeoutMs: number
  /** The whole run's deadline, in minutes (fractions allowed): see run-deadline.ts. */
  runTimeoutMinutes: number
  /** The test runs' time budget, in minutes: past it, the optional runs are skipped (see execute/test-budget.ts). */
  testBudgetMinutes: number
  /** How this repository runs its tests, where detection is not enough. */
  tests: TestSettings
  /** Run model-written tests even where the sandbox cannot start (as the tool's own user). */
  allowUnisolatedTests: boolean
  /** Let the tests reach the network; otherwise, in the sandbox, they reach only loopback (installs and builds keep it). */
  network: boolean
  /** Values never to be written or posted anywhere (the API key, tokens): replaced in every output. */
  secrets: string[]
  /** Where the proven suite goes: the artifact only (default), a commit, a pull request, or a patch (src/deliver/). */
  deliver: DeliverMode
  /** The run, pull request and repository on GitHub (GITHUB_* environment), for the delivery's message; null: none. */
  links: GitHubLinks | null
  /** Where the repository's git config holds credentials a checkout left (see persisted-credentials.ts). */
  persistedCredentials?: string[]
}

export interface TestSettings {
  /** An adapter name; null: detect. */
  framework: string | null
  /** The repository's own test command, split into words, with an optional `{files}` placeholder. */
  command: string[] | null
  /** Run in each tree before its tests (for tests that import built output). */
  buildCommand: string[] | null
  /** Run in the pre-fix tree when the change touched manifests or lockfiles; null: by the lockfile. */
  installCommand: string[] | null
  /** The package the tests belong to, relative to the repository root ('' for the root). */
  workingDirectory: string
}

export const DEFAULT_MODEL = 'claude-sonnet-5-5'
export const DEFAULT_MAX_TOKENS = 16000
export const DEFAULT_MAX_MODEL_CALLS = 30
export const DEFAULT_TOOL_ROUNDS = 6
export const DEFAULT_REPAIR_ROUNDS = 2
export const DEFAULT_RERUNS = 3
/** More runs at head add minutes, not confidence: a flaky test shows within a few. */
export const MAX_RERUNS = 20
/** The pre-fix tree runs the suite this many times: a test must fail there every time to prove the fix. */
export const PRE_FIX_RUNS = 2
export const DEFAULT_TEST_TIMEOUT_MS = 5 * 60_000
/** Ends well inside a GitHub job (360 minutes unless the workflow says less), so the report is written. */
export const DEFAULT_RUN_TIMEOUT_MINUTES = 60
/** A week: longer than any runner lets a job last (and within what a timer can wait). */
export const MAX_RUN_TIMEOUT_MINUTES = 7 * 24 * 60
/** The test budget's default share of the run's deadline (10 minutes of 60): the optional runs never take a run near it. */
export const TEST_BUDGET_SHARE = 1 / 6

export interface RawSettings {
  mode?: string
  repo?: string
  base?: string
  head?: string
  out?: string
  workDir?: string
  issueFile?: string
  issueText?: string
  pullRequest?: { title: string; body: string }
  linkedIssues?: LinkedIssue[]
  apiKey?: string
  model?: string
  maxTokens?: string
  maxModelCalls?: string
  toolRounds?: string
  responseCacheDir?: string
  baseURL?: string
  onNoFailToPass?: string
  onFixConcern?: string
  testTimeoutMinutes?: string
  runTimeoutMinutes?: string
  testBudgetMinutes?: string
  reruns?: string
  framework?: string
  testCommand?: string
  buildCommand?: string
  installCommand?: string
  workingDirectory?: string
  allowUnisolatedTests?: boolean
  network?: boolean
  /** Secrets besides the API key (tokens) that must never reach an output. */
  secrets?: string[]
  deliver?: string
  /** The pull request the action runs on: the delivery's message links it. */
  pullRequestNumber?: number
  /** How the entry names the API key and verify mode, for the refusal of generate mode without a key. */
  apiKeyNames?: ApiKeyNames
}

/** The CLI names an environment variable and a command; the action, its input. */
export interface ApiKeyNames {
  /** What to set: `ANTHROPIC_API_KEY`. */
  key: string
  /** What to do instead, without a model: run `regression-testgen verify …`. */
  verifyMode: string
}

/** Validates raw strings (from argv or action inputs) into Settings; throws SettingsError naming the input. */
export function buildSettings(raw: RawSettings, cwd: string = process.cwd(), env: NodeJS.ProcessEnv = process.env): Settings {
  const mode = oneOf('mode', raw.mode ?? 'generate', ['generate', 'verify'] as const)
  const apiKey = raw.apiKey?.trim() ?? ''
  if (mode === 'generate' && !apiKey) throw missingApiKey(raw.apiKeyNames ?? { key: 'anthropic-api-key', verifyMode: 'run verify mode' })
  const repoDir = absolute(raw.repo ?? '.', cwd)
  return {
    mode,
    repoDir,
    base: required('base', raw.base),
    head: required('head', raw.head),
    outDir: raw.out?.trim() ? absolute(raw.out, cwd) : defaultOutDir(repoDir, env),
    workDir: raw.workDir ? absolute(raw.workDir, cwd) : null,
    bugReport: bugReportSource(mode, raw, cwd),
    model:
      mode === 'verify'
        ? null
        : {
            apiKey,
            model: raw.model?.trim() || DEFAULT_MODEL,
            maxTokens: positiveInt('max-tokens', raw.maxTokens, DEFAULT_MAX_TOKENS),
            baseURL: optionalUrl('anthropic-base-url', raw.baseURL),
            maxRetries: 4,
            maxCalls: positiveInt('max-model-calls', raw.maxModelCalls, DEFAULT_MAX_MODEL_CALLS),
            toolRounds: wholeNumber('tool-rounds', raw.toolRounds, DEFAULT_TOOL_ROUNDS),
            responseCacheDir: raw.responseCacheDir?.trim() ? absolute(raw.responseCacheDir.trim(), cwd) : null
          },
    onNoFailToPass: oneOf('on-no-fail-to-pass', raw.onNoFailToPass ?? 'fail', ['fail', 'warn'] as const),
    onFixConcern: oneOf('on-fix-concern', raw.onFixConcern ?? 'warn', ['warn', 'fail'] as const),
    repairRounds: DEFAULT_REPAIR_ROUNDS,
    reruns: withinRange('reruns', raw.reruns, { minimum: 2, maximum: MAX_RERUNS }, DEFAULT_RERUNS),
    testTimeoutMs: raw.testTimeoutMinutes
      ? positiveInt('timeout-minutes', raw.testTimeoutMinutes, 5) * 60_000
      : DEFAULT_TEST_TIMEOUT_MS,
    runTimeoutMinutes: runTimeoutMinutes(raw.runTimeoutMinutes),
    testBudgetMinutes: testBudgetMinutes(raw.testBudgetMinutes, runTimeoutMinutes(raw.runTimeoutMinutes)),
    tests: {
      framework: raw.framework?.trim() ? oneOf('framework', raw.framework, ADAPTERS.map((adapter) => adapter.name)) : null,
      command: optionalCommand('test-command', raw.testCommand),
      buildCommand: optionalCommand('build-command', raw.buildCommand),
      installCommand: optionalCommand('install-command', raw.installCommand),
      workingDirectory: relativeFolder('working-directory', raw.workingDirectory)
    },
    allowUnisolatedTests: raw.allowUnisolatedTests ?? false,
    network: raw.network ?? false,
    secrets: [apiKey, ...(raw.secrets ?? [])].filter((secret) => secret.length >= MIN_SECRET_LENGTH),
    deliver: oneOf('deliver', raw.deliver ?? 'artifact', DELIVER_MODES),
    links: githubLinksFrom(env, raw.pullRequestNumber ?? null)
  }
}

function missingApiKey(names: ApiKeyNames): UserFacingError {
  return new UserFacingError(`generate mode needs an Anthropic API key: set ${names.key}`, `or ${names.verifyMode} to prove the change's own tests without a model`)
}

/**
 * The bug report the user gave. Only generate mode reads one: verify mode runs the change's own tests
 * without a model, so a report given there would be silently unused and is refused instead.
 */
function bugReportSource(mode: Mode, raw: RawSettings, cwd: string): BugReportSource {
  const given = raw.issueFile !== undefined ? 'issue' : raw.issueText !== undefined ? 'issue-text' : null
  if (given && mode === 'verify') throw new SettingsError(given, 'verify mode reads no bug report (it runs the change\'s own tests, without a model): leave it out, or run generate mode')
  if (raw.issueFile !== undefined && raw.issueText !== undefined) throw new SettingsError('issue-text', 'the bug report comes from issue (a file) or issue-text, not both')
  if (raw.issueFile !== undefined && !raw.issueFile.trim()) throw new SettingsError('issue', 'the path of a markdown file is required')
  if (raw.issueText !== undefined && !raw.issueText.trim()) throw new SettingsError('issue-text', 'the text is empty, and an empty text is not a bug report')
  return { issueFile: raw.issueFile && absolute(raw.issueFile, cwd), issueText: raw.issueText, pullRequest: raw.pullRequest, linkedIssues: raw.linkedIssues }
}

/**
 * Outside the repository (whose own test runner would collect the suite), one folder per repository so
 * runs on different ones never meet: `$XDG_CACHE_HOME/regression-testgen/<name>-<hash of its path>`, else
 * under `~/.cache`, else under the OS's temporary folder.
 */
export function defaultOutDir(repoDir: string, env: NodeJS.ProcessEnv): string {
  const xdgCache = env.XDG_CACHE_HOME?.trim()
  // The XDG spec ignores a relative value.
  const cache = xdgCache && isAbsolute(xdgCache) ? xdgCache : env.HOME?.trim() ? join(env.HOME, '.cache') : tmpdir()
  const name = basename(repoDir).replace(/[^A-Za-z0-9._-]/g, '_').replace(/^\.+/, '') || 'repository'
  const pathHash = createHash('sha256').update(repoDir).digest('hex').slice(0, 8)
  return join(cache, 'regression-testgen', `${name}-${pathHash}`)
}

// Shorter values would be replaced all over the report by chance; no real key or token is this short.
export const MIN_SECRET_LENGTH = 8

function optionalCommand(input: string, value: string | undefined): string[] | null {
  return value?.trim() ? splitCommandLine(value, input) : null
}

/** A folder inside the repository, '/'-separated, without `./` or a trailing slash; '' for the root. */
function relativeFolder(input: string, value: string | undefined): string {
  const folder = posix.normalize((value ?? '').trim().replace(/\\/g, '/') || '.').replace(/\/$/, '')
  if (isAbsolute(folder) || folder === '..' || folder.startsWith('../')) throw new SettingsError(input, `"${value}" is not a folder inside the repository`)
  return folder === '.' ? '' : folder
}

/** A commit SHA or ref. It reaches git as an argument: one that starts with `-` would read as an option. */
function required(input: string, value: string | undefined): string {
  const ref = value?.trim()
  if (!ref) throw new SettingsError(input, 'a commit SHA or ref is required')
  if (ref.startsWith('-')) throw new SettingsError(input, `${JSON.stringify(ref)} starts with "-": a commit SHA or ref never does`)
  if (/[\s\x00-\x1f\x7f-\x9f]/.test(ref)) throw new SettingsError(input, `${JSON.stringify(ref)} holds whitespace or a control character: a commit SHA or ref holds neither`)
  return ref
}

function oneOf<T extends string>(input: string, value: string, allowed: readonly T[]): T {
  const trimmed = value.trim() as T
  if (!allowed.includes(trimmed)) throw new SettingsError(input, `"${value}" is not one of ${allowed.join(', ')}`)
  return trimmed
}

function positiveInt(input: string, value: string | undefined, fallback: number): number {
  if (value === undefined || value.trim() === '') return fallback
  const parsed = Number(value)
  if (!Number.isInteger(parsed) || parsed <= 0) throw new SettingsError(input, `"${value}" is not a positive whole number`)
  return parsed
}

/** Minutes above 0, fractions allowed (`0.5`: half a minute), up to a week. */
function runTimeoutMinutes(value: string | undefined): number {
  if (value === undefined || value.trim() === '') return DEFAULT_RUN_TIMEOUT_MINUTES
  const parsed = Number(value)
  if (!Number.isFinite(parsed) || parsed <= 0) throw new SettingsError('run-timeout-minutes', `"${value}" is not a number of minutes above 0`)
  if (parsed > MAX_RUN_TIMEOUT_MINUTES) throw new SettingsError('run-timeout-minutes', `"${value}" is above ${MAX_RUN_TIMEOUT_MINUTES} (a week): no runner lets a job last that long`)
  return parsed
}

/** Minutes, 0 or more (0: no optional run), fractions allowed; by default a share of the run's deadline. */
function testBudgetMinutes(value: string | undefined, runMinutes: number): number {
  // To a hundredth of a minute: what the log and report say stays readable (70 minutes: 11.67).
  if (value === undefined || value.trim() === '') return Math.round(runMinutes * TEST_BUDGET_SHARE * 100) / 100
  const parsed = Number(value)
  if (!Number.isFinite(parsed) || parsed < 0) throw new SettingsError('test-budget-minutes', `"${value}" is not a number of minutes, 0 or more`)
  return parsed
}

/** 0 or more: 0 turns the thing off. */
function wholeNumber(input: string, value: string | undefined, fallback: number): number {
  if (value === undefined || value.trim() === '') return fallback
  const parsed = Number(value)
  if (!Number.isInteger(parsed) || parsed < 0) throw new SettingsError(input, `"${value}" is not a whole number (0 or more)`)
  return parsed
}

/** A whole number from `minimum` (the gate needs a plain run and a coverage run at head) to `maximum`. */
function withinRange(input: string, value: string | undefined, { minimum, maximum }: { minimum: number; maximum: number }, fallback: number): number {
  const parsed = positiveInt(input, value, fallback)
  if (parsed < minimum) throw new SettingsError(input, `"${value}" is below ${minimum}: the suite runs at least ${minimum} times at head (once plain, once with coverage)`)
  if (parsed > maximum) throw new SettingsError(input, `"${value}" is above ${maximum}: more runs at head add minutes, not confidence (a flaky test shows within a few)`)
  return parsed
}

function optionalUrl(input: string, value: string | undefined): string | undefined {
  if (!value?.trim()) return undefined
  try {
    return new URL(value.trim()).toString().replace(/\/$/, '')
  } catch {
    throw new SettingsError(input, `"${value}" is not a URL`)
  }
}

function absolute(path: string, cwd: string): string {
  return isAbsolute(path) ? path : resolve(cwd, path)
}
