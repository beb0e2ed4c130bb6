/** The suite's home in both trees: put files in, run them at head or on the pre-fix tree. */
import { realpath } from 'node:fs/promises'
import { join, posix } from 'node:path'
import { isFailure, type RunResult, type SuiteFile } from '../domain.js'
import type { FrameworkAdapter, ResolvedConfig } from '../frameworks/adapter.js'
import type { RunnerWrapper } from '../frameworks/wrapper.js'
import { makeRunnerFolder } from '../frameworks/runner-folder.js'
import type { Logger } from '../ports/logger.js'
import { withProgress } from '../ports/progress.js'
import type { ProcessRequest, ProcessRunner } from '../ports/process.js'
import type { Sandbox } from '../ports/sandbox.js'
import { removeSuiteFiles, writeSuiteFiles } from '../suite/write.js'
import { withPackageBins } from './tree-command.js'
import { withoutTreePaths } from './tree-paths.js'
import type { Trees } from './trees.js'
import { launchIn, type TreeLaunch } from '../launch/tree-launches.js'
import type { CompiledLayout } from '../launch/compiled-tests.js'
import type { TestBudget } from './test-budget.js'

export type TreeName = 'head' | 'preFix'

/** Another tree the suite runs in (Trees.addVariant): its root, and how the log names it. */
export interface TreeVariant {
  root: string
  /** `with hunk 2 of src/a.js taken out` */
  where: string
}

export interface BenchOptions {
  scratchDir: string
  timeoutMs: number
  /** The package whose tests run ('' for the root): the runner works there, reports stay repo-relative. */
  packageDir: string
  /** The repository's own test command, if set. */
  command: string[] | null
  /** The wrapper CLI the runner goes through (frameworks/wrapper.ts), if any. */
  wrapper: RunnerWrapper | null
  /** The runner as each tree's own test command starts it (launch/tree-launches.ts); null: not captured, the adapter's own way. */
  launches?: { head: TreeLaunch; preFix: TreeLaunch } | null
  /**
   * The runner runs compiled tests (launch/compiled-tests.ts): a source test runs from its compiled file,
   * built again by `rebuild` once a suite is written; results name the source.
   */
  compiled?: { layout: CompiledLayout; rebuild: (treeRoot: string) => Promise<void> } | null
  /** The tests may reach the network (`network: true`); absent: loopback only, where the sandbox can. */
  network?: boolean
  /** Every run is charged to the run's test budget; absent: none kept. */
  budget?: TestBudget
  log: Logger
}

export class TestBench {
  private installed: SuiteFile[] = []
  private runs = 0
  /** The command line of each run's last process: runs of the two trees may overlap. */
  private readonly commandLines = new WeakMap<RunResult, string>()
  private readonly processes: ProcessRunner

  constructor(
    private readonly trees: Trees,
    private readonly framework: FrameworkAdapter,
    sandbox: Sandbox,
    private readonly options: BenchOptions
  ) {
    // Every command the adapter runs is the tests' (or a probe of their runner): network only if the user opted in.
    const network = options.network ?? false
    this.processes = { run: (request) => sandbox.processes.run(withPackageBins({ ...request, network })) }
  }

  /** The wrapper CLI the runs go through; null: the runner itself. */
  get wrapper(): RunnerWrapper | null {
    return this.options.wrapper
  }

  /** Null: from now on the runner runs itself (a wrapper that does not pass the runner's arguments on). */
  set wrapper(wrapper: RunnerWrapper | null) {
    this.options.wrapper = wrapper
  }

  /** The command line of the last process a run started (the runner's own), as the repository would type it: what a reader needs to run it by hand. */
  commandOf(run: RunResult): string {
    return this.commandLines.get(run) ?? ''
  }

  /** Replaces the generated files in both trees (the PR's own files are already there). */
  async install(files: SuiteFile[]): Promise<void> {
    for (const tree of [this.trees.head, this.trees.preFix]) {
      await removeSuiteFiles(tree, this.installed)
      await writeSuiteFiles(tree, files)
      await this.options.compiled?.rebuild(tree)
    }
    this.installed = files
  }

