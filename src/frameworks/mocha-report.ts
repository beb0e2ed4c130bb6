/** Mocha's JSON reporter output (`--reporter json`) → per-test results and file errors. */
import { parseSandboxJson, readSandboxFile, SandboxFileRefused } from '../ports/sandbox-files.js'
import type { RunResult, TestResult, TestStatus } from '../domain.js'
import { stripAnsi, trimMessage } from './output.js'
import { repoRelative } from './paths.js'

interface MochaError {
  message?: string
  stack?: string
}

export interface MochaTest {
  title: string
  fullTitle: string
  file?: string
  duration?: number
  err?: MochaError
}

export interface MochaReport {
  tests: MochaTest[]
  failures: MochaTest[]
  pending: MochaTest[]
  passes?: MochaTest[]
}

// Frames of mocha and node: noise in a failure message (the test's own frames stay).
const INTERNAL_FRAME = /^\s*at .*(?:[\\/]node_modules[\\/]|node:internal|\(<anonymous>\))/
// Where the JSON reporter's object starts when it prints to stdout (its `stats` come first).
const REPORT_START = /(?:^|\n)\{\s*\n\s*"stats"\s*:/g

export async function readReportFile(scratchRoot: string, path: string): Promise<MochaReport | null> {
  try {
    const text = await readSandboxFile(scratchRoot, path, 'results')
    return text === null ? null : asReport(parseSandboxJson(path, text))
  } catch (error) {
    if (error instanceof SandboxFileRefused) throw error
    return null
  }
}

/**
 * The JSON report in a run's output, for a mocha whose JSON reporter can only print to stdout: the last
 * object that starts like one, up to its matching brace (test output before it, warnings after it).
 */
export function extractReport(output: string): { report: MochaReport; rest: string } | null {
  const starts = [...output.matchAll(REPORT_START)].map((match) => output.indexOf('{', match.index))
  for (const start of starts.reverse()) {
    const end = matchingBrace(output, start)
    if (end < 0) continue
    try {
      const report = asReport(JSON.parse(output.slice(start, end + 1)))
      if (report) return { report, rest: output.slice(0, start) + output.slice(end + 1) }
    } catch {
      // Not the report after all; try an earlier start.
    }
  }
  return null
}

/** Whether the report says which file each test is in (mocha ≥ 6 does). */
export function namesFiles(report: MochaReport): boolean {
  return report.tests.every((test) => typeof test.file === 'string')
}

function asReport(value: unknown): MochaReport | null {
  const report = value as Partial<MochaReport> | null
  if (!report || !Array.isArray(report.tests) || !Array.isArray(report.failures)) return null
  return { tests: report.tests, failures: report.failures, pending: Array.isArray(report.pending) ? report.pending : [] }
}

/** The index of the brace closing the object opened at `start`, skipping strings; -1 if it never closes. */
function matchingBrace(text: string, start: number): number {
  let depth = 0
  let inString = false
  for (let i = start; i < text.length; i++) {
    const char = text[i]
    if (inString) {
      if (char === '\\') i++
      else if (char === '"') inString = false
    } else if (char === '"') inString = true
    else if (char === '{') depth++
    else if (char === '}' && --depth === 0) return i
  }
  return -1
}

/**
 * Per-test results of the requested files. A failure that is no test (a hook, or an error outside any
 * test) puts its file, or every file when it has none, in fileErrors: the tests it kept from running are
 * absent from the report, and a file error counts them as not passing.
 */
export function readResults(report: MochaReport, files: string[], roots: string[]): Pick<RunResult, 'tests' | 'fileErrors'> {
  // mocha < 6 names no files: a run of one file is all that file's.
  const fileOf = (test: MochaTest) => (test.file ? repoRelative(test.file, roots) : files.length === 1 ? files[0] : null)
  const keyOf = (test: MochaTest) => `${test.file ?? ''}\0${test.fullTitle}`
  const failed = countBy(report.failures.map(keyOf))
  const pending = countBy(report.pending.map(keyOf))
  const requested = new Set(files)
  const tests: TestResult[] = []
  for (const test of report.tests) {
    const file = fileOf(test)
    if (!file || !requested.has(file)) continue
    // A failed test carries its error (a passed or pending one an empty object). Failures left over after
    // the tests took theirs are hooks.
    const failedTest = Object.keys(test.err ?? {}).length > 0 && take(failed, keyOf(test))
    tests.push(toTestResult(file, test, failedTest ? 'failed' : take(pending, keyOf(test)) ? 'skipped' : 'passed'))
  }
  const fileErrors: RunResult['fileErrors'] = []
  const seen = new Set(tests.map((test) => test.file))
  // What remains in `failed` is not a test: a failed hook, or an uncaught error between tests.
  for (const failure of report.failures.filter((test) => take(failed, keyOf(test)))) {
    const file = fileOf(failure)
    const message = `${failure.fullTitle}: ${errorMessage(failure.err)}`
    for (const target of file ? [file] : files) {
      if (requested.has(target) && !fileErrors.some((error) => error.file === target)) fileErrors.push({ file: target, message })
      seen.add(target)
    }
  }
  for (const file of files) {
    if (!seen.has(file)) fileErrors.push({ file, message: 'mocha ran no test from this file (does it define any, with the interface the mocha config sets?)' })
  }
  return { tests, fileErrors }
}

function toTestResult(file: string, test: MochaTest, outcome: TestStatus): TestResult {
  // A failed test without a duration never ran: a hook failed first (--fail-hook-affected-tests).
  const status = outcome === 'failed' && typeof test.duration !== 'number' ? 'errored' : outcome
  // fullTitle is the suite titles and the test title joined by spaces: the suites' part, then the test.
  const suites = test.fullTitle.endsWith(test.title) ? test.fullTitle.slice(0, test.fullTitle.length - test.title.length).trim() : ''
  const name = suites ? `${suites} › ${test.title}` : test.fullTitle
  return {
    file,
    name,
    status,
    durationMs: typeof test.duration === 'number' ? Math.round(test.duration) : null,
    message: outcome === 'failed' ? errorMessage(test.err) : ''
  }
}

/** Text without mocha's and node's stack frames. */
export function withoutInternalFrames(text: string): string {
  return text.split('\n').filter((line) => !INTERNAL_FRAME.test(line)).join('\n')
}

/** The error's stack (which starts with its message), or its message and then the stack when it does not. */
function errorMessage(err: MochaError | undefined): string {
  const message = err?.message ?? ''
  const stack = err?.stack ?? ''
  const text = !stack ? message : stack.includes(message) ? stack : `${message}\n${stack}`
  return trimMessage(withoutInternalFrames(stripAnsi(text || 'failed without an error message')))
}

function countBy(keys: string[]): Map<string, number> {
  const counts = new Map<string, number>()
  for (const key of keys) counts.set(key, (counts.get(key) ?? 0) + 1)
  return counts
}

/** Takes one from a count; false when none is left. */
function take(counts: Map<string, number>, key: string): boolean {
  const count = counts.get(key) ?? 0
  if (count === 0) return false
  counts.set(key, count - 1)
  return true
}
