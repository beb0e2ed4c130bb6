/**
 * How the repository's tests run here, decided once the trees exist: the build-command setting first, then
 * each tree's own test command asked how it starts its runner (tree-launches.ts), else the runner detected
 * from the repository's files; what builds each tree; and, where the runner runs compiled output, how
 * source tests map into it (compiled-tests.ts). The pipeline gets one answer and the report says it.
 */
import { basename, join } from 'node:path'
import type { ChangeSet } from '../domain.js'
import { UserFacingError } from '../errors.js'
import { buildForTrees, commandText, type TreeBuild } from '../execute/build-detection.js'
import type { BenchOptions } from '../execute/test-bench.js'
import { withPackageBins } from '../execute/tree-command.js'
import { buildTrees, type Trees } from '../execute/trees.js'
import type { FrameworkAdapter } from '../frameworks/adapter.js'
import { ADAPTERS, frameworkFor } from '../frameworks/detect.js'
import { makeRunnerFolder } from '../frameworks/runner-folder.js'
import type { RunnerWrapper } from '../frameworks/wrapper.js'
import { readCollection, type Collection, type HeadTree } from '../context/collection.js'
import type { GitCommands } from '../ports/git.js'
import type { Logger } from '../ports/logger.js'
import type { ProcessRunner } from '../ports/process.js'
import { elapsed } from '../ports/progress.js'
import type { Sandbox } from '../ports/sandbox.js'
import type { Report } from '../report/report.js'
import type { Settings } from '../settings.js'
import type { Timings } from '../timings.js'
import { captureLaunch } from './capture.js'
import { compiledLayout, type CompiledLayout } from './compiled-tests.js'
import { commandToCapture } from './test-command.js'
import { captureTrees, type CapturedRunner, type NotCaptured, type TreeLaunch } from './tree-launches.js'

export interface TestRunsContext {
  settings: Settings
  log: Logger
  git: GitCommands
  sandbox: Sandbox
  trees: Trees
  timings: Timings
  /** Gets `runner`, `framework` and `build`. */
  report: Report
  headTree: HeadTree
  changeSet: ChangeSet
  /** The run's folder for runner scratch folders. */
  scratchDir: string
  /** What the repository's files showed before the trees existed. */
  detected: { adapter: FrameworkAdapter; undetected: unknown }
  wrapper: RunnerWrapper | null
  collectionFromFiles: Collection
}

export interface TestRuns {
  framework: FrameworkAdapter
  collectionFromFiles: Collection
  /** Null once the runner is captured: the launch already goes through whatever the script ran. */
  wrapper: RunnerWrapper | null
  build: TreeBuild | null
  captured: CapturedRunner | null
  launches: { head: TreeLaunch; preFix: TreeLaunch } | null
  compiled: BenchOptions['compiled']
}

export async function prepareTestRuns(context: TestRunsContext): Promise<TestRuns> {
  const { settings, log, sandbox, trees, timings, report, headTree, scratchDir, detected } = context
  const { tests } = settings
  const buildEachTree = (build: TreeBuild) => {
    log.info(`Build: ${commandText(build.command)} in each tree (${build.why})`)
    return timings.time('build', () => buildTrees(trees, build.command, tests.workingDirectory, sandbox.processes, settings.testTimeoutMs, log))
  }
  // The build-command setting runs first; then each tree's own test command shows how its tests run.
  let build: TreeBuild | null = tests.buildCommand && { command: tests.buildCommand, why: 'the build-command setting', detected: false }
  if (build) await buildEachTree(build)
  // A collection its files cannot say (a jest.config.js) is asked of jest itself: the head's capture asks it on the way.
  const showConfig = context.collectionFromFiles.source === null
  const runner = await timings.time('capture', () => captureRunner(settings, log, sandbox, trees, scratchDir, showConfig))
  report.runner = runner && runnerReport(runner, trees.head)
  if (runner && 'reason' in runner && runner.ranNoRunner && !tests.framework) {
    report.framework = null
    throw ranNoRunnerError(runner)
  }
  const captured = runner && 'head' in runner ? runner : null
  const launches = captured && { head: captured.head, preFix: captured.preFix }
  let { collectionFromFiles, wrapper } = context
  let framework = detected.adapter
  if (launches) {
    const adapter = ADAPTERS.find((entry) => entry.name === launches.head.launch.runner)!
    if (adapter !== framework) collectionFromFiles = await readCollection(adapter.name, headTree, { packageDir: tests.workingDirectory })
    framework = adapter
    wrapper = null
    report.framework = framework.name
  }
  if (detected.undetected && framework === detected.adapter) {
    report.framework = null
    throw detected.undetected
  }
  // A test command that builds before its runner was the build (the capture ran it); else what the repository shows its tests need.
  if (!build && !launches?.head.launch.beforeRunner.length) {
    build = await buildForTrees(null, trees.head, tests.workingDirectory, () => context.git.listFiles(context.changeSet.head), { onlyImports: launches !== null })
    if (build) await buildEachTree(build)
  }
  report.build = build && { command: commandText(build.command), why: build.why, detected: build.detected }
  const compiled = captured && (await compiledTests(captured, { ...context, files: headTree.files }))
  if (report.runner) report.runner.compiledTests = compiled && { outputDir: compiled.layout.outputDir, how: compiled.layout.how }
  return { framework, collectionFromFiles, wrapper, build, captured, launches, compiled }
}

