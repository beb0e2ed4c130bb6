/** The model's stages: analyse → scenarios → write tests, and the repair and strengthen rounds. */
import type { Analysis, BugReport, ContextPack, FixConcern, RunResult, Scenario, Suite, SuiteFile } from '../domain.js'
import { askForTool, type RepositoryReader } from './ask.js'
import type { ModelPort, ToolDefinition } from './model-port.js'
import { loadPrompt, renderPrompt, type StagePrompt } from './prompts.js'
import * as render from './render.js'
import { MAX_FIX_CONCERNS, ROOT_CAUSE_TOOL, SCENARIOS_TOOL, suiteSizeProblems, TEST_FILES_TOOL } from './tools.js'

export interface GenerationInput {
  bugReport: BugReport
  context: ContextPack
  /** The path the suite's main file should take, e.g. `test/regression/issue-4471.test.ts`. */
  suitePath: string
  /** What the model may read of the repository before each answer; null: only what the context shows. */
  reader: RepositoryReader | null
}

/** What every stage is shown first (and the API caches): the bug report, the code, the conventions. */
export function sharedContext(input: GenerationInput): string {
  return renderPrompt('context', {
    bug_report: render.renderBugReport(input.bugReport),
    code: render.renderContext(input.context),
    conventions: render.renderConventions(input.context, input.suitePath)
  })
}

export function analyse(model: ModelPort, input: GenerationInput): Promise<Analysis> {
  return askForTool<Analysis>(model, { ...base('analyse', input, {}), ...stageAsk('analyse') })
}

/** The scenario stage's answer: the ranked scenarios, and the concerns it found that the analysis had not. */
export interface ScenarioPlan {
  scenarios: Scenario[]
  fixConcerns: FixConcern[]
}

export async function planScenarios(model: ModelPort, input: GenerationInput, analysis: Analysis): Promise<ScenarioPlan> {
  const sharedState = analysis.defects.some((defect) => defect.sharedState)
  const answer = await askForTool<{ scenarios: Scenario[]; fixConcerns?: FixConcern[] }>(model, {
    ...base('scenarios', input, { analysis }),
    ...stageAsk('scenarios'),
    check: ({ scenarios }) => scenarioRuleProblems(scenarios, sharedState)
  })
  return { scenarios: answer.scenarios, fixConcerns: answer.fixConcerns ?? [] }
}

/**
 * The concerns a run checks: the analysis's, then those the scenario stage added (the same input once),
 * at most MAX_FIX_CONCERNS, in that order, which the concern labels follow.
 */
