/**
 * The prove loop: the suite must pass at head (repairing it from failures, then leaving out what still
 * fails), and should fail on the pre-fix tree (one strengthen round when nothing does).
 */
import type { RunResult, SuiteFile } from '../domain.js'
import { ModelCallLimitError, UserFacingError } from '../errors.js'
import type { Logger } from '../ports/logger.js'
import type { Report } from '../report/report.js'
import type { Refiner } from '../suite/generate.js'
import type { RefusedFile } from '../suite/placement.js'
import type { Timings } from '../timings.js'
import { classifyTests } from '../verdict/classify.js'
import { onlyLoadFailures } from '../verdict/failure-kind.js'
import { PRE_FIX_RUNS } from '../settings.js'
import { combineRuns, isFlaky } from './determinism.js'
import { matchTests } from '../test-identity.js'
import { outsideFailure } from './outside-failure.js'
import { failingFiles, type TestBench } from './test-bench.js'

export interface Proof {
  headRun: RunResult
  preFixRun: RunResult | null
  /** The files that pass at head, twice: the suite delivered. */
  kept: SuiteFile[]
  /** The files left out because a test in them still failed at head. */
  dropped: RefusedFile[]
}

export interface ProveOptions {
  refiner: Refiner | null
  repairRounds: number
  /** False in verify mode: the PR's own files are already in both trees. */
  installFiles: boolean
  /** The repository's formatter and linter on generated files before they run (execute/tidy/); absent: none. */
  tidy?: ((files: SuiteFile[]) => Promise<SuiteFile[]>) | null
  /** How many times the suite runs at head (settings.reruns). */
  reruns: number
  /** A run at head already made of exactly these files (the preflight's): the first run at head, not repeated. */
  firstHeadRun?: { files: string[]; run: RunResult } | null
  timings: Timings
  report: Report
  log: Logger
}

export async function proveSuite(bench: TestBench, files: SuiteFile[], options: ProveOptions): Promise<Proof> {
  const first = await passAtHeadThenPreFix(bench, files, options)
  if (!options.refiner || first.preFixRun === null || proofStrength(first) === STRONG) return first
  const weak = proofStrength(first) === LOAD_ONLY
  const strengthened = await withinLimit(() => options.refiner!.strengthen(first.kept, first.preFixRun!, weak))
  if (!strengthened) return first
  options.report.rounds.strengthen++
  const second = await passAtHeadThenPreFix(bench, strengthened, { ...options, repairRounds: 0 })
  return proofStrength(second) > proofStrength(first) ? second : first
}

async function passAtHeadThenPreFix(bench: TestBench, candidate: SuiteFile[], options: ProveOptions): Promise<Proof> {
  const { refiner, timings, report } = options
  let files = candidate
  // The files that run (and are delivered) are the ones the repository's own tools formatted.
  const install = async (next: SuiteFile[]) => {
    const tidied = options.tidy ? await options.tidy(next) : next
    await bench.install(tidied)
    return tidied
  }
  if (options.installFiles) files = await install(files)
  const runAtHead: RunAtHead = (run = {}) => timings.time('run-head', () => bench.run('head', paths(files), run))
  const known = options.firstHeadRun
  const reuse = !options.installFiles && known && samePaths(known.files, paths(files))
  if (reuse) options.log.info(`At head: the preflight's run of ${known.files.join(', ')} stands for the first run`)
  let headRun = reuse ? known.run : await runAtHead()
  for (let round = 0; refiner && round < options.repairRounds && failingFiles(headRun).size > 0; round++) {
    throwIfOutsideTheTests(headRun)
    const repaired = await withinLimit(() => refiner.repair(files, headRun))
    // No answer within the limit, or the same files again: another run would only repeat this one.
    if (!repaired || sameFiles(repaired, files)) break
    report.rounds.repair++
    files = await install(repaired)
    headRun = await runAtHead()
  }
  // Passing once is not enough: the gate runs the suite again at head (with coverage, then shuffled where
  // the runner can) and twice on the pre-fix tree; a test whose result changes proves nothing.
  const judged = options.installFiles ? passingFiles : filesWithAPassingTest
  if (judged(files, headRun).length > 0) headRun = await gateAtHead(headRun, runAtHead, options)
  const kept = judged(files, headRun)
  const dropped = files.filter((file) => !kept.includes(file)).map((file) => ({ path: file.path, reason: dropReason(headRun, file.path) }))
  const preFixRun = kept.length === 0 ? null : await gateOnPreFix(bench, paths(kept), options)
  return { headRun, preFixRun, kept, dropped }
}

