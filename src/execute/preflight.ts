/**
 * Before any model call: can this repository's tests run here at all? Existing test files run at head, one at
 * a time — the nearest to the changed code first — until one gives machine-readable results with a test
 * that ran. A file that yields no test (a helper the glob collects, an empty or all-skipped file) only sends
 * the search to the next one; the run stops, naming every file tried, the command, the error and the setting
 * to change, when the runner itself fails (its configuration, its setup files, a missing module or build
 * output: the same for any file) or when none of the few files tried yields a test — instead of paying the
 * model for tests that could never run. The first file runs in one runner start with the files `beside` it
 * (generate mode: the import check's; verify mode: the pull request's other tests), its own results read apart.
 */
import type { ChangeSet, RunResult, SuiteFile } from '../domain.js'
import { sourceFiles } from '../diff/change-set.js'
import { UserFacingError } from '../errors.js'
import type { FrameworkAdapter } from '../frameworks/adapter.js'
import { rankedTests } from '../context/test-layout.js'
import type { Mode } from '../settings.js'
import type { TestBench } from './test-bench.js'
import { firstErrorLines } from '../frameworks/output.js'
import { outsideFailure } from './outside-failure.js'

/** How many test files the preflight tries before it concludes that no test runs here. */
export const PREFLIGHT_TRIES = 3

export interface PreflightTry {
  file: string
  /** How many tests ran, or what went wrong. */
  detail: string
}

export interface Preflight {
  /** The file that ran (or, when none did, the last one tried). */
  file: string
  command: string
  ok: boolean
  /** All the files tried, together. */
  durationMs: number
  /** How many tests ran, or what went wrong. */
  detail: string
  /** Every file tried, in order; the last is `file`. */
  tried: PreflightTry[]
}

/**
 * The test files to try, best first: in verify mode the pull request's own tests (their run at head then
 * counts as the suite's first), nearest to the changed code first; then, as the style example is looked
 * for, the tests the fix changed that existed before it, then the untouched tests from the nearest (then,
 * in generate mode, the tests the fix adds). Only files there at head that the framework runs; at most
 * PREFLIGHT_TRIES.
 */
export function preflightCandidates(changeSet: ChangeSet, headFiles: string[], framework: FrameworkAdapter, mode: Mode): string[] {
  const isTestFile = (path: string) => framework.isTestFile(path)
  const changedTests = changeSet.files.filter((file) => file.role === 'test' && isTestFile(file.path))
  const primary = sourceFiles(changeSet)[0]?.path ?? changeSet.files[0]?.path ?? ''
  const ownTests = changedTests.filter((file) => file.status !== 'deleted').map((file) => file.path)
  // A test the fix deleted is not there at head to run; an added one is not yet the repository's own.
  const existedBefore = changedTests.filter((file) => file.basePath && file.status !== 'added' && file.status !== 'deleted').map((file) => file.path)
  const changedPaths = new Set(changedTests.map((file) => file.path))
  const untouched = headFiles.filter((file) => isTestFile(file) && !changedPaths.has(file))
  // Generate mode runs the pull request's own tests last: they are not the repository's until it merges.
  const groups = mode === 'verify' ? [ownTests, existedBefore, untouched] : [existedBefore, untouched, ownTests]
  const ordered = groups.flatMap((files) => rankedTests(files, primary))
  return [...new Set(ordered)].slice(0, PREFLIGHT_TRIES)
}

/** The preflight, and its run: a run at head of its file, which the suite's first run need not repeat. */
export interface PreflightRun {
  preflight: Preflight
  run: RunResult
  /** The files that ran beside the preflight's file, in its runner start: their results are in `run` too. */
  beside?: Beside
}

/** Files that run beside the preflight's first file, in its runner start (one start instead of several). */
export interface Beside {
  /** Written into the head tree for that run alone (the import check's files). */
  written: SuiteFile[]
  /** Already there (verify mode: the pull request's other tests, so that the run is the suite's first at head). */
  present: string[]
}

/**
 * One file, run at head: it passes when a test of it ran (passed or not; not all skipped). The files
 * `beside` it run in the same runner start; only the file's own results count.
 */
export async function runPreflight(bench: TestBench, file: string, beside: Beside | null = null): Promise<PreflightRun> {
  const run = await runBeside(bench, file, beside)
  const command = bench.commandOf(run)
  const result = (ok: boolean, detail: string): PreflightRun => ({ run, preflight: { file, command, ok, durationMs: run.durationMs, detail, tried: [{ file, detail }] } })
  const tests = beside ? run.tests.filter((test) => test.file === file) : run.tests
  const ran = tests.filter((test) => test.status !== 'skipped').length
  if (ran > 0) return result(true, `${tests.length} test(s) ran at head`)
  if (tests.length > 0) return result(false, `no test ran at head: all ${tests.length} skipped`)
  const how = run.timedOut ? 'timed out' : `exit ${run.exitCode ?? 'none'}`
  return result(false, `no test results (${how}): ${firstErrorLines(errorOf(run, file))}`)
}

