/**
 * Before any model call: can this repository's tests run here at all? One existing test file runs at head
 * — the nearest to the changed code, the style example's first candidate — and must give machine-readable
 * results with at least one test. If it cannot, the run stops there, naming the file, the command, the
 * error and the setting to change, instead of paying the model for tests that could never run.
 */
import type { ChangeSet, RunResult } from '../domain.js'
import { sourceFiles } from '../diff/change-set.js'
import { UserFacingError } from '../errors.js'
import type { FrameworkAdapter } from '../frameworks/adapter.js'
import { exampleTest, nearestTest } from '../context/test-layout.js'
import type { Mode } from '../settings.js'
import type { TestBench } from './test-bench.js'
import { firstErrorLines } from '../frameworks/output.js'

export interface Preflight {
  file: string
  command: string
  ok: boolean
  durationMs: number
  /** How many tests ran, or what went wrong. */
  detail: string
}

/**
 * The test to try, or null when the repository has none the framework recognises. Verify mode runs the
 * pull request's own tests, so one of them (its run at head then counts as the suite's first); generate
 * mode the nearest test, as the style example is first looked for.
 */
export function preflightFile(changeSet: ChangeSet, headFiles: string[], framework: FrameworkAdapter, mode: Mode): string | null {
  const changedTests = changeSet.files.filter((file) => file.role === 'test')
  const primary = sourceFiles(changeSet)[0]?.path ?? changeSet.files[0]?.path ?? ''
  const isTestFile = (path: string) => framework.isTestFile(path)
  const ownTests = changedTests.filter((file) => file.status !== 'deleted' && isTestFile(file.path)).map((file) => file.path)
  return (mode === 'verify' ? nearestTest(ownTests, primary) : null) ?? exampleTest(changedTests, headFiles, isTestFile, primary)
}

/** The preflight, and its run: a run at head of that one file, which the suite's first run need not repeat. */
export interface PreflightRun {
  preflight: Preflight
  run: RunResult
}

export async function runPreflight(bench: TestBench, file: string): Promise<PreflightRun> {
  const run = await bench.run('head', [file], { title: 'Preflight' })
  const command = bench.lastCommand
  if (run.tests.length > 0) {
    return { run, preflight: { file, command, ok: true, durationMs: run.durationMs, detail: `${run.tests.length} test(s) ran at head` } }
  }
  const how = run.timedOut ? 'timed out' : `exit ${run.exitCode ?? 'none'}`
  const error = run.fileErrors.find((entry) => entry.file === file)?.message ?? run.output
  return { run, preflight: { file, command, ok: false, durationMs: run.durationMs, detail: `no test results (${how}): ${firstErrorLines(error)}` } }
}

/** The run stops: what was tried, what it said, and what to change. */
export function preflightFailure(preflight: Preflight): UserFacingError {
  return new UserFacingError(
    `The repository's tests cannot run here: ${preflight.file} gave ${preflight.detail} — command: ${preflight.command}`,
    settingHint(preflight.detail)
  )
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
