/**
 * Generate mode's suite: bug report → context → analysis → scenarios → test files, placed safely; and the
 * refiner that the prove loop calls back for repair and strengthen rounds.
 */
import { appendAll } from '../arrays.js'
import type { ChangeSet, ContextPack, FixConcern, RunResult, Scenario, SuiteFile } from '../domain.js'
import type { FrameworkAdapter } from '../frameworks/adapter.js'
import type { GitCommands } from '../ports/git.js'
import type { RepositoryReader } from '../model/ask.js'
import type { ModelPort } from '../model/model-port.js'
import type { Logger } from '../ports/logger.js'
import type { ContextSummary, Report } from '../report/report.js'
import type { BugReportSource } from '../settings.js'
import type { Timings } from '../timings.js'
import { readBugReport } from '../bug-report/bug-report.js'
import type { Collection } from '../context/collection.js'
import { buildContext } from '../context/context.js'
import { firstSpellings } from '../context/way-in.js'
import { UserFacingError } from '../errors.js'
import { analyse, concernsToCheck, planScenarios, repairTests, sharedContext, strengthenTests, writeConcernTests, writeTests, type GenerationInput } from '../model/stages.js'
import { placeSuite, suitePathFor, type RefusedFile } from './placement.js'

/** How the prove loop asks for better tests; generate mode has one, verify mode none. */
export interface Refiner {
  repair(files: SuiteFile[], headRun: RunResult): Promise<SuiteFile[]>
  /** `weak`: tests fail before the fix only because their file cannot load there. */
  strengthen(files: SuiteFile[], preFixRun: RunResult, weak: boolean): Promise<SuiteFile[]>
}

export interface GeneratedSuite {
  files: SuiteFile[]
  refiner: Refiner
  /** Tests for what the analysis and the scenario stage say the fixed code still gets wrong; null: they found nothing. */
  concerns: ConcernAuthor | null
}

/** Writes one test per concern (the `concerns` stage): tests that should fail at head, never part of the suite. */
export interface ConcernAuthor {
  concerns: FixConcern[]
  /** The concern tests, placed in the regression folder, at none of the `taken` paths (the suite's). */
  write(taken: ReadonlySet<string>): Promise<{ files: SuiteFile[]; refused: RefusedFile[] }>
}

export interface GenerateDeps {
  git: GitCommands
  model: ModelPort
  framework: FrameworkAdapter
  timings: Timings
  report: Report
  log: Logger
  /** Which files the repository's own test command collects: the suite goes where it does. */
  collection: Collection
  /** What the model may read of the repository before each answer; null: only the context. */
  reader: RepositoryReader | null
  /** The package folder the tests run in ('' for the root). */
  packageDir: string
  /** What ran the repository's tests here (the preflight's RunResult.runtime), when it said. */
  testRuntime: string | null
  /**
   * The context with each way into the changed code checked: whether it loads in each tree
   * (execute/import-check.ts), and what ran the tests where the check's run said; null: unchecked.
   */
  checkImports: ((context: ContextPack) => Promise<ContextPack>) | null
}

