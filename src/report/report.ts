/** The report: one JSON document (schema in report.schema.json) from which report.md is rendered. */
import type { Collection } from '../context/collection.js'
import type { Analysis, BugReport, ChangeSet, ClassifiedTest, ImportLine, Scenario, SuiteFile, Verdict } from '../domain.js'
import type { ConfirmedConcern } from '../execute/concerns.js'
import type { DependencySource } from '../execute/dependencies.js'
import type { HunkGuard } from '../execute/hunk-guards.js'
import type { Preflight } from '../execute/preflight.js'
import type { TestBudgetReport } from '../execute/test-budget.js'
import { UsageLedger, type ModelCall, type ModelRead, type TokenUsage } from '../model/model-port.js'
import { costOfCalls, PRICES_AS_OF } from '../model/pricing.js'
import { cacheReadShare, usageByStage, type StageUsage } from '../model/cost.js'
import type { RefusedFile } from '../suite/placement.js'
import type { IsolationMode } from '../ports/sandbox.js'
import type { Mode } from '../settings.js'
import type { BeforeRunner, RunnerName } from '../launch/launch.js'
import type { DiffCoverage } from '../verdict/diff-coverage.js'
import type { DeliveryRecord } from '../deliver/delivery.js'

export interface RunnerReport {
  /** False: the command started no runner the tool knows (reason says what it did); the runner was detected instead. */
  captured: boolean
  /** What ran, and where it came from (`the test script: jest --config config/jest.config.js`). */
  command: string
  source: string
  runner: RunnerName | null
  /** The commands that led to the runner, outermost first: `npm test`, `ts-scripts test`, `jest --ci`. */
  via: string[]
  /** The runner's own arguments and its interpreter's options, as the command gave them. */
  argv: string[]
  execArgv: string[]
  /** The runner's working folder, repository-relative ('' for the root). */
  cwd: string
  /** What the command set in the runner's environment (NODE_ENV, TZ, NODE_OPTIONS…). */
  env: Record<string, string>
  /** What the command ran before the runner (its build), with how long each took (null: unknown). */
  beforeRunner: BeforeRunner[]
  /** The capture at head, command start to runner stop. */
  durationMs: number
  reason: string | null
  /** Why the pre-fix tree's test command started no runner (its build failed there), when it did not; its tests then ran as at head. */
  preFixStopped?: string | null
  /** Where the runner runs compiled tests: the git-ignored folder it collects, and how sources map there; null: it runs sources. */
  compiledTests?: { outputDir: string; how: string } | null
}

export interface Report {
  schemaVersion: 1
  mode: Mode
  verdict: Verdict['verdict']
  reason: string | null
  repository: { dir: string; base: string; head: string; mergeBase: string | null }
  framework: string | null
  /** The wrapper CLI the runner goes through (`tsdx test`), with the wrapper's own configuration; null: none. */
  runnerWrapper: string | null
  bugReport: Pick<BugReport, 'title' | 'source' | 'truncated'> | null
  changedFiles: Array<{ path: string; role: string; status: string }>
  /** Changed files .gitattributes marks `linguist-generated` or `-diff`: not reverted, covered, shown to the model nor guarded. */
  generatedFiles: string[]
  analysis: Analysis | null
  scenarios: Scenario[]
  suite: { files: SuiteFileEntry[]; refused: RefusedFile[]; dropped: RefusedFile[] }
  tests: ClassifiedTest[]
  /** Of the changed executable lines at head, those the suite ran; null when coverage was not collected. */
  diffCoverage: DiffCoverage | null
  /** Which fail-to-pass tests fail with each source hunk alone taken out; null: fewer than two hunks, or nothing proven. */
  hunks: HunkGuard[] | null
  /**
   * Inputs the fixed code still gets wrong, each confirmed by a test that fails at head (generate mode);
   * apart from the suite: they never change the verdict. Their tests are under `concerns/`.
   */
  fixConcerns: ConfirmedConcern[]
  /** Why diffCoverage is null although tests ran, and what would measure it. */
  diffCoverageNote: string | null
  preFixTree: { reverted: string[]; dependencies: DependencySource } | null
  /**
   * How the repository's own test command (`npm test`, the test-command setting) starts its runner, asked by
   * running it once per tree with the capture's preloads (the runner stops before any test); null: no
   * command to ask (then the runner is detected from the repository's files).
   */
  runner: RunnerReport | null
  /** The build run in each tree before its tests: the build-command setting, else detected (why says from what); null: none. */
  build: { command: string; why: string; detected: boolean } | null
  /** One existing test run at head before anything else: can this repository's tests run here? Null: none to try. */
  preflight: Preflight | null
  /** Generate mode: what the model was shown before it read anything; null: no model stage ran. */
  context: ContextSummary | null
  /** How the repository's commands ran: in the sandbox, or (with why in isolationDetail) as the tool's user. */
  isolation: IsolationMode
  isolationDetail: string
  /** Where the repository's git config holds credentials a checkout left (`persist-credentials: true`): masked, but readable by its code. */
  persistedCredentials: string[]
  /** What the tests could reach: loopback only (their own network namespace), or the machine's network, and why. */
  network: { tests: 'loopback-only' | 'open'; why: string }
  rounds: { repair: number; strengthen: number }
  /** How many times the delivered suite ran in each tree (the determinism gate). */
  runs: { head: number; preFix: number }
  /** The test runs' time budget (test-budget-minutes), what they took, and the optional runs skipped past it. */
  testBudget: TestBudgetReport
  /** Where the proven suite went (the deliver setting): a commit, a pull request, a patch, or nowhere but the artifact, and why. */
  delivery: DeliveryRecord
  model: ModelUsage
  timings: Record<string, number>
  durationMs: number
}

