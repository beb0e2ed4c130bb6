/**
 * What the fix may still get wrong: the analysis's fix concerns, each with a test the model wrote to assert
 * the correct behaviour, run twice at head alone. A concern stands only when its test fails there on an
 * assertion or because the code under test threw; one whose test passes, cannot load, times out or does not
 * run is dropped, with a log line. The confirmed ones run once more on the pre-fix tree: a test that passes
 * there shows an input the fix broke, not one it left wrong. The tests never join the suite.
 */
import { isFailure, type FixConcern, type RunResult, type SuiteFile, type TestResult } from '../domain.js'
import { describeError, ModelCallLimitError } from '../errors.js'
import { concernLabel } from '../model/stages.js'
import type { Logger } from '../ports/logger.js'
import type { ConcernAuthor } from '../suite/generate.js'
import type { Timings } from '../timings.js'
import { preFixFailureOf } from '../verdict/failure-kind.js'
import { combineRuns } from './determinism.js'
import type { TestBench } from './test-bench.js'

/** A concern its test confirmed: it fails at head, asserting what the fixed code does not deliver. */
export interface ConfirmedConcern extends FixConcern {
  /** The test that shows it, as the runner names it, in its file under `concerns/` of the output folder. */
  test: { path: string; name: string }
  /** How the test failed at head. */
  failure: 'assertion' | 'exception'
  /** That failure's first meaningful line. */
  failureLine: string
  /**
   * The test on the pre-fix tree: `passed` — the fix broke this input (a regression it brings); `failed` —
   * wrong before and after; null — it could not tell (the test did not load or run there).
   */
  preFixResult: 'passed' | 'failed' | null
}

export interface ConcernCheck {
  confirmed: ConfirmedConcern[]
  /** The files holding a confirmed concern's test: written to `concerns/`, never to the suite. */
  files: SuiteFile[]
}

const NOTHING: ConcernCheck = { confirmed: [], files: [] }

export interface ConcernOptions {
  /** The suite's paths, which the concern tests must not take. */
  taken: string[]
  timings: Timings
  log: Logger
}

/**
 * Asks for the concern tests (within the model-call limit: past it, the concerns go unchecked), runs them
 * at head, keeps what they confirm. It only adds to a verdict already reached: a failure here costs a
 * warning, never the report.
 */
export async function checkFixConcerns(bench: TestBench, author: ConcernAuthor, options: ConcernOptions): Promise<ConcernCheck> {
  const { log } = options
  try {
    const written = await withinLimit(() => author.write(new Set(options.taken)))
    if (!written) {
      log.info(`Fix concerns: the model call limit was reached before the concerns call; ${author.concerns.length} concern(s) left unchecked, none reported`)
      return NOTHING
    }
    for (const file of written.refused) log.info(`Fix concerns: the test file ${file.path} was refused (${file.reason})`)
    if (written.files.length === 0) {
      log.info('Fix concerns: no concern test file to run; none reported')
      return NOTHING
    }
    // Twice, like the suite at head: a concern test whose result changes confirms nothing.
    const runs = await options.timings.time('run-concerns', () => bench.runAlone('head', written.files, 'Concern tests', 2))
    const atHead = judgeConcerns(author.concerns, written.files, combineRuns({ plain: runs }, 'at head').run, log)
    if (atHead.confirmed.length === 0) return atHead
    const [preFixRun] = await options.timings.time('run-concerns', () => bench.runAlone('preFix', atHead.files, 'Confirmed concern tests', 1))
    return { ...atHead, confirmed: withPreFixResults(author.concerns, atHead.confirmed, preFixRun, log) }
  } catch (error) {
    log.warn(`Could not check what the fix may still get wrong: ${describeError(error)}`)
    return NOTHING
  }
}

/** Each concern by its test's result at head: kept when it failed by an assertion or an exception. */
export function judgeConcerns(concerns: FixConcern[], files: SuiteFile[], run: RunResult, log: Logger): ConcernCheck {
  const confirmed: ConfirmedConcern[] = []
  concerns.forEach((concern, index) => {
    const label = concernLabel(index)
    const described = `Fix ${label} (${oneLine(concern.input)})`
    const result = resultOf(label, files, run)
    const file = result?.file ?? files.find((candidate) => candidate.tests.some((test) => test.scenario === label))?.path
    const fileError = run.fileErrors.find((error) => error.file === file)?.message
    const failure = result ? preFixFailureOf(result, undefined) : fileError === undefined ? null : preFixFailureOf(undefined, fileError)
    if (!result && fileError === undefined) return log.info(`${described} dropped: its test did not run at head`)
    if (result?.runs) return log.info(`${described} dropped: its test changed its result between runs at head (${result.runs.join(', ')})`)
    if (!failure) return log.info(`${described} dropped: its test ${result?.status === 'skipped' ? 'was skipped' : 'passes'} at head, so the fixed code handles it`)
    if (failure.kind !== 'assertion' && failure.kind !== 'exception') {
      return log.info(`${described} dropped: its test failed at head by ${failure.kind}, not on the behaviour (${failure.line})`)
    }
    log.info(`${described} confirmed: its test fails at head by ${failure.kind}: ${failure.line}`)
    confirmed.push({ ...concern, test: { path: result!.file, name: result!.name }, failure: failure.kind, failureLine: failure.line, preFixResult: null })
  })
  const paths = new Set(confirmed.map((concern) => concern.test.path))
  return { confirmed, files: files.filter((file) => paths.has(file.path)) }
}

/** Each confirmed concern with its test's result on the pre-fix tree; one that passed there is an input the fix broke. */
export function withPreFixResults(concerns: FixConcern[], confirmed: ConfirmedConcern[], preFixRun: RunResult, log: Logger): ConfirmedConcern[] {
  return confirmed.map((concern) => {
    const result = preFixRun.tests.find((test) => test.file === concern.test.path && test.name === concern.test.name)
    const preFixResult = result?.status === 'passed' ? 'passed' : result && isFailure(result.status) ? 'failed' : null
    const index = concerns.findIndex((candidate) => candidate.input === concern.input)
    const described = `Fix ${concernLabel(index)} (${oneLine(concern.input)})`
    if (preFixResult === 'passed') log.warn(`${described}: its test passes on the pre-fix tree: the fix broke this input`)
    else log.info(`${described}: ${preFixResult === 'failed' ? 'its test fails on the pre-fix tree too: wrong before and after the fix' : 'its test did not run on the pre-fix tree'}`)
    return { ...concern, preFixResult }
  })
}

/** The concern's test: by the title the model listed for it, else by its label in the test's name. */
function resultOf(label: string, files: SuiteFile[], run: RunResult): TestResult | undefined {
  const listed = files.flatMap((file) => file.tests.filter((test) => test.scenario === label).map((test) => ({ file: file.path, title: test.title })))
  const byTitle = run.tests.find((test) => listed.some((entry) => entry.file === test.file && (test.name === entry.title || test.name.endsWith(` › ${entry.title}`))))
  if (byTitle) return byTitle
  const paths = new Set(files.map((file) => file.path))
  const named = new RegExp(`\\b${label.replace(/ /g, '\\s+')}\\b`, 'i')
  return run.tests.find((test) => paths.has(test.file) && named.test(test.name))
}

async function withinLimit<T>(work: () => Promise<T>): Promise<T | null> {
  try {
    return await work()
  } catch (error) {
    if (error instanceof ModelCallLimitError) return null
    throw error
  }
}

const oneLine = (text: string) => {
  const flat = text.replace(/\s+/g, ' ').trim()
  return flat.length > 80 ? `${flat.slice(0, 79)}…` : flat
}