/**
 * The package's framework as its files show it; a workspace package with none of its own (no test script,
 * no runner config) is tested by the root's test command. Where no files show one but there is a test
 * command to ask (`make test`, test-command without `{files}`), a stand-in until the capture names the
 * runner; `undetected` is the detection's error, for a capture that names none.
 */
export async function packageFramework(settings: Settings): Promise<{ adapter: FrameworkAdapter; undetected: unknown }> {
  const { repoDir, tests } = settings
  try {
    return { adapter: await frameworkFor(join(repoDir, tests.workingDirectory), tests.framework), undetected: null }
  } catch (error) {
    const choice = commandToCapture(repoDir, tests.workingDirectory, tests.command)
    if (!choice) throw error
    const root = choice.dir === tests.workingDirectory ? null : await frameworkFor(join(repoDir, choice.dir), tests.framework).catch(() => null)
    return root ? { adapter: root, undetected: null } : { adapter: runnerToCapture(error), undetected: error }
  }
}

/** Stands for the runner the capture will name: collects nothing by itself, runs nothing. */
function runnerToCapture(error: unknown): FrameworkAdapter {
  const undetected = () => Promise.reject(error)
  return { name: 'the test command\'s runner', coverageNeeds: '', detect: async () => false, isTestFile: () => false, run: undetected }
}

/** How each tree's own test command runs its tests (launch/); null when there is no command to ask. */
async function captureRunner(settings: Settings, log: Logger, sandbox: Sandbox, trees: Trees, scratchDir: string, showConfig: boolean): Promise<CapturedRunner | NotCaptured | null> {
  const { tests } = settings
  const choice = commandToCapture(settings.repoDir, tests.workingDirectory, tests.command)
  if (!choice) return null
  const runner = await captureTrees(trees, choice, treeProcesses(sandbox), { packageDir: tests.workingDirectory, scratchDir, timeoutMs: settings.testTimeoutMs, log, showConfig })
  if ('reason' in runner) {
    // A command that failed before its runner (a lint step, a missing tool) may still have tests the detected runner runs; one that ended well ran its tests some other way.
    const goingOn = tests.framework ? `Going on with the framework setting's ${tests.framework}` : runner.ranNoRunner ? null : "Going on with the runner detected from the repository's files"
    if (goingOn) log.warn(`Runner: \`${choice.command}\` (${choice.source}) ${runner.reason}\n${goingOn}`)
    return runner
  }
  const { launch, runDir, durationMs } = runner.head
  if (!ADAPTERS.some((adapter) => adapter.name === launch.runner)) {
    throw new UserFacingError(`The repository's test command runs ${launch.runner}, which regression-testgen cannot run yet (${launch.via.join(' → ')})`, `supported: ${ADAPTERS.map((adapter) => adapter.name).join(', ')}`)
  }
  if (tests.framework && tests.framework !== launch.runner) {
    const reason = `it runs ${launch.runner}, not the framework setting's ${tests.framework}: the setting wins`
    log.info(`Runner: \`${choice.command}\` ${reason}`)
    return { choice, reason, durationMs, ranNoRunner: false }
  }
  const before = launch.beforeRunner.map((step) => `${step.command} (${elapsed(step.durationMs)})`)
  log.info(`Runner: ${launch.via.join(' → ')} in ${runDir || 'the root'}, asked in ${elapsed(durationMs)}${before.length ? `; before it ran: ${before.join(', ')}` : ''}`)
  return runner
}

/** The test command ended well without a runner the tool knows: guessing one would run tests the repository does not. */
function ranNoRunnerError(runner: NotCaptured): UserFacingError {
  const { choice } = runner
  return new UserFacingError(
    `The repository's test command \`${choice.command}\` (${choice.source}) ${runner.reason}`,
    'set test-command to the command that runs one test file ({files} marks where it goes), or framework to the runner its tests use'
  )
}

