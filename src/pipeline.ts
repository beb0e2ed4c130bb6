/**
 * The one place that knows the stage order:
 * diff → (verify: the PR's tests | generate: bug report → context → model) → trees → prove → verdict → report.
 * Whatever happens, a report is written: a failure becomes verdict `error` with its reason.
 */
import { rmSync } from 'node:fs'
import { mkdir, mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import type { ChangeSet, ClassifiedTest, RunResult, SuiteFile, VerdictName } from './domain.js'
import { installedDependencyFolders, type DependencyCache } from './execute/dependencies.js'
import type { FrameworkAdapter } from './frameworks/adapter.js'
import type { RepositoryReader } from './model/ask.js'
import type { ModelPort, UsageLedger } from './model/model-port.js'
import { createRepositoryReader } from './model/repository-reader.js'
import { REPOSITORY_TOOLS, runRepositoryTool } from './model/repository-tools.js'
import { createRepositoryView } from './context/repository-view.js'
import { createInstalledPackages } from './context/installed-packages.js'
import type { GitCommands } from './ports/git.js'
import type { Logger } from './ports/logger.js'
import { onInterrupt } from './ports/process.js'
import type { Sandbox, SandboxProvider } from './ports/sandbox.js'
import type { ModelSettings, Mode, OnFixConcern, OnNoFailToPass, Settings } from './settings.js'
import { generatedFiles, readChangeSet, sourceFiles, withCollectedTests } from './diff/change-set.js'
import { briefList } from './diff/generated.js'
import { ensureHistory } from './diff/history.js'
import { describeError, NotApplicable, UserFacingError } from './errors.js'
import { buildForTrees, commandText, type TreeBuild } from './execute/build-detection.js'
import { checkFixConcerns } from './execute/concerns.js'
import { guardHunks, type HunkGuard } from './execute/hunk-guards.js'
import { runTreeCommand } from './execute/tree-command.js'
import { usePackageManagers } from './execute/package-manager-shims.js'
import { expandCommand } from './frameworks/command.js'
import { runnerFailure } from './execute/outside-failure.js'
import { checkImports } from './execute/import-check.js'
import { preflightCandidates, preflightFailure, runPreflight, searchPreflight, type PreflightRun } from './execute/preflight.js'
import { proveSuite } from './execute/prove.js'
import { TestBench, type BenchOptions } from './execute/test-bench.js'
import { compiledLayout, type CompiledLayout } from './launch/compiled-tests.js'
import { makeRunnerFolder } from './frameworks/runner-folder.js'
import { buildTrees, preFixSources, prepareTrees, type Trees } from './execute/trees.js'
import { ADAPTERS, frameworkFor, wrapperFor } from './frameworks/detect.js'
import { captureLaunch } from './launch/capture.js'
import { commandToCapture } from './launch/test-command.js'
import { captureTrees, type CapturedRunner, type NotCaptured } from './launch/tree-launches.js'
import { withPackageBins } from './execute/tree-command.js'
import type { ProcessRunner } from './ports/process.js'
import { elapsed } from './ports/progress.js'
import { describeWrapper } from './frameworks/wrapper.js'
import { readCollection, UNKNOWN_COLLECTION, type Collection, type HeadTree } from './context/collection.js'
import { describeChangeSet, emptyReport, modelUsage, suiteFileEntry, type Report } from './report/report.js'
import { redactDeep, redactor } from './report/redact.js'
import { persistedCredentialsWarning } from './persisted-credentials.js'
import { RunDeadline } from './run-deadline.js'
import { writeReport, type ReportPaths } from './report/write.js'
import { generateSuite, type GeneratedSuite } from './suite/generate.js'
import { pullRequestTests } from './suite/pull-request-tests.js'
import { Timings } from './timings.js'
import { nothingToProve, nothingToVerify } from './verdict/applicability.js'
import { classifyTests, decideVerdict } from './verdict/classify.js'
import { diffCoverage, diffCoverageNote } from './verdict/diff-coverage.js'
import { withScenarios } from './verdict/scenarios.js'

export interface Ports {
  git: GitCommands
  /** Where the repository's commands (tests, builds, installs) run. */
  sandboxes: SandboxProvider
  /** Null in verify mode. */
  model: ModelPort | null
  ledger: UsageLedger
  log: Logger
  /** Keeps the pre-fix tree's install between runs; null: install each time. */
  dependencyCache: DependencyCache | null
}

export interface Outcome {
  report: Report
  paths: ReportPaths
  exitCode: 0 | 1 | 2
  /** The parsed diff, when the run got that far (the action annotates its hunks). */
  changeSet: ChangeSet | null
}

export async function runPipeline(settings: Settings, ports: Ports): Promise<Outcome> {
  const started = performance.now()
  // The run ends by its deadline: every sandboxed command and model call is bound by it.
  const deadline = new RunDeadline(settings.runTimeoutMinutes)
  ports = { ...ports, sandboxes: deadline.boundSandboxes(ports.sandboxes), model: ports.model && deadline.boundModel(ports.model) }
  const report = emptyReport(settings.mode, settings.repoDir, settings.base, settings.head)
  const timings = new Timings(report.timings)
  report.persistedCredentials = settings.persistedCredentials ?? []
  const credentialsWarning = persistedCredentialsWarning(report.persistedCredentials)
  if (credentialsWarning) ports.log.warn(credentialsWarning)
  const workDir = await makeWorkDir(settings.workDir)
  let sandbox: Sandbox | undefined
  const removeWorkDir = () => (sandbox ? sandbox.remove(workDir) : rmSync(workDir, { recursive: true, force: true }))
  // Interrupted (Ctrl-C, a cancelled job), a run still takes its worktrees' folder with it, and git's entries for them.
  const forgetWorkDir = onInterrupt(() => {
    try {
      removeWorkDir()
    } finally {
      sandbox?.close()
      ports.git.forgetWorktreesUnderSync(workDir)
    }
  })
  let delivered: SuiteFile[] = []
  // The tests that confirm what the fix may still get wrong: apart from the suite.
  let concernFiles: SuiteFile[] = []
  let parsedDiff: ChangeSet | null = null
  let trees: Trees | undefined
  let collection: Collection | null = null
  try {
    await ports.git.verifyRepository()
    await timings.time('fetch-history', () => ensureHistory(ports.git, settings.base, settings.head, ports.log))
    const diff = await timings.time('diff', () => readChangeSet(ports.git, settings.base, settings.head))
    parsedDiff = diff
    report.repository = { dir: settings.repoDir, base: diff.base, head: diff.head, mergeBase: diff.mergeBase }
    report.changedFiles = describeChangeSet(diff)
    report.generatedFiles = generatedFiles(diff)
    if (report.generatedFiles.length) ports.log.info(`Generated (.gitattributes), not part of the fix: ${briefList(report.generatedFiles)}`)
    // Before the framework, the sandbox, the trees and any model call: a change with nothing to prove ends here.
    endIfNotApplicable(nothingToProve(diff))
    const detected = await packageFramework(settings)
    let framework = detected.adapter
    const headTree = { read: (path: string) => ports.git.fileAt(diff.head, path), files: await ports.git.listFiles(diff.head) }
    let collectionFromFiles = await readCollection(framework.name, headTree, { packageDir: settings.tests.workingDirectory })
    const { changeSet, moved } = withCollectedTests(diff, (path) => collectionFromFiles.collects(path))
    if (moved.length) ports.log.info(`Tests by the repository's own rules (${collectionFromFiles.source}): ${moved.join(', ')}`)
    parsedDiff = changeSet
    report.changedFiles = describeChangeSet(changeSet)
    report.framework = framework.name
    let wrapper = wrapperFor(join(settings.repoDir, settings.tests.workingDirectory), framework, settings.tests.command)
    report.runnerWrapper = wrapper && describeWrapper(wrapper)
    const through = wrapper ? ` through \`${describeWrapper(wrapper)}\` (its own configuration)` : ''
    ports.log.info(`${changeSet.files.length} changed file(s); framework ${framework.name}${through}; mode ${settings.mode}`)
    if (settings.mode === 'verify') endIfNotApplicable(nothingToVerify(changeSet))
    sandbox = await openSandbox(settings, ports, workDir, report)
    trees = await timings.time('prepare-trees', () => setUpTrees(settings, ports, sandbox!, changeSet, join(workDir, 'trees')))
    report.preFixTree = { reverted: trees.reverted, dependencies: trees.preFixDependencies }
    const { tests } = settings
    const scratchDir = join(workDir, 'runs')
    const buildEachTree = (build: TreeBuild) => {
      ports.log.info(`Build: ${commandText(build.command)} in each tree (${build.why})`)
      return timings.time('build', () => buildTrees(trees!, build.command, tests.workingDirectory, sandbox!.processes, settings.testTimeoutMs, ports.log))
    }
    // The build-command setting runs first; then each tree's own test command shows how its tests run.
    let build: TreeBuild | null = tests.buildCommand && { command: tests.buildCommand, why: 'the build-command setting', detected: false }
    if (build) await buildEachTree(build)
    const runner = await timings.time('capture', () => captureRunner(settings, ports, sandbox!, trees!, scratchDir))
    report.runner = runner && runnerReport(runner, trees.head)
    const captured = runner && 'head' in runner ? runner : null
    const launches = captured && { head: captured.head, preFix: captured.preFix }
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
      build = await buildForTrees(null, trees.head, tests.workingDirectory, () => ports.git.listFiles(changeSet.head), { onlyImports: launches !== null })
      if (build) await buildEachTree(build)
    }
    report.build = build && { command: commandText(build.command), why: build.why, detected: build.detected }
    const compiled = captured && (await compiledTests(captured, { trees, settings, ports, sandbox, scratchDir, files: headTree.files }))
    if (report.runner) report.runner.compiledTests = compiled && { outputDir: compiled.layout.outputDir, how: compiled.layout.how }
    const bench = new TestBench(trees, framework, sandbox, {
      scratchDir,
      timeoutMs: settings.testTimeoutMs,
      packageDir: tests.workingDirectory,
      command: tests.command,
      wrapper,
      launches,
      compiled,
      network: settings.network,
      log: ports.log
    })
    // Before any model call: a repository whose tests cannot run here ends now, saying why.
    const preflightRun = await timings.time('preflight', () => preflight(bench, changeSet, framework, settings.mode, ports))
    report.preflight = preflightRun?.preflight ?? null
    report.runnerWrapper = bench.wrapper && describeWrapper(bench.wrapper)
    if (report.preflight && !report.preflight.ok) throw withUncapturedRunner(preflightFailure(report.preflight), report.runner)

    const ownRules = await timings.time('collection', () => repositoryCollection(bench, framework, collectionFromFiles, headTree, tests.workingDirectory))
    const collected = compiled ? throughBuild(ownRules, compiled.layout) : ownRules
    collection = collected
    ports.log.info(`The repository's own tests: ${collected.source ?? 'their collection rules could not be read'}`)
    // A test file by the framework's conventions, or by the repository's own rules.
    const isTestFile = (path: string) => framework.isTestFile(path) || collected.collects(path) === true
    const candidate =
      settings.mode === 'verify'
        ? { files: await pullRequestTests(changeSet, { name: framework.name, isTestFile }, ports.git), refiner: null, concerns: null }
        : await generate(settings, ports, changeSet, { framework, collection: collected, bench, runtime: preflightRun?.run.runtime ?? null }, timings, report)
    const proof = await proveSuite(bench, candidate.files, {
      refiner: candidate.refiner,
      repairRounds: settings.repairRounds,
      reruns: settings.reruns,
      installFiles: settings.mode === 'generate',
      // Verify mode on the preflight's own file: its run at head is the suite's first.
      firstHeadRun: preflightRun && { files: [preflightRun.preflight.file], run: preflightRun.run },
      timings,
      report,
      log: ports.log
    })
    delivered = proof.kept
    report.suite.dropped = proof.dropped
    // A run killed at the deadline proves nothing: no verdict comes from it.
    deadline.check()
    throwIfPreFixRunnerFailed(proof.preFixRun)
    const verdict = decideVerdict(classifyTests(proof.headRun, proof.preFixRun), proof.headRun.fileErrors)
    Object.assign(report, { verdict: verdict.verdict, reason: verdict.reason, tests: withScenarios(verdict.tests, delivered) })
    report.diffCoverage = diffCoverage(changeSet, proof.headRun.coverage, await headLines(ports.git, changeSet))
    report.diffCoverageNote = diffCoverageNote(changeSet, proof.headRun.coverage)
    if (!proof.headRun.coverage && proof.headRun.tests.length > 0) {
      report.diffCoverageNote = `not measured: ${framework.name} collected no coverage here; it needs ${framework.coverageNeeds}`
    }
    if (report.diffCoverageNote) ports.log.info(`Diff coverage ${report.diffCoverageNote}`)
    if (candidate.concerns && report.verdict !== 'error') {
      const checked = await checkFixConcerns(bench, candidate.concerns, { taken: delivered.map((file) => file.path), timings, log: ports.log })
      report.fixConcerns = checked.confirmed
      concernFiles = checked.files
    }
    report.hunks = await timings.time('hunks', () => hunkGuards(changeSet, report.tests, { trees: trees!, bench, build, runner: captured, scratchDir, settings, sandbox: sandbox!, ports }))
  } catch (error) {
    if (error instanceof NotApplicable) {
      Object.assign(report, { verdict: 'not-applicable', reason: error.reason })
    } else {
      // Whatever failed once the deadline had passed, failed because of it.
      Object.assign(report, { verdict: 'error', reason: describeError(deadline.passed() ? deadline.error() : error) })
      ports.log.error(`regression-testgen could not finish: ${report.reason}`)
    }
  } finally {
    // Whatever is left behind, the report is still written; the commands killed at the deadline end first.
    if (deadline.passed()) await deadline.settled()
    deadline.dispose()
    await Promise.resolve(trees?.dispose())
      .then(removeWorkDir)
      .catch((error) => ports.log.warn(`Could not remove the run's folder ${workDir}: ${describeError(error)}`))
    // The folders the sandbox opened above the checkout get their modes back.
    for (const note of sandbox?.close() ?? []) ports.log.info(`Sandbox: ${note}`)
    forgetWorkDir()
  }
  report.suite.files = delivered.map((file) => suiteFileEntry(file, collection, settings.mode === 'generate'))
  for (const file of report.suite.files.filter((entry) => entry.unconfirmed.length)) {
    ports.log.warn(`${file.path}: the model left ${file.unconfirmed.length} TODO: confirm (something it could not see): ${file.unconfirmed.join('; ')}`)
  }
  report.model = modelUsage(settings.model?.model ?? null, ports.ledger)
  report.durationMs = Math.round(performance.now() - started)
  // An error's reason was just logged as an error.
  ports.log.info(`verdict: ${report.verdict}${report.reason && report.verdict !== 'error' ? ` (${report.reason})` : ''}`)
  // Everything written or posted from here on (files, summary, comment, annotations) comes from these.
  const redact = redactor(settings.secrets)
  const safeReport = redactDeep(report, redact)
  const paths = await writeReport(settings.outDir, safeReport, redactDeep(delivered, redact), redactDeep(concernFiles, redact))
  const exitCode = exitCodeFor(report.verdict, settings.onNoFailToPass, { fixConcerns: report.fixConcerns.length, onFixConcern: settings.onFixConcern })
  return { report: safeReport, paths, exitCode, changeSet: parsedDiff }
}