export async function generateSuite(changeSet: ChangeSet, source: BugReportSource, deps: GenerateDeps): Promise<GeneratedSuite> {
  const { git, model, framework, timings, report, log, collection, reader, packageDir, testRuntime, checkImports } = deps
  const bugReport = await readBugReport(source, git, changeSet.base, changeSet.head)
  report.bugReport = { title: bugReport.title, source: bugReport.source, truncated: bugReport.truncated }
  const built = await timings.time('context', () => buildContext(changeSet, git, framework, { bugReport, collection, packageDir, testRuntime }))
  if (built.sources.length === 0) {
    throw new UserFacingError('The change touches no source file, so there is no fix to test', 'use verify mode to check the PR\'s own tests')
  }
  // Unchecked, each way in by its first spelling (a check tries the others where that does not load: context/way-in.ts).
  const context = checkImports ? await checkImports(built) : { ...built, imports: firstSpellings(built.imports) }
  const input: GenerationInput = { bugReport, context, suitePath: suitePathFor(bugReport, changeSet.head, context), reader }
  report.context = summarizeContext(input)
  const existingFiles = new Set(await git.listFiles(changeSet.head))
  const place = (files: SuiteFile[]) => {
    const placement = placeSuite(files, context, existingFiles)
    appendAll(report.suite.refused, placement.refused)
    if (placement.accepted.length === 0) {
      throw new UserFacingError(`Every test file the model wrote was refused: ${placement.refused.map((f) => `${f.path} (${f.reason})`).join('; ')}`)
    }
    warnUncollected(placement.accepted, collection, log)
    return placement.accepted
  }

  log.info(`Bug report: ${bugReport.title}; asking the model for the root cause`)
  const analysis = await timings.time('analyse', () => analyse(model, input))
  report.analysis = analysis
  log.info(`Root cause: ${analysis.summary}`)
  const plan = await timings.time('scenarios', () => planScenarios(model, input, analysis))
  report.scenarios = plan.scenarios
  log.info(`Scenarios: ${describeScenarios(report.scenarios)}`)
  const planned = { analysis, scenarios: report.scenarios }
  const suite = await timings.time('write-tests', () => writeTests(model, input, planned))
  const files = place(suite.files)
  log.info(`Tests written: ${files.map((file) => file.path).join(', ')}`)
  const concerns = concernsToCheck(analysis, plan)
  if (plan.fixConcerns.length) log.info(`Fix concerns: planning the scenarios found ${plan.fixConcerns.length} more input(s) the fixed code may get wrong`)
  if (concerns.length) log.info(`Fix concerns: ${concerns.length} input(s) the fixed code may still get wrong; checked at head once the suite is proven`)
  return {
    files,
    concerns: concerns.length
      ? {
          concerns,
          write: async (taken) => {
            log.info(`Fix concerns: the model writes a test for each of the ${concerns.length} concern(s)`)
            const suite = await timings.time('concerns', () => writeConcernTests(model, input, planned, concerns, concernsPathFor(input.suitePath, context.testFileSuffix)))
            const placement = placeSuite(suite.files, context, new Set([...existingFiles, ...taken]))
            return { files: placement.accepted, refused: placement.refused }
          }
        }
      : null,
    refiner: {
      repair: async (files, headRun) => {
        log.info('Repair: the model fixes the tests that failed at head, from their failures')
        return place((await timings.time('repair', () => repairTests(model, input, planned, { files }, headRun))).files)
      },
      strengthen: async (files, preFixRun, weak) => {
        log.info(`Strengthen: ${weak ? 'tests failed on the pre-fix tree only because their file could not load there' : 'no test failed on the pre-fix tree'}; the model rewrites the suite to reach the bug`)
        return place((await timings.time('strengthen', () => strengthenTests(model, input, planned, { files }, preFixRun, weak))).files)
      }
    }
  }
}

function summarizeContext(input: GenerationInput): ContextSummary {
  const { context } = input
  const files = [...context.sources, ...context.related, ...(context.styleExample ? [context.styleExample] : [])].map((file) => file.path)
  return { files: [...new Set(files)], tokens: Math.ceil(sharedContext(input).length / 4), imports: context.imports }
}

/**
 * `test/regression/issue-7.test.js` → `test/regression/issue-7-concerns.test.js`; a Python file stays an
 * importable module name: `test_fix_abc1234.py` → `test_fix_abc1234_concerns.py`.
 */
export function concernsPathFor(suitePath: string, suffix: string): string {
  const tail = suffix === '.py' ? '_concerns' : '-concerns'
  return suitePath.endsWith(suffix) ? `${suitePath.slice(0, -suffix.length)}${tail}${suffix}` : `${suitePath}${tail}`
}

/** A file the repository's own command would never run proves the fix here but guards nothing in its CI. */
function warnUncollected(files: SuiteFile[], collection: Collection, log: Logger): void {
  for (const file of files.filter((file) => collection.collects(file.path) === false)) {
    log.warn(`${file.path} is not collected by the repository's own tests (${collection.source}): move it where they look, or widen their configuration`)
  }
}

/** `5 (P0 2, P1 2, P2 1)`. */
function describeScenarios(scenarios: Scenario[]): string {
  const byPriority = (['P0', 'P1', 'P2'] as const).map((priority) => [priority, scenarios.filter((scenario) => scenario.priority === priority).length] as const)
  return `${scenarios.length} (${byPriority.filter(([, count]) => count > 0).map(([priority, count]) => `${priority} ${count}`).join(', ')})`
}
