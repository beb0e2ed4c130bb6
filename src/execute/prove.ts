/**
 * The prove loop: the suite must pass at head (repairing it from failures, then leaving out what still
 * fails), and should fail on the pre-fix tree (one strengthen round when nothing does).
 */
import type { RunResult, SuiteFile, TestResult } from '../domain.js'
import { ModelCallLimitError, UserFacingError } from '../errors.js'
import type { Logger } from '../pipeline.js'
import type { Report } from '../report/report.js'
import type { Refiner } from '../suite/generate.js'
import type { RefusedFile } from '../suite/placement.js'
import type { Timings } from '../timings.js'
import { classifyTests } from '../verdict/classify.js'
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
  /** A run at head already made of exactly these files (the preflight's): the first run at head, not repeated. */
  firstHeadRun?: { files: string[]; run: RunResult } | null
  timings: Timings
  report: Report
  log: Logger
}

export async function proveSuite(bench: TestBench, files: SuiteFile[], options: ProveOptions): Promise<Proof> {
  const first = await passAtHeadThenPreFix(bench, files, options)
  if (!options.refiner || first.preFixRun === null || provesFix(first)) return first
  const strengthened = await withinLimit(() => options.refiner!.strengthen(first.kept, first.preFixRun!))
  if (!strengthened) return first
  options.report.rounds.strengthen++
  const second = await passAtHeadThenPreFix(bench, strengthened, { ...options, repairRounds: 0 })
  return provesFix(second) ? second : first
}

async function passAtHeadThenPreFix(bench: TestBench, candidate: SuiteFile[], options: ProveOptions): Promise<Proof> {
  const { refiner, timings, report } = options
  let files = candidate
  if (options.installFiles) await bench.install(files)
  const runAtHead = (coverage = false) => timings.time('run-head', () => bench.run('head', paths(files), { coverage }))
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
    files = repaired
    await bench.install(files)
    headRun = await runAtHead()
  }
  // Passing once is not enough: a second run at head catches order-, time- and state-dependent tests,
  // and measures which changed lines the suite runs.
  const judged = options.installFiles ? passingFiles : filesWithAPassingTest
  if (judged(files, headRun).length > 0) {
    const withCoverage = await runAtHead(true)
    const second = lostPasses(headRun, withCoverage) > 0 ? await withoutCoverage(headRun, withCoverage, runAtHead, options.log) : withCoverage
    headRun = { ...markFlaky(headRun, second), coverage: withCoverage.coverage }
  }
  const kept = judged(files, headRun)
  const dropped = files.filter((file) => !kept.includes(file)).map((file) => ({ path: file.path, reason: dropReason(headRun, file.path) }))
  const preFixRun = kept.length === 0 ? null : await timings.time('run-pre-fix', () => bench.run('preFix', paths(kept)))
  return { headRun, preFixRun, kept, dropped }
}

/** A generated suite keeps only files whose every test passes at head: it is delivered as it is. */
const passingFiles = (files: SuiteFile[], headRun: RunResult) => files.filter((file) => !failingFiles(headRun).has(file.path))

/**
 * The pull request's own files (verify mode) are judged test by test: one stale test failing at head (an
 * old expectation, a newer runtime) must not hide the proof in the tests beside it.
 */
const filesWithAPassingTest = (files: SuiteFile[], headRun: RunResult) =>
  files.filter((file) => headRun.tests.some((test) => test.file === file.path && test.status === 'passed'))

/**
 * Tests that passed, then failed in the coverage run: flaky, or changed by the coverage instrumentation
 * itself (a spy on an instrumented function, a snapshot of a function's text). A third run without
 * coverage tells them apart; when it passes them again, it is the second run that counts.
 */
async function withoutCoverage(first: RunResult, withCoverage: RunResult, runAtHead: () => Promise<RunResult>, log: Logger): Promise<RunResult> {
  const plain = await runAtHead()
  if (lostPasses(first, plain) > 0) return withCoverage
  log.info(`${lostPasses(first, withCoverage)} test(s) failed only with coverage collected, and passed again without it: they are judged on the runs without coverage`)
  return plain
}

/** How many tests that passed in `first` did not pass in `second`. */
const lostPasses = (first: RunResult, second: RunResult) => markFlaky(first, second).tests.filter((test) => test.message.startsWith(FLAKY)).length

const FLAKY = 'flaky:'

/** A test that passed in the first run but not in the second counts as failing at head. */
export function markFlaky(first: RunResult, second: RunResult): RunResult {
  const again = new Map(second.tests.map((test) => [`${test.file}\0${test.name}`, test]))
  const secondFileErrors = new Map(second.fileErrors.map((error) => [error.file, error.message]))
  const tests = first.tests.map((test): TestResult => {
    if (test.status !== 'passed') return test
    const rerun = again.get(`${test.file}\0${test.name}`)
    if (rerun?.status === 'passed') return test
    const how = rerun ? `${rerun.status}: ${rerun.message}` : (secondFileErrors.get(test.file) ?? 'did not run')
    return { ...test, status: 'failed', message: `${FLAKY} passed, then on a second run at head ${how}` }
  })
  return { ...first, tests }
}

function dropReason(headRun: RunResult, file: string): string {
  const flaky = headRun.tests.some((test) => test.file === file && test.message.startsWith(FLAKY))
  return flaky ? 'flaky at head: a test passed, then failed on a second run' : 'still fails at head'
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
const provesFix = (proof: Proof) => classifyTests(proof.headRun, proof.preFixRun).some((test) => test.kind === 'fail-to-pass')