/** `fixConcerns`: how many concerns a test confirmed; with on-fix-concern `fail`, any makes a passing run exit 1. */
export function exitCodeFor(verdict: VerdictName, onNoFailToPass: OnNoFailToPass, concerns: { fixConcerns: number; onFixConcern: OnFixConcern } = { fixConcerns: 0, onFixConcern: 'warn' }): 0 | 1 | 2 {
  if (verdict === 'error') return 2
  // Nothing to prove is no failure, whatever on-no-fail-to-pass says.
  if (verdict === 'not-applicable') return 0
  if (concerns.onFixConcern === 'fail' && concerns.fixConcerns > 0) return 1
  if (verdict === 'fail-to-pass') return 0
  return onNoFailToPass === 'warn' ? 0 : 1
}

/** Ends the run as `not-applicable` (the one catch makes it the verdict) when there is a reason. */
function endIfNotApplicable(reason: string | null): void {
  if (reason) throw new NotApplicable(reason)
}

/** A fixed folder (emptied first) keeps tree paths the same from run to run, as a path-keyed cache needs. */
async function makeWorkDir(fixed: string | null): Promise<string> {
  if (!fixed) return mkdtemp(join(tmpdir(), 'regression-testgen-'))
  await rm(fixed, { recursive: true, force: true })
  await mkdir(fixed, { recursive: true })
  return fixed
}

