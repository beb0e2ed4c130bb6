/**
 * The repository's own formatter, then its linter's fixes, on the generated files in the head tree, in the
 * sandbox, before the suite runs there: the files proven are the formatted ones. Each tool is time-boxed and
 * charged to the test budget; one that fails or times out changes nothing (its writes are undone) and is
 * reported, never failing the run. The files are read back through the checked sandbox read.
 */
import { join, posix } from 'node:path'
import type { LintMessage, SuiteFile, TidyOutcome } from '../../domain.js'
import { firstErrorLines } from '../../frameworks/output.js'
import type { Logger } from '../../ports/logger.js'
import type { ProcessRunner } from '../../ports/process.js'
import { readSandboxFile } from '../../ports/sandbox-files.js'
import { writeSuiteFiles } from '../../suite/write.js'
import { withPackageBins } from '../tree-command.js'
import type { TestBudget } from '../test-budget.js'
import type { PlannedTool, TidyPlan } from './detect.js'
import { takes, type Remaining } from './tools.js'

/** How long one formatter or linter run may take. */
export const TIDY_TIMEOUT_MS = 60_000

export interface TidyDeps {
  plan: TidyPlan
  /** The head tree's root. */
  treeRoot: string
  /** The package the tools run in ('' for the root): where the repository's own scripts run them. */
  packageDir: string
  /** The sandbox's processes. */
  processes: ProcessRunner
  /** Lets the sandbox write a folder the tool wrote (Sandbox.share): the tools rewrite the files the tool put there. */
  share: (dir: string) => Promise<void>
  budget?: TestBudget
  timeoutMs?: number
  log: Logger
}

/** Whether the plan has anything to run. */
export const hasTools = (plan: TidyPlan) => plan.formatter !== null || plan.linter !== null

/**
 * The files as the repository's tools leave them, each with what they did (`tidy`); the files are left
 * written in the head tree. A file no tool takes comes back as it was, without `tidy`.
 */
export async function tidySuite(files: SuiteFile[], deps: TidyDeps): Promise<SuiteFile[]> {
  const outcomes = new Map<string, TidyOutcome>()
  const outcome = (path: string) => outcomes.get(path) ?? outcomes.set(path, { formatter: null, linter: null, changed: false, remaining: [], failed: [] }).get(path)!
  let current = files
  const write = async (next: SuiteFile[]) => {
    await writeSuiteFiles(deps.treeRoot, next)
    for (const dir of new Set(next.map((file) => posix.dirname(file.path)))) await deps.share(join(deps.treeRoot, dir))
  }
  await write(current)
  for (const tool of [deps.plan.formatter, deps.plan.linter]) {
    const taken = current.filter((file) => tool && takes(tool.spec, file.path))
    if (!tool || taken.length === 0) continue
    const result = await runTool(tool, taken.map((file) => file.path), deps)
    if ('failure' in result) {
      for (const file of taken) outcome(file.path).failed.push(`${tool.spec.name}: ${result.failure}`)
      deps.log.warn(`Tidy: ${tool.spec.name} failed on the generated tests, which stay as they were: ${result.failure}`)
      // Whatever it wrote before failing is undone.
      await write(current)
      continue
    }
    current = await readBack(current, taken, deps.treeRoot)
    for (const file of taken) {
      const entry = outcome(file.path)
      if (tool.spec.kind === 'formatter') entry.formatter = tool.spec.name
      else Object.assign(entry, { linter: tool.spec.name, remaining: result.remaining.get(file.path) ?? [] })
    }
  }
  const tidied = current.map((file, index) => (outcomes.has(file.path) ? { ...file, tidy: { ...outcomes.get(file.path)!, changed: file.content !== files[index].content } } : file))
  for (const file of tidied) if (file.tidy) deps.log.info(`Tidy: ${describeTidy(file.path, file.tidy)}`)
  return tidied
}

type ToolResult = { remaining: Remaining } | { failure: string }

async function runTool(tool: PlannedTool, paths: string[], deps: TidyDeps): Promise<ToolResult> {
  const cwd = join(deps.treeRoot, deps.packageDir)
  const given = paths.map((path) => posix.relative(deps.packageDir, path))
  const timeoutMs = deps.timeoutMs ?? TIDY_TIMEOUT_MS
  const request = withPackageBins({ command: tool.program, args: tool.spec.args(tool.options, given), cwd, timeoutMs, network: false })
  const run = () => deps.processes.run(request)
  const result = await (deps.budget ? deps.budget.charge(run) : run())
  if (result.timedOut) return { failure: `timed out after ${Math.round(timeoutMs / 1000)} s` }
  if (result.exitCode === null || !tool.spec.ranCodes.includes(result.exitCode)) return { failure: `exit ${result.exitCode ?? result.signal}: ${firstErrorLines(result.output, 4).slice(0, 400)}` }
  if (!tool.spec.remaining) return { remaining: new Map() }
  try {
    const remaining = tool.spec.remaining(result.stdout, given)
    return { remaining: new Map(paths.map((path, index) => [path, remaining.get(given[index]) ?? []])) }
  } catch (error) {
    return { failure: `its report could not be read (${error instanceof Error ? error.message : String(error)})` }
  }
}

/** The files a tool rewrote, read back from the head tree without following a link the sandbox could have put there. */
async function readBack(current: SuiteFile[], taken: SuiteFile[], treeRoot: string): Promise<SuiteFile[]> {
  const read = new Map<string, string>()
  for (const file of taken) {
    const content = await readSandboxFile(treeRoot, join(treeRoot, file.path), 'suite')
    if (content !== null) read.set(file.path, content)
  }
  return current.map((file) => (read.has(file.path) ? { ...file, content: read.get(file.path)! } : file))
}

/** `test/regression/issue-7.test.js: prettier formatted it (changed), eslint: 1 problem left: line 3 max-len …`. */
export function describeTidy(path: string, tidy: TidyOutcome): string {
  // One name where one tool was both (biome, ruff).
  const ran = [...new Set([tidy.formatter, tidy.linter].filter((name) => name !== null))].join(' and ')
  const parts = [ran ? `${ran} ran on it (${tidy.changed ? 'changed' : 'unchanged'})` : 'no tool changed it']
  if (tidy.linter) parts.push(tidy.remaining.length ? `${tidy.linter} still reports ${describeMessages(tidy.remaining)}` : `${tidy.linter} reports nothing`)
  parts.push(...tidy.failed.map((failure) => `failed: ${failure}`))
  return `${path}: ${parts.join('; ')}`
}

export function describeMessages(messages: LintMessage[]): string {
  return messages.map((message) => `line ${message.line}${message.rule ? ` ${message.rule}` : ''}: ${message.message}`).join('; ')
}
