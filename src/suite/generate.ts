/**
 * Generate mode's suite: bug report → context → analysis → scenarios → test files, placed safely; and the
 * refiner that the prove loop calls back for repair and strengthen rounds.
 */
import type { ChangeSet, RunResult, SuiteFile } from '../domain.js'
import type { FrameworkAdapter } from '../frameworks/adapter.js'
import type { GitCommands } from '../ports/git.js'
import type { ModelPort } from '../model/model-port.js'
import type { Report } from '../report/report.js'
import type { BugReportSource } from '../settings.js'
import type { Timings } from '../timings.js'
import { readBugReport } from '../bug-report/bug-report.js'
import { buildContext } from '../context/context.js'
import { UserFacingError } from '../errors.js'
import { analyse, planScenarios, repairTests, strengthenTests, writeTests, type GenerationInput } from '../model/stages.js'
import { placeSuite, suitePathFor } from './placement.js'

/** How the prove loop asks for better tests; generate mode has one, verify mode none. */
export interface Refiner {
  repair(files: SuiteFile[], headRun: RunResult): Promise<SuiteFile[]>
  strengthen(files: SuiteFile[], preFixRun: RunResult): Promise<SuiteFile[]>
}

export interface GeneratedSuite {
  files: SuiteFile[]
  refiner: Refiner
}

export interface GenerateDeps {
  git: GitCommands
  model: ModelPort
  framework: FrameworkAdapter
  timings: Timings
  report: Report
}

export async function generateSuite(changeSet: ChangeSet, source: BugReportSource, deps: GenerateDeps): Promise<GeneratedSuite> {
  const { git, model, framework, timings, report } = deps
  const bugReport = await readBugReport(source, git, changeSet.base, changeSet.head)
  report.bugReport = { title: bugReport.title, source: bugReport.source, truncated: bugReport.truncated }
  const context = await timings.time('context', () => buildContext(changeSet, git, framework))
  if (context.sources.length === 0) {
    throw new UserFacingError('The change touches no source file, so there is no fix to test', 'use verify mode to check the PR\'s own tests')
  }
  const input: GenerationInput = { bugReport, context, suitePath: suitePathFor(bugReport, changeSet.head, context) }
  const existingFiles = new Set(await git.listFiles(changeSet.head))
  const place = (files: SuiteFile[]) => {
    const placement = placeSuite(files, context, existingFiles)
    report.suite.refused.push(...placement.refused)
    if (placement.accepted.length === 0) {
      throw new UserFacingError(`Every test file the model wrote was refused: ${placement.refused.map((f) => `${f.path} (${f.reason})`).join('; ')}`)
    }
    return placement.accepted
  }

  const analysis = await timings.time('analyse', () => analyse(model, input))
  report.analysis = analysis
  report.scenarios = await timings.time('scenarios', () => planScenarios(model, input, analysis))
  const suite = await timings.time('write-tests', () => writeTests(model, input, analysis, report.scenarios))
  return {
    files: place(suite.files),
    refiner: {
      repair: async (files, headRun) => place((await timings.time('repair', () => repairTests(model, input, { files }, headRun))).files),
      strengthen: async (files, preFixRun) =>
        place((await timings.time('strengthen', () => strengthenTests(model, input, { files }, preFixRun))).files)
    }
  }
}