export interface ContextSummary {
  /** The repository files the context shows (in whole or in part): changed sources, the modules around them, the style example. */
  files: string[]
  /** Its size in tokens, estimated (characters / 4): bug report, code and conventions, as every stage is shown them. */
  tokens: number
  /** Each changed module's ways in, best first, and whether each loads in each tree (execute/import-check.ts). */
  imports: ImportLine[]
}

export type SuiteFileEntry = Pick<SuiteFile, 'path' | 'tests'> & {
  /** Whether the repository's own test command runs the file (see context/collection.ts); null: its rules could not be read. */
  collectedByRepoTests: boolean | null
  /** Lines where the model wrote `TODO: confirm` (something it could not see), as `line N: text`. */
  unconfirmed: string[]
  /** The compiled file the runner ran for it, where it runs build output (`dist/test/x.test.js`). */
  compiledPath?: string
}

/**
 * A delivered file as report.json lists it (no collection: the run ended before the rules were read). Only
 * a file the model wrote is searched for `TODO: confirm`: the pull request's own tests say what they like.
 */
export function suiteFileEntry(file: SuiteFile, collection: Collection | null, modelWritten: boolean): SuiteFileEntry {
  const unconfirmed = modelWritten ? unconfirmedLines(file.content) : []
  const compiledPath = collection?.compiledPath?.(file.path)
  return { path: file.path, tests: file.tests, collectedByRepoTests: collection ? collection.collects(file.path) : null, unconfirmed, ...(compiledPath && { compiledPath }) }
}

const TODO_CONFIRM = /\bTODO\b\W{0,3}confirm/i

/** The lines still saying `TODO: confirm`: the model could not see something, and said so. */
export function unconfirmedLines(content: string): string[] {
  return content.split('\n').flatMap((line, index) => (TODO_CONFIRM.test(line) ? [`line ${index + 1}: ${line.trim().slice(0, 200)}`] : []))
}

export interface ModelUsage extends TokenUsage {
  name: string | null
  /** Requests sent to the API. */
  calls: number
  /** Answers replayed from the response cache. */
  cachedCalls: number
  /** At list prices; null without a model or with one whose price is unknown. */
  costUsd: number | null
  /** The day the price table was checked (YYYY-MM-DD). */
  pricesAsOf: string
  /** Cache reads as a share of all input tokens (0 to 1); null when no input was sent. */
  cacheReadShare: number | null
  /** Each stage's requests, tokens and cost. */
  stages: Record<string, StageUsage>
  perCall: ModelCall[]
  /** The repository reads the model asked for, in order. */
  reads: ModelRead[]
}

/** The report so far: every stage adds to it, so a failure at any point still reports what was learnt. */
export function emptyReport(mode: Mode, repoDir: string, base: string, head: string): Report {
  return {
    schemaVersion: 1,
    mode,
    verdict: 'error',
    reason: 'the pipeline did not finish',
    repository: { dir: repoDir, base, head, mergeBase: null },
    framework: null,
    runnerWrapper: null,
    bugReport: null,
    changedFiles: [],
    generatedFiles: [],
    analysis: null,
    scenarios: [],
    suite: { files: [], refused: [], dropped: [] },
    tests: [],
    diffCoverage: null,
    diffCoverageNote: null,
    hunks: null,
    fixConcerns: [],
    preFixTree: null,
    runner: null,
    build: null,
    preflight: null,
    context: null,
    isolation: 'none',
    isolationDetail: 'nothing ran yet',
    persistedCredentials: [],
    network: { tests: 'open', why: 'nothing ran yet' },
    rounds: { repair: 0, strengthen: 0 },
    runs: { head: 0, preFix: 0 },
    testBudget: { minutes: 0, spentMs: 0, skipped: [] },
    delivery: { mode: 'none', files: [], url: null, reason: 'the run did not get to the delivery' },
    model: modelUsage(null, new UsageLedger()),
    timings: {},
    durationMs: 0
  }
}

export function describeChangeSet(changeSet: ChangeSet): Report['changedFiles'] {
  return changeSet.files.map((file) => ({ path: file.path, role: file.role, status: file.status }))
}

export const failToPassCount = (report: Report) => report.tests.filter((test) => test.kind === 'fail-to-pass').length

export function modelUsage(name: string | null, ledger: UsageLedger): ModelUsage {
  const usage = ledger.usage
  return {
    name,
    calls: ledger.sentCalls,
    cachedCalls: ledger.cachedCalls,
    ...usage,
    costUsd: name ? costOfCalls(name, ledger.calls) : null,
    pricesAsOf: PRICES_AS_OF,
    cacheReadShare: cacheReadShare(usage),
    stages: usageByStage(name, ledger.calls),
    perCall: ledger.calls,
    reads: ledger.reads
  }
}