/**
 * The sandbox comes first: model-written tests never run unisolated unless the user allowed it, and that
 * is known before a token is spent.
 */
async function openSandbox(settings: Settings, ports: Ports, workDir: string, report: Report): Promise<Sandbox> {
  const dependencies = await installedDependencyFolders(settings.repoDir, settings.tests.workingDirectory)
  // The checkout's git config as the sandbox's commands see it: without the credentials a checkout left.
  const gitConfig = await ports.git.credentialFreeConfig(workDir)
  const sandbox = await ports.sandboxes.open(workDir, [settings.repoDir, ...dependencies], gitConfig)
  Object.assign(report, { isolation: sandbox.isolation, isolationDetail: sandbox.detail, network: testNetwork(settings, sandbox) })
  for (const note of sandbox.notes) ports.log.info(`Sandbox: ${note}`)
  if (sandbox.isolation === 'sandbox') {
    ports.log.info(`Sandbox: the repository's code runs as ${sandbox.detail}`)
  } else if (settings.mode === 'generate' && !settings.allowUnisolatedTests) {
    throw new UserFacingError(
      `Refusing to run model-written tests without a sandbox: ${sandbox.detail}`,
      'run on Linux as root or with passwordless sudo (as GitHub-hosted runners have), or set allow-unisolated-tests: true (CLI: --allow-unisolated-tests) to run them as your own user'
    )
  } else {
    ports.log.warn(`No sandbox: the repository's code runs as this user (${sandbox.detail})`)
  }
  ports.log.info(`Network: the tests ${report.network.tests === 'loopback-only' ? 'reach only loopback' : 'have the network'} (${report.network.why})`)
  return usePackageManagers(sandbox, settings.repoDir, settings.tests.workingDirectory, join(workDir, 'package-managers'), ports.log)
}