type RunAtHead = (options?: { coverage?: boolean; shuffle?: boolean }) => Promise<RunResult>

/** `reruns` runs at head in all: the first (already made), one with coverage, the rest shuffled. */
async function gateAtHead(first: RunResult, runAtHead: RunAtHead, options: ProveOptions): Promise<RunResult> {
  const coverage = await runAtHead({ coverage: true })
  const plain = [first]
  for (let run = 3; run <= options.reruns; run++) plain.push(await runAtHead({ shuffle: true }))
  // With no other plain run, a test that fails only with coverage needs one to tell instrumentation from chance.
  if (plain.length === 1 && lostPasses(first, coverage)) plain.push(await runAtHead())
  const combined = combineRuns({ plain, coverage }, 'at head')
  options.report.runs.head = plain.length + 1
  if (combined.coverageSensitive.length) {
    options.log.info(`${combined.coverageSensitive.length} test(s) failed only with coverage collected, and passed in every run without it: they are judged on the runs without coverage`)
  }
  return { ...combined.run, coverage: coverage.coverage }
}

async function gateOnPreFix(bench: TestBench, files: string[], options: ProveOptions): Promise<RunResult> {
  const runs: RunResult[] = []
  for (let run = 1; run <= PRE_FIX_RUNS; run++) runs.push(await options.timings.time('run-pre-fix', () => bench.run('preFix', files, { shuffle: run > 1 })))
  options.report.runs.preFix = runs.length
  return combineRuns({ plain: runs }, 'on the pre-fix tree').run
}

/** Whether a test that passed in `first` did not pass in `second`. */
const lostPasses = (first: RunResult, second: RunResult) => {
  const again = matchTests(first.tests, second.tests)
  return first.tests.some((test, index) => test.status === 'passed' && again[index]?.status !== 'passed')
}

/** A generated suite keeps only files whose every test passes at head: it is delivered as it is. */
const passingFiles = (files: SuiteFile[], headRun: RunResult) => files.filter((file) => !failingFiles(headRun).has(file.path))

/**
 * The pull request's own files (verify mode) are judged test by test: one stale test failing at head (an
 * old expectation, a newer runtime) must not hide the proof in the tests beside it.
 */
const filesWithAPassingTest = (files: SuiteFile[], headRun: RunResult) =>
  files.filter((file) => headRun.tests.some((test) => test.file === file.path && test.status === 'passed'))

function dropReason(headRun: RunResult, file: string): string {
  const flaky = headRun.tests.some((test) => test.file === file && isFlaky(test))
  return flaky ? 'flaky at head: a test changed its result between runs' : 'still fails at head'
}

/** A refinement round the model-call limit rules out is skipped: the suite stands as it is. */
async function withinLimit(round: () => Promise<SuiteFile[]>): Promise<SuiteFile[] | null> {
  try {
    return await round()
  } catch (error) {
    if (error instanceof ModelCallLimitError) return null
    throw error
  }
}

function throwIfOutsideTheTests(headRun: RunResult): void {
  const outside = outsideFailure(headRun)
  if (outside) throw new UserFacingError(`The suite cannot run here, for a reason outside its files: ${outside.what} (${outside.evidence})`, outside.hint)
}

const sameFiles = (a: SuiteFile[], b: SuiteFile[]) => a.length === b.length && a.every((file, index) => file.path === b[index].path && file.content === b[index].content)
const paths = (files: SuiteFile[]) => files.map((file) => file.path)
const samePaths = (a: string[], b: string[]) => a.length === b.length && a.every((path) => b.includes(path))
// No fail-to-pass test; only ones whose file cannot load before the fix; one failing by assertion or exception.
const NONE = 0
const LOAD_ONLY = 1
const STRONG = 2

function proofStrength(proof: Proof): number {
  const tests = classifyTests(proof.headRun, proof.preFixRun)
  if (!tests.some((test) => test.kind === 'fail-to-pass')) return NONE
  return onlyLoadFailures(tests) ? LOAD_ONLY : STRONG
}