export function concernsToCheck(analysis: Analysis, plan: ScenarioPlan): FixConcern[] {
  const byInput = new Map<string, FixConcern>()
  for (const concern of [...(analysis.fixConcerns ?? []), ...plan.fixConcerns]) {
    const key = concern.input.replace(/\s+/g, '')
    if (!byInput.has(key)) byInput.set(key, concern)
  }
  return [...byInput.values()].slice(0, MAX_FIX_CONCERNS)
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

/** What the analysis and the scenario stage answered: every later stage is shown it, after the shared context. */
export interface PlannedTests {
  analysis: Analysis
  scenarios: Scenario[]
}

export function writeTests(model: ModelPort, input: GenerationInput, planned: PlannedTests): Promise<Suite> {
  return askForSuite(model, input, planned, 'write-tests')
}

export function repairTests(model: ModelPort, input: GenerationInput, planned: PlannedTests, suite: Suite, headRun: RunResult): Promise<Suite> {
  return askForSuite(model, input, planned, 'repair', renderPrompt('repair-task', { suite: render.renderSuite(suite), failures: render.renderFailures(headRun) }))
}

/** `weak`: tests do fail before the fix, but only because their file cannot load there. */
export function strengthenTests(model: ModelPort, input: GenerationInput, planned: PlannedTests, suite: Suite, preFixRun: RunResult, weak = false): Promise<Suite> {
  const why = weak
    ? 'the only ones that fail against the code BEFORE the fix fail because their file cannot load there (they use a symbol or module the fix added): that shows the new code exists, not that the bug is gone.'
    : 'none of them fails against the code BEFORE the fix, so the suite does not yet prove the fix.'
  return askForSuite(model, input, planned, 'strengthen', renderPrompt('strengthen-task', { why, suite: render.renderSuite(suite), pre_fix_output: render.renderRun(preFixRun) }))
}

/** How a concern and its test are named to each other: `concern 1`, `concern 2`, … in the analysis's order. */
export const concernLabel = (index: number) => `concern ${index + 1}`

/** One test per concern, asserting the behaviour the fixed code may not deliver: in one file at `path`. */
export async function writeConcernTests(model: ModelPort, input: GenerationInput, planned: PlannedTests, concerns: FixConcern[], path: string): Promise<Suite> {
  const labelled = concerns.map((concern, index) => ({ label: concernLabel(index), ...concern }))
  const answer = await askForTool<{ files: SuiteFile[] }>(model, {
    ...base('concerns', input, shownAnswers(planned)),
    ...stageAsk('concerns', renderPrompt('concerns-task', { path, concerns: JSON.stringify(labelled, null, 2) })),
    check: ({ files }) => [...suiteSizeProblems(files), ...concernTestProblems(files, concerns.length)]
  })
  return { files: answer.files }
}

/** Each concern needs a test, and each test listed names a concern, or the results cannot be told apart. */
export function concernTestProblems(files: SuiteFile[], count: number): string[] {
  const labels = Array.from({ length: count }, (_, index) => concernLabel(index))
  const listed = files.flatMap((file) => file.tests)
  const problems = listed.filter((test) => !labels.includes(test.scenario)).map((test) => `the test "${test.title}" names "${test.scenario}" as its scenario: use one of ${labels.join(', ')}`)
  for (const label of labels) if (!listed.some((test) => test.scenario === label)) problems.push(`no test is listed for ${label}`)
  return problems
}

/** `details`: what only this request has (the suite as it ran, its failures). */
async function askForSuite(model: ModelPort, input: GenerationInput, planned: PlannedTests, stage: 'write-tests' | 'repair' | 'strengthen', details = ''): Promise<Suite> {
  const answer = await askForTool<{ files: SuiteFile[] }>(model, {
    ...base(stage, input, shownAnswers(planned)),
    ...stageAsk(stage, details),
    check: ({ files }) => suiteSizeProblems(files)
  })
  return { files: answer.files }
}

/** Only P0 and P1 scenarios become tests: the same list for every stage after planning, so it stays cached. */
function shownAnswers({ analysis, scenarios }: PlannedTests): render.EarlierAnswers {
  return { analysis, scenarios: scenarios.filter((s) => s.priority !== 'P2') }
}

/** Every stage's instructions, in the order a run asks for them: the same system text for every request of a run. */
const STAGES: StagePrompt[] = ['analyse', 'scenarios', 'write-tests', 'concerns', 'repair', 'strengthen']

/** Each stage's answer tool. */
const STAGE_TOOLS: Record<StagePrompt, ToolDefinition> = {
  analyse: ROOT_CAUSE_TOOL,
  scenarios: SCENARIOS_TOOL,
  'write-tests': TEST_FILES_TOOL,
  concerns: TEST_FILES_TOOL,
  repair: TEST_FILES_TOOL,
  strengthen: TEST_FILES_TOOL
}

/**
 * The request's own block — which stage of the system prompt to do now (by its `## Stage:` title, which
 * the task's `# Task:` heading repeats), its tool, and what only this request has — and that tool.
 */
function stageAsk(stage: StagePrompt, details = ''): { task: string; tool: ToolDefinition } {
  const title = /^## Stage: (.+)$/m.exec(loadPrompt(stage))?.[1]
  if (!title) throw new Error(`prompts/${stage}.md has no "## Stage:" heading`)
  const tool = STAGE_TOOLS[stage]
  return { task: renderPrompt('task', { title, tool: tool.name, details }), tool }
}

/** What every request of a run shares (system with every stage's instructions, context), then what the stages before this one produced. */
function base(stage: StagePrompt, input: GenerationInput, answers: render.EarlierAnswers) {
  const reading = loadPrompt(input.reader ? 'reading-tools' : 'reading-none').trim()
  const system = renderPrompt('system', { reading, stages: STAGES.map((name) => loadPrompt(name).trim()).join('\n\n') })
  const earlier = render.renderEarlierWork(input.reader?.readsSoFar() ?? [], answers)
  return { stage, system, context: sharedContext(input), ...(input.reader && { reader: input.reader }), ...(earlier.length && { earlier }) }
}