  /**
   * Files run in one tree alone, then taken out again (the fix-concern tests): the suite installed stays
   * as it is, and their paths must be none of its. `times` runs, the later ones shuffled where the runner can.
   * `beside`: files already in the tree that run with them, in the same runner start (the preflight's).
   */
  async runAlone(tree: TreeName, files: SuiteFile[], title: string, times = 1, beside: string[] = []): Promise<RunResult[]> {
    const clash = files.find((file) => this.installed.some((installed) => installed.path === file.path))
    if (clash) throw new Error(`${clash.path} is a file of the suite: it cannot run alone`)
    try {
      await writeSuiteFiles(this.trees[tree], files)
      await this.options.compiled?.rebuild(this.trees[tree])
      const runs: RunResult[] = []
      for (let run = 1; run <= times; run++) runs.push(await this.run(tree, [...beside, ...files.map((file) => file.path)], { title: run === 1 ? title : `${title}, run ${run}`, shuffle: run > 1 }))
      return runs
    } finally {
      await removeSuiteFiles(this.trees[tree], files)
    }
  }

  /** The runner's own account of its configuration at head, when the adapter can ask it (jest). */
  async resolveConfig(): Promise<ResolvedConfig | null> {
    const { timeoutMs } = this.options
    const launch = this.options.launches?.head ?? null
    const how = this.howToRun(launch)
    const request = { treeDir: join(this.trees.head, how.runDir), timeoutMs, command: how.command, wrapper: how.wrapper, label: launch?.launch.via.at(-1), shown: launch?.launch.shownConfig }
    return (await this.framework.resolveConfig?.(request, this.processes).catch(() => null)) ?? null
  }

  /** The generated files, written into a variant tree too (the PR's own files are there already). */
  async installInto(root: string): Promise<void> {
    await writeSuiteFiles(root, this.installed)
  }

  /** Runs files in a tree; `title` names the run in the log (default: `Run N`). */
  async run(tree: TreeName | TreeVariant, files: string[], options: { coverage?: boolean; shuffle?: boolean; title?: string } = {}): Promise<RunResult> {
    const { timeoutMs } = this.options
    // A titled run (the preflight) is not one of the numbered runs of the suite.
    const title = options.title ?? `Run ${++this.runs}`
    const root = typeof tree === 'string' ? this.trees[tree] : tree.root
    const scratchDir = join(this.options.scratchDir, `${title.toLowerCase().replace(/\W+/g, '-')}-${typeof tree === 'string' ? tree : 'variant'}`)
    await makeRunnerFolder(scratchDir)
    const { runDir, command, wrapper } = this.howToRun(await this.launchFor(tree))
    const treeDir = join(root, runDir)
    const sources = this.compiledFiles(files)
    const packageFiles = [...sources.keys()].map((file) => posix.relative(runDir, file))
    const where = tree === 'head' ? 'at head' : tree === 'preFix' ? 'on the pre-fix tree' : tree.where
    // Not "Run N …": that line is the run's result, below.
    const starting = `Testing ${files.length} file(s) ${where} (${title.toLowerCase()})`
    let commandLine = ''
    const processes: ProcessRunner = { run: (request) => ((commandLine = describeCommand(request)), this.processes.run(request)) }
    const runFiles = () => this.framework.run({ treeDir, files: packageFiles, scratchDir, timeoutMs, coverage: options.coverage, shuffle: options.shuffle, command, wrapper }, processes)
    const budget = this.options.budget
    const result = await withProgress(this.options.log, starting, () => (budget ? budget.charge(runFiles) : runFiles()))
    const run = asSources(repoRelativeRun(withoutTreePaths(result, [treeDir, await realpath(treeDir)]), runDir), sources, this.options.compiled?.layout ?? null)
    const coverage = options.coverage ? (run.coverage ? ' (with coverage)' : ' (coverage asked for, none collected)') : ''
    this.logRun(`${title} ${where}${coverage}${run.shuffled ? ' (shuffled)' : ''}`, run)
    this.commandLines.set(run, commandLine)
    return run
  }

