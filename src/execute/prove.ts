/**
 * The prove loop: the suite must pass at head (repairing it from failures, then leaving out what still
 * fails), and should fail on the pre-fix tree (one strengthen round when nothing does).
 */
import type { RunResult, SuiteFile } from '../domain.js'
import type { Report } from '../report/report.js'
import type { Refiner } from '../suite/generate.js'
import type { Timings } from '../timings.js'
import { classifyTests } from '../verdict/classify.js'
import { failingFiles, type TestBench } from './test-bench.js'

export interface Proof {
  headRun: RunResult
  preFixRun: RunResult | null
  /** The files that pass at head: the suite delivered. */
  kept: SuiteFile[]
}

export interface ProveOptions {
  refiner: Refiner | null
  repairRounds: number
  /** False in verify mode: the PR's own files are already in both trees. */
  installFiles: boolean
  timings: Timings
  report: Report
}

export async function proveSuite(bench: TestBench, files: SuiteFile[], options: ProveOptions): Promise<Proof> {
  const first = await passAtHeadThenPreFix(bench, files, options)
  if (!options.refiner || first.preFixRun === null || provesFix(first)) return first
  options.report.rounds.strengthen++
  const strengthened = await options.refiner.strengthen(first.kept, first.preFixRun)
  const second = await passAtHeadThenPreFix(bench, strengthened, { ...options, repairRounds: 0 })
  return provesFix(second) ? second : first
}

async function passAtHeadThenPreFix(bench: TestBench, candidate: SuiteFile[], options: ProveOptions): Promise<Proof> {
  const { refiner, timings, report } = options
  let files = candidate
  if (options.installFiles) await bench.install(files)
  let headRun = await timings.time('run-head', () => bench.run('head', paths(files)))
  for (let round = 0; refiner && round < options.repairRounds && failingFiles(headRun).size > 0; round++) {
    report.rounds.repair++
    files = await refiner.repair(files, headRun)
    await bench.install(files)
    headRun = await timings.time('run-head', () => bench.run('head', paths(files)))
  }
  const failing = failingFiles(headRun)
  const kept = files.filter((file) => !failing.has(file.path))
  report.suite.dropped = files.filter((file) => failing.has(file.path)).map((file) => ({ path: file.path, reason: 'still fails at head' }))
  const preFixRun = kept.length === 0 ? null : await timings.time('run-pre-fix', () => bench.run('preFix', paths(kept)))
  return { headRun, preFixRun, kept }
}

const paths = (files: SuiteFile[]) => files.map((file) => file.path)
const provesFix = (proof: Proof) => classifyTests(proof.headRun, proof.preFixRun).some((test) => test.kind === 'fail-to-pass')