/** What the tests may reach: only loopback in the sandbox, unless the user let them have the network. */
function testNetwork(settings: Settings, sandbox: Sandbox): Report['network'] {
  if (settings.network) return { tests: 'open', why: 'network: true (--network) lets them reach it' }
  if (sandbox.isolatesNetwork) return { tests: 'loopback-only', why: 'they run in their own network namespace with only loopback up; installs and builds keep the network' }
  const why = sandbox.isolation === 'sandbox' ? 'this machine cannot give them a network namespace with loopback (see the isolation detail)' : 'there is no sandbox to take it away'
  return { tests: 'open', why }
}

async function setUpTrees(settings: Settings, ports: Ports, sandbox: Sandbox, changeSet: ChangeSet, dir: string): Promise<Trees> {
  const { installCommand, workingDirectory } = settings.tests
  const trees = await prepareTrees(ports.git, changeSet, dir, { sandbox, timeoutMs: settings.testTimeoutMs, installCommand, packageDir: workingDirectory, cache: ports.dependencyCache, log: ports.log })
  ports.log.info(`Pre-fix tree: reverted ${trees.reverted.join(', ') || 'nothing'}; dependencies ${trees.preFixDependencies}`)
  if (trees.preFixInstallError) {
    ports.log.warn(`The pre-fix tree runs on the head's dependencies: its own install failed (${trees.preFixInstallError}). If the fix is the dependency change, nothing can fail before it; set install-command to install them`)
  }
  return trees
}