  /** The files the runner runs (compiled ones where it runs compiled tests), each with the source it stands for. */
  private compiledFiles(files: string[]): Map<string, string> {
    const layout = this.options.compiled?.layout
    return new Map(files.map((file) => [layout?.compiledPath(file) ?? file, file]))
  }

  /** The captured launch of a tree; a variant tree runs the head's, moved there. */
  private async launchFor(tree: TreeName | TreeVariant): Promise<TreeLaunch | null> {
    const launches = this.options.launches
    if (!launches) return null
    return typeof tree === 'string' ? launches[tree] : launchIn(launches.head, this.trees.head, tree.root)
  }

  /** Where the runner works and what it runs: the captured launch, else the test-command setting or the adapter's own way. */
  private howToRun(launch: TreeLaunch | null): { runDir: string; command: string[] | undefined; wrapper: RunnerWrapper | null } {
    if (launch) return { runDir: launch.runDir, command: launch.command, wrapper: null }
    return { runDir: this.options.packageDir, command: this.options.command ?? undefined, wrapper: this.options.wrapper }
  }

  private logRun(title: string, run: RunResult): void {
    const counts = new Map<string, number>()
    for (const test of run.tests) counts.set(test.status, (counts.get(test.status) ?? 0) + 1)
    const tally = [...counts].map(([status, count]) => `${count} ${status}`)
    if (run.fileErrors.length) tally.push(`${run.fileErrors.length} file(s) that could not run`)
    const how = run.timedOut ? 'timed out after' : 'in'
    this.options.log.info(`${title}: ${tally.join(', ') || 'no tests'} ${how} ${(run.durationMs / 1000).toFixed(1)} s`)
    // Runners that write their report to a file print little: the failures say what went wrong.
    const failures = [
      ...run.fileErrors.map((error) => `✗ ${error.file} could not run: ${error.message}`),
      ...run.tests.filter((test) => isFailure(test.status)).map((test) => `✗ ${test.file} › ${test.name}: ${test.message}`)
    ]
    const sections = [`the runner's output:\n${run.output.trim() || '(none)'}`, ...(failures.length ? [`failures:\n${failures.join('\n')}`] : [])]
    for (const section of sections) this.options.log.debug(`${title}, ${section}`)
  }
}

function describeCommand(request: ProcessRequest): string {
  const words = [...Object.entries(request.env ?? {}).map(([name, value]) => `${name}=${value}`), request.command, ...request.args]
  return words.map((word) => (/^[\w@%+=:,./-]+$/.test(word) ? word : `'${word.replace(/'/g, `'\\''`)}'`)).join(' ')
}

/** Paths from a runner working in the package folder, back to repository paths. */
function repoRelativeRun(run: RunResult, packageDir: string): RunResult {
  if (!packageDir) return run
  const repoPath = (file: string) => posix.join(packageDir, file)
  return {
    ...run,
    tests: run.tests.map((test) => ({ ...test, file: repoPath(test.file) })),
    fileErrors: run.fileErrors.map((error) => ({ ...error, file: repoPath(error.file) })),
    coverage: run.coverage?.map((entry) => ({ ...entry, file: repoPath(entry.file) }))
  }
}

/** A run of compiled tests as the source tests it ran: the files asked for by their source, others through the layout. */
function asSources(run: RunResult, sources: Map<string, string>, layout: CompiledLayout | null): RunResult {
  if (!layout) return run
  const source = (file: string) => sources.get(file) ?? layout.sourcePath(file) ?? file
  return { ...run, tests: run.tests.map((test) => ({ ...test, file: source(test.file) })), fileErrors: run.fileErrors.map((error) => ({ ...error, file: source(error.file) })) }
}

/** Files with a test that did not pass, or that could not run at all. */
export function failingFiles(run: RunResult): Set<string> {
  const failing = new Set(run.fileErrors.map((error) => error.file))
  for (const test of run.tests) if (isFailure(test.status)) failing.add(test.file)
  return failing
}
