/** The prove loop's tidy step for one run: the repository's tools, found at head, run on the generated files in the head tree. */
import { existsSync } from 'node:fs'
import { join } from 'node:path'
import type { SuiteFile } from '../../domain.js'
import type { Logger } from '../../ports/logger.js'
import { onPath } from '../../ports/programs.js'
import type { ProcessRunner } from '../../ports/process.js'
import type { TestBudget } from '../test-budget.js'
import { detectTidyTools, type RepositoryAtHead, type TidyPlan } from './detect.js'
import { hasTools, tidySuite } from './tidy.js'
import type { ToolSpec } from './tools.js'

export type TidyStep = (files: SuiteFile[]) => Promise<SuiteFile[]>

export interface TidySetup {
  /** The tracked files at head and a reader of them. */
  head: { files: string[]; read(path: string): Promise<string | null> }
  treeRoot: string
  packageDir: string
  processes: ProcessRunner
  /** Sandbox.share: the sandbox may write the files the tool puts in the tree for the tools. */
  share: (dir: string) => Promise<void>
  budget?: TestBudget
  log: Logger
}

/** The step, or null when the repository has no formatter or linter installed (the log says which it found). */
export async function repositoryTidy(setup: TidySetup): Promise<TidyStep | null> {
  const repo: RepositoryAtHead = { ...setup.head, installed: (spec, packageDir) => installedProgram(spec, setup.treeRoot, packageDir) }
  const plan = await detectTidyTools(repo, setup.packageDir)
  if (!hasTools(plan)) return null
  setup.log.info(`Tidy: the generated tests go through ${describePlan(plan)}, before they run`)
  return (files) => tidySuite(files, { plan, treeRoot: setup.treeRoot, packageDir: setup.packageDir, processes: setup.processes, share: setup.share, budget: setup.budget, log: setup.log })
}

/** A Node tool's bin in the package's or the root's node_modules at head; a Python tool on the PATH. */
function installedProgram(spec: ToolSpec, treeRoot: string, packageDir: string): string | null {
  if (spec.language === 'python') return onPath(spec.program, process.env.PATH ?? '')
  const folders = [...new Set([packageDir, ''])]
  const bins = folders.map((dir) => join(treeRoot, dir, 'node_modules', '.bin', spec.program))
  return bins.find((bin) => existsSync(bin)) ?? null
}

function describePlan(plan: TidyPlan): string {
  const tools = [plan.formatter, plan.linter].flatMap((tool) => (tool ? [`${tool.spec.name}${tool.spec.kind === 'linter' ? ' (its fixes)' : ''}, as ${tool.evidence} says${tool.options.length ? ` (${tool.options.join(' ')})` : ''}`] : []))
  return tools.join(', then ')
}