/** The test bench the suite will run on: the framework, which files its command collects, and the trees. */
interface TestSetup {
  framework: FrameworkAdapter
  collection: Collection
  bench: TestBench
  /** What ran the preflight (RunResult.runtime), when the adapter said. */
  runtime: string | null
}

async function generate(settings: Settings, ports: Ports, changeSet: ChangeSet, { framework, collection, bench, runtime }: TestSetup, timings: Timings, report: Report): Promise<GeneratedSuite> {
  if (!ports.model || !settings.model) throw new UserFacingError('Generate mode needs a model', 'set ANTHROPIC_API_KEY, or use verify mode')
  return generateSuite(changeSet, settings.bugReport, {
    git: ports.git,
    model: ports.model,
    framework,
    timings,
    report,
    log: ports.log,
    collection,
    reader: repositoryReader(settings.model, settings, ports, changeSet),
    packageDir: settings.tests.workingDirectory,
    testRuntime: runtime,
    checkImports: (context) => checkImports(bench, framework, context, ports.log)
  })
}

/**
 * What the model may read before each answer: the tracked files at head and as the pre-fix tree has them,
 * and the installed packages the tests run with.
 */
function repositoryReader(model: ModelSettings, settings: Settings, ports: Ports, changeSet: ChangeSet): RepositoryReader | null {
  if (model.toolRounds === 0) return null
  const installed = createInstalledPackages(settings.repoDir, settings.tests.workingDirectory)
  const view = createRepositoryView(ports.git, { head: changeSet.head, preFix: preFixSources(changeSet), installed })
  return createRepositoryReader({
    tools: REPOSITORY_TOOLS,
    run: (name, input) => runRepositoryTool(view, name, input),
    rounds: model.toolRounds,
    maxCalls: model.maxCalls,
    ledger: ports.ledger,
    log: ports.log
  })
}