/**
 * Where the captured runner runs compiled tests (`tsc && mocha` with `spec: dist/**\/*.test.js`): how source
 * tests map to what it runs, and the rebuild after a suite is written — the test command again, up to its
 * runner. Null when it runs tracked source.
 */
async function compiledTests(runner: CapturedRunner, context: Pick<TestRunsContext, 'trees' | 'settings' | 'log' | 'git' | 'sandbox' | 'scratchDir'> & { files: readonly string[] }): Promise<NonNullable<BenchOptions['compiled']> | null> {
  const { trees, settings, log, git, sandbox, scratchDir } = context
  const layout = await compiledLayout(trees.head, runner.head.launch, { trackedFiles: [...context.files], ignored: (path) => git.isIgnored(path) })
  if (!layout) return null
  log.info(`Compiled tests: the runner collects ${layout.outputDir}/ (${layout.how}); each test runs from its compiled file, the build rerun once a suite is written`)
  const rebuild = async (treeRoot: string) => {
    const stopped = await buildAgain(runner, treeRoot, { sandbox, settings, scratchDir })
    if (stopped) log.warn(`The build before the runner failed once the suite was written (${runner.choice.command}); its output ends:\n${stopped.slice(-1500)}`)
  }
  return { layout, rebuild }
}

/**
 * The tree's test command once more, up to its runner, so what it runs first (its build) runs there again:
 * in a hunk's tree, or after a suite was written that must be compiled. Null, or how it ended when it
 * stopped before its runner (the output's tail).
 */
export async function buildAgain(runner: CapturedRunner, treeRoot: string, context: Pick<TestRunsContext, 'sandbox' | 'settings' | 'scratchDir'>): Promise<string | null> {
  // Its own folder per tree: the two trees' runs (and so their rebuilds) may overlap.
  const scratchDir = join(context.scratchDir, `capture-again-${basename(treeRoot)}`)
  await makeRunnerFolder(scratchDir)
  const again = await captureLaunch(join(treeRoot, runner.choice.dir), runner.choice.command, treeProcesses(context.sandbox), { scratchDir, timeoutMs: context.settings.testTimeoutMs, network: true })
  return again.launch ? null : again.outputTail
}

/** Collection of compiled tests: a source test is collected when the file it compiles to is. */
export function throughBuild(rules: Collection, layout: CompiledLayout): Collection {
  const collects = (path: string) => {
    const compiledPath = layout.compiledPath(path)
    return compiledPath ? layout.collects(compiledPath) : rules.collects(path)
  }
  return { source: `${layout.outputDir}/, compiled from the sources (${layout.how})`, collects, compiledPath: layout.compiledPath }
}

/**
 * A preflight that failed with a detected runner, where the test command started none the tool knows: that
 * is the likelier cause (a script the capture could not follow, a step that failed before its runner).
 */
export function withUncapturedRunner(error: UserFacingError, runner: Report['runner']): UserFacingError {
  if (!runner || runner.captured || !runner.reason) return error
  const why = `\`${runner.command}\` (${runner.source}) ${runner.reason.split('\n')[0]}`
  return new UserFacingError(`${error.message}. The runner was detected from the repository's files, as ${why}`, `${error.hint ?? ''}; or set test-command to the command that runs one test file ({files} marks where it goes)`.replace(/^; /, ''))
}

/** The repository's commands as its scripts run them: its `node_modules/.bin` on PATH. */
function treeProcesses(sandbox: Sandbox): ProcessRunner {
  return { run: (request) => sandbox.processes.run(withPackageBins(request)) }
}

/** The report's account of the capture: what ran, how the runner was launched, what ran before it. */
function runnerReport(runner: CapturedRunner | NotCaptured, headRoot: string): NonNullable<Report['runner']> {
  const { choice } = runner
  const asked = { command: choice.command, source: choice.source }
  if ('reason' in runner) return { ...asked, captured: false, runner: null, via: [], argv: [], execArgv: [], cwd: choice.dir, env: {}, beforeRunner: [], durationMs: runner.durationMs, reason: runner.reason }
  const { launch, runDir, durationMs } = runner.head
  const inTree = (word: string) => word.split(`${headRoot}/`).join('')
  return { ...asked, preFixStopped: runner.preFixStopped ?? null, captured: true, runner: launch.runner, via: launch.via, argv: launch.argv.map(inTree), execArgv: launch.execArgv.map(inTree), cwd: runDir, env: launch.env, beforeRunner: launch.beforeRunner, durationMs, reason: null }
}