async function runBeside(bench: TestBench, file: string, beside: Beside | null): Promise<RunResult> {
  if (!beside) return bench.run('head', [file], { title: 'Preflight' })
  if (beside.written.length === 0) return bench.run('head', [file, ...beside.present], { title: 'Preflight' })
  return (await bench.runAlone('head', beside.written, 'Preflight and import check', 1, [file, ...beside.present]))[0]
}

export interface PreflightSearch {
  /** Another way to run a file that gave nothing (the runner without its wrapper CLI); null: none. */
  retry(file: string): Promise<PreflightRun | null>
  log: { info(message: string): void }
  /** Files to run beside the first candidate, in the same runner start; null: the candidates alone. */
  beside?: Beside | null
}

/**
 * The candidates (at least one), one at a time, until one runs a test. A file that yields nothing sends the
 * search on; a failure of the runner itself ends it at once, since every other file would fail the same way.
 */
export async function searchPreflight(bench: TestBench, candidates: string[], search: PreflightSearch): Promise<PreflightRun> {
  const beside = search.beside ?? null
  const shared = beside ? await runPreflight(bench, candidates[0], beside) : null
  if (shared?.preflight.ok) return { ...shared, beside: beside! }
  // Beside other files, a file that ran no test is tried again alone: whatever failed, it is judged (and reported) as ever.
  if (shared) search.log.info(`Preflight: ${candidates[0]} ran no test beside ${beside!.written.length + beside!.present.length} other file(s) (${shared.preflight.detail}); it runs alone`)
  const tried: PreflightRun[] = []
  let durationMs = 0
  for (const file of candidates) {
    const first = await runPreflight(bench, file)
    const retried = first.preflight.ok ? null : await search.retry(file)
    durationMs += first.run.durationMs + (retried?.run.durationMs ?? 0)
    const kept = retried?.preflight.ok ? retried : first
    tried.push(kept)
    if (kept.preflight.ok) break
    const more = file !== candidates[candidates.length - 1]
    // The wrapper's failure may be its own: the runner is blamed only when every way of running the file blames it.
    if ([first, retried].every((attempt) => !attempt || blame(attempt.run, file) === 'runner')) {
      if (more) search.log.info(`Preflight: the runner itself failed on ${file} (${kept.preflight.detail}): no other test file is tried`)
      break
    }
    if (more) search.log.info(`Preflight: ${file} yields no test (${kept.preflight.detail}); trying the next test file`)
  }
  return together(tried, durationMs)
}

/** The last run tried stands for the preflight; its report lists every file tried, and the time they all took. */
function together(tried: PreflightRun[], durationMs: number): PreflightRun {
  const last = tried[tried.length - 1]
  return { run: last.run, preflight: { ...last.preflight, durationMs, tried: tried.map(({ preflight }) => ({ file: preflight.file, detail: preflight.detail })) } }
}

// What a runner reports about a file it did run: it held no test it could run (the adapters' own words).
const NO_TEST_IN_THE_FILE = /(?:ran|collected) no tests? from this file|did not run this file/

/**
 * Whose failure a run without a test is. The file's: its tests were all skipped, the runner's report says it
 * held none, or the error names the file (its syntax, its own imports). The runner's: it timed out, its
 * configuration or setup files do not load, build output is missing, or the error does not name the file
 * (no report at all: a missing module of the runner, a command not found) — the same for any file.
 */
export function blame(run: RunResult, file: string): 'file' | 'runner' {
  if (run.tests.length > 0) return 'file'
  if (run.timedOut) return 'runner'
  const error = errorOf(run, file)
  if (NO_TEST_IN_THE_FILE.test(error)) return 'file'
  if (outsideFailure(run)) return 'runner'
  return error.includes(file) ? 'file' : 'runner'
}

function errorOf(run: RunResult, file: string): string {
  return run.fileErrors.find((entry) => entry.file === file)?.message ?? run.output
}

/** The run stops: what was tried, what it said, and what to change. */
export function preflightFailure(preflight: Preflight): UserFacingError {
  const tried = preflight.tried.length > 0 ? preflight.tried : [{ file: preflight.file, detail: preflight.detail }]
  const hint = settingHint(tried.map((attempt) => attempt.detail).join('\n'))
  if (tried.length === 1) {
    return new UserFacingError(`The repository's tests cannot run here: ${preflight.file} gave ${preflight.detail} — command: ${preflight.command}`, hint)
  }
  const each = tried.map((attempt) => `${attempt.file} gave ${attempt.detail}`).join('; ')
  return new UserFacingError(`The repository's tests cannot run here: none of the ${tried.length} test files tried ran a test: ${each} — command: ${preflight.command}`, hint)
}

function settingHint(detail: string): string {
  if (/Cannot find module|ERR_MODULE_NOT_FOUND|ModuleNotFoundError|No module named/.test(detail)) {
    return 'install the dependencies before regression-testgen; if the tests import build output, set build-command'
  }
  if (/No tests? (?:found|files found)|no tests ran|collected 0 items/i.test(detail)) {
    return "set test-command to the repository's own way of running one test file ({files} marks where it goes)"
  }
  return "set test-command to the repository's own way of running one test file ({files} marks where it goes), or framework"
}