/**
 * Which test guards which hunk of the fix, within one test timeout. It only adds to a verdict already
 * reached: a failure here costs a warning, never the report.
 */
async function hunkGuards(
  changeSet: ChangeSet,
  tests: ClassifiedTest[],
  context: { trees: Trees; bench: TestBench; build: TreeBuild | null; runner: CapturedRunner | null; scratchDir: string; settings: Settings; sandbox: Sandbox; ports: Ports }
): Promise<HunkGuard[] | null> {
  const { trees, bench, build, runner, settings, sandbox, ports } = context
  // A hunk tree builds as the others did: the build setting or detected build, and what its test command runs before the runner.
  const prepare = async (root: string) => {
    if (build) await runTreeCommand(sandbox.processes, expandCommand(build.command, [], []), join(root, settings.tests.workingDirectory), settings.testTimeoutMs, 'The build of a hunk tree', ports.log)
    if (runner?.head.launch.beforeRunner.length) {
      await captureLaunch(join(root, runner.choice.dir), runner.choice.command, treeProcesses(sandbox), { scratchDir: join(context.scratchDir, 'capture-hunk'), timeoutMs: settings.testTimeoutMs, network: true })
    }
  }
  try {
    return await guardHunks(changeSet, tests, { git: ports.git, trees, bench, prepare, deadline: Date.now() + settings.testTimeoutMs, log: ports.log })
  } catch (error) {
    ports.log.warn(`Could not tell which test guards which hunk: ${describeError(error)}`)
    return null
  }
}

