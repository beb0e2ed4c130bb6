/** The model's stages: analyse → scenarios → write tests, and the repair and strengthen rounds. */
import type { Analysis, BugReport, ChangeSet, ContextPack, RunResult, Scenario, Suite, SuiteFile } from '../domain.js'
import { sourceFiles } from '../diff/change-set.js'
import { askForTool } from './ask.js'
import type { ModelPort } from './model-port.js'
import { loadPrompt, renderPrompt } from './prompts.js'
import * as render from './render.js'
import { ROOT_CAUSE_TOOL, SCENARIOS_TOOL, TEST_FILES_TOOL } from './tools.js'

export interface GenerationInput {
  bugReport: BugReport
  context: ContextPack
  /** The path the suite's main file should take, e.g. `test/regression/issue-4471.test.ts`. */
  suitePath: string
}

export function analyse(model: ModelPort, input: GenerationInput): Promise<Analysis> {
  return askForTool<Analysis>(model, {
    stage: 'analyse',
    system: loadPrompt('system'),
    prompt: renderPrompt('analyse', { bug_report: render.renderBugReport(input.bugReport), context: render.renderContext(input.context) }),
    tool: ROOT_CAUSE_TOOL
  })
}

export async function planScenarios(model: ModelPort, input: GenerationInput, analysis: Analysis): Promise<Scenario[]> {
  const sharedState = analysis.defects.some((defect) => defect.sharedState)
  const answer = await askForTool<{ scenarios: Scenario[] }>(model, {
    stage: 'scenarios',
    system: loadPrompt('system'),
    prompt: renderPrompt('scenarios', {
      analysis: render.renderAnalysis(analysis),
      bug_report: render.renderBugReport(input.bugReport),
      context: render.renderContext(input.context)
    }),
    tool: SCENARIOS_TOOL,
    check: ({ scenarios }) => scenarioRuleProblems(scenarios, sharedState)
  })
  return answer.scenarios
}

export function scenarioRuleProblems(scenarios: Scenario[], sharedState: boolean): string[] {
  const problems: string[] = []
  if (!scenarios.some((s) => s.failsBeforeFix)) problems.push('no scenario has failsBeforeFix: true')
  if (!scenarios.some((s) => s.kind === 'boundary')) problems.push('no scenario of kind boundary')
  if (sharedState && !scenarios.some((s) => s.kind === 'state-isolation')) problems.push('shared state is involved but no scenario of kind state-isolation')
  if (!scenarios.some((s) => s.priority === 'P0')) problems.push('no P0 scenario')
  if (new Set(scenarios.map((s) => s.name)).size !== scenarios.length) problems.push('scenario names are not unique')
  return problems
}

export async function writeTests(model: ModelPort, input: GenerationInput, analysis: Analysis, scenarios: Scenario[]): Promise<Suite> {
  const wanted = scenarios.filter((s) => s.priority !== 'P2')
  return askForSuite(model, 'write-tests', {
    conventions: render.renderConventions(input.context, input.suitePath),
    scenarios: render.renderScenarios(wanted),
    analysis: render.renderAnalysis(analysis),
    context: render.renderContext(input.context)
  })
}

export function repairTests(model: ModelPort, input: GenerationInput, suite: Suite, headRun: RunResult): Promise<Suite> {
  return askForSuite(model, 'repair', {
    conventions: render.renderConventions(input.context, input.suitePath),
    suite: render.renderSuite(suite),
    failures: render.renderFailures(headRun),
    context: render.renderContext(input.context)
  })
}

export function strengthenTests(model: ModelPort, input: GenerationInput, changeSet: ChangeSet, suite: Suite, preFixRun: RunResult): Promise<Suite> {
  return askForSuite(model, 'strengthen', {
    conventions: render.renderConventions(input.context, input.suitePath),
    fix_hunks: sourceFiles(changeSet).map((file) => `--- ${file.path}\n${file.hunks.map((h) => h.text).join('\n')}`).join('\n'),
    suite: render.renderSuite(suite),
    pre_fix_output: render.renderRun(preFixRun),
    context: render.renderContext(input.context)
  })
}

async function askForSuite(model: ModelPort, stage: 'write-tests' | 'repair' | 'strengthen', values: Record<string, string>): Promise<Suite> {
  const answer = await askForTool<{ files: SuiteFile[] }>(model, {
    stage,
    system: loadPrompt('system'),
    prompt: renderPrompt(stage, values),
    tool: TEST_FILES_TOOL
  })
  return { files: answer.files }
}