/**
 * The package's framework as its files show it; a workspace package with none of its own (no test script,
 * no runner config) is tested by the root's test command. Where no files show one but there is a test
 * command to ask (`make test`, test-command without `{files}`), a stand-in until the capture names the
 * runner; `undetected` is the detection's error, for a capture that names none.
 */
async function packageFramework(settings: Settings): Promise<{ adapter: FrameworkAdapter; undetected: unknown }> {
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
async function captureRunner(settings: Settings, ports: Ports, sandbox: Sandbox, trees: Trees, scratchDir: string): Promise<CapturedRunner | NotCaptured | null> {
  const { tests } = settings
  const choice = commandToCapture(settings.repoDir, tests.workingDirectory, tests.command)
  if (!choice) return null
  const runner = await captureTrees(trees, choice, treeProcesses(sandbox), { packageDir: tests.workingDirectory, scratchDir, timeoutMs: settings.testTimeoutMs, log: ports.log })
  if ('reason' in runner) {
    ports.log.warn(`Runner: \`${choice.command}\` (${choice.source}) ${runner.reason}\nGoing on with the runner detected from the repository's files`)
    return runner
  }
  const { launch, runDir, durationMs } = runner.head
  if (!ADAPTERS.some((adapter) => adapter.name === launch.runner)) {
    throw new UserFacingError(`The repository's test command runs ${launch.runner}, which regression-testgen cannot run yet (${launch.via.join(' → ')})`, `supported: ${ADAPTERS.map((adapter) => adapter.name).join(', ')}`)
  }
  if (tests.framework && tests.framework !== launch.runner) {
    const reason = `it runs ${launch.runner}, not the framework setting's ${tests.framework}: the setting wins`
    ports.log.info(`Runner: \`${choice.command}\` ${reason}`)
    return { choice, reason, durationMs }
  }
  const before = launch.beforeRunner.map((step) => `${step.command}${step.durationMs === null ? '' : ` (${elapsed(step.durationMs)})`}`)
  ports.log.info(`Runner: ${launch.via.join(' → ')} in ${runDir || 'the root'}, asked in ${elapsed(durationMs)}${before.length ? `; before it ran: ${before.join(', ')}` : ''}`)
  return runner
}

/**
 * Where the captured runner runs compiled tests (`tsc && mocha` with `spec: dist/**\/*.test.js`): how source
 * tests map to what it runs, and the rebuild after a suite is written — the test command again, up to its
 * runner. Null when it runs tracked source.
 */
async function compiledTests(runner: CapturedRunner, context: { trees: Trees; settings: Settings; ports: Ports; sandbox: Sandbox; scratchDir: string; files: readonly string[] }): Promise<NonNullable<BenchOptions['compiled']> | null> {
  const { trees, settings, ports, sandbox, scratchDir } = context
  const layout = await compiledLayout(trees.head, runner.head.launch, { trackedFiles: [...context.files], ignored: (path) => ports.git.isIgnored(path) })
  if (!layout) return null
  ports.log.info(`Compiled tests: the runner collects ${layout.outputDir}/ (${layout.how}); each test runs from its compiled file, the build rerun once a suite is written`)
  const rebuild = async (treeRoot: string) => {
    const rebuildDir = join(scratchDir, 'capture-rebuild')
    await makeRunnerFolder(rebuildDir)
    const again = await captureLaunch(join(treeRoot, runner.choice.dir), runner.choice.command, treeProcesses(sandbox), { scratchDir: rebuildDir, timeoutMs: settings.testTimeoutMs, network: true })
    if (!again.launch) ports.log.warn(`The build before the runner failed once the suite was written (${runner.choice.command}); its output ends:\n${again.outputTail.slice(-1500)}`)
  }
  return { layout, rebuild }
}

/** Collection of compiled tests: a source test is collected when the file it compiles to is. */
function throughBuild(rules: Collection, layout: CompiledLayout): Collection {
  const collects = (path: string) => {
    const compiledPath = layout.compiledPath(path)
    return compiledPath ? layout.collects(compiledPath) : rules.collects(path)
  }
  return { source: `${layout.outputDir}/, compiled from the sources (${layout.how})`, collects }
}

/**
 * A preflight that failed with a detected runner, where the test command started none the tool knows: that
 * is the likelier cause (a script the capture could not follow, a step that failed before its runner).
 */
function withUncapturedRunner(error: UserFacingError, runner: Report['runner']): UserFacingError {
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
  return { ...asked, captured: true, runner: launch.runner, via: launch.via, argv: launch.argv.map(inTree), execArgv: launch.execArgv.map(inTree), cwd: runDir, env: launch.env, beforeRunner: launch.beforeRunner, durationMs, reason: null }
}

/**
 * Which files the repository's own test command collects: as its configuration files say, else (a
 * JavaScript config, a wrapper's hidden one) as the runner itself reports it in the head tree.
 */
async function repositoryCollection(bench: TestBench, framework: FrameworkAdapter, fromFiles: Collection, headTree: HeadTree, packageDir: string): Promise<Collection> {
  // A wrapper's configuration is not in the repository's files: they would give the runner's defaults.
  if (fromFiles.source && !bench.wrapper) return fromFiles
  const resolved = await bench.resolveConfig()
  return resolved ? readCollection(framework.name, headTree, { packageDir, resolved }) : UNKNOWN_COLLECTION
}

async function preflight(bench: TestBench, changeSet: ChangeSet, framework: FrameworkAdapter, mode: Mode, ports: Ports): Promise<PreflightRun | null> {
  const candidates = preflightCandidates(changeSet, await ports.git.listFiles(changeSet.head), framework, mode)
  if (candidates.length === 0) {
    ports.log.info('Preflight: the repository has no test file to try; going on')
    return null
  }
  const retry = async (file: string) => (bench.wrapper ? withoutWrapper(bench, file, framework, ports) : null)
  const kept = await searchPreflight(bench, candidates, { retry, log: ports.log })
  const { file, detail, command, tried } = kept.preflight
  const after = tried.length > 1 ? `, after ${tried.slice(0, -1).map((attempt) => attempt.file).join(', ')} yielded none` : ''
  if (kept.preflight.ok) ports.log.info(`Preflight: ${file} runs here (${detail}${after}): ${command}`)
  return kept
}

/**
 * A wrapper CLI that gave no results for one file may not pass the runner's arguments on (ts-scripts
 * `test` runs its own checks, then the whole suite): the runner itself is tried, and kept if it runs it.
 * Its run is returned either way (whose failure it was tells the preflight whether to try another file).
 */
async function withoutWrapper(bench: TestBench, file: string, framework: FrameworkAdapter, ports: Ports): Promise<PreflightRun> {
  const wrapper = bench.wrapper
  bench.wrapper = null
  const direct = await runPreflight(bench, file)
  if (!direct.preflight.ok) {
    bench.wrapper = wrapper
    return direct
  }
  ports.log.info(`Preflight: \`${describeWrapper(wrapper!)}\` gave no results for ${file}, ${framework.name} itself does: ${framework.name} runs directly`)
  return direct
}

/** A pre-fix run the runner itself could not do proves nothing: every test "failing" there would be a false proof. */
function throwIfPreFixRunnerFailed(preFixRun: RunResult | null): void {
  const failure = preFixRun && runnerFailure(preFixRun)
  if (failure) throw new UserFacingError(`The pre-fix tree's run could not run any test: ${failure.what} (${failure.evidence})`, failure.hint)
}

async function headLines(git: GitCommands, changeSet: ChangeSet): Promise<(file: string) => string[]> {
  const sources = sourceFiles(changeSet).filter((file) => file.status !== 'deleted')
  const contents = new Map(await Promise.all(sources.map(async (file) => [file.path, ((await git.fileAt(changeSet.head, file.path)) ?? '').split('\n')] as const)))
  return (file) => contents.get(file) ?? []
}
