/**
 * The one place that knows the stage order:
 * diff → (verify: the PR's tests | generate: bug report → context → model) → trees → prove → verdict → report.
 * Whatever happens, a report is written: a failure becomes verdict `error` with its reason.
 */
import { rmSync } from 'node:fs'
import { mkdir, mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import type { ChangeSet, ClassifiedTest, ContextPack, ImportLine, RunResult, SuiteFile, VerdictName } from './domain.js'
import { dependencyLinks, installedDependencyFolders, type DependencyCache, type DependencyLinks } from './execute/dependencies.js'
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
import type { SuiteDestination } from './deliver/delivery.js'
import { deliverSuite } from './deliver/stage.js'
import type { ModelSettings, Mode, OnFixConcern, OnNoFailToPass, Settings } from './settings.js'
import { generatedFiles, readChangeSet, sourceFiles, withCollectedTests } from './diff/change-set.js'
import { briefList } from './diff/generated.js'
import { ensureHistory } from './diff/history.js'
import { describeError, NotApplicable, UserFacingError } from './errors.js'
import type { TreeBuild } from './execute/build-detection.js'
import { checkFixConcerns } from './execute/concerns.js'
import { guardHunks, type HunkGuard } from './execute/hunk-guards.js'
import { runTreeCommand } from './execute/tree-command.js'
import { usePackageManagers } from './execute/package-manager-shims.js'
import { expandCommand } from './frameworks/command.js'
import { runnerFailure } from './execute/outside-failure.js'
import { checkImports, importCheckFiles, runImportCheck, type ImportCheckRuns } from './execute/import-check.js'
import { checkBySpelling, firstSpellings } from './context/way-in.js'
import { preflightCandidates, preflightFailure, runPreflight, searchPreflight, type PreflightRun } from './execute/preflight.js'
import { proveSuite } from './execute/prove.js'
import { repositoryTidy } from './execute/tidy/repository-tidy.js'
import { TestBench } from './execute/test-bench.js'
import { preFixSources, prepareTrees, type TreeOptions, type Trees } from './execute/trees.js'
import { wrapperFor } from './frameworks/detect.js'
import { buildAgain, packageFramework, prepareTestRuns, throughBuild, withUncapturedRunner } from './launch/test-runs.js'
import type { CapturedRunner } from './launch/tree-launches.js'
import { describeWrapper } from './frameworks/wrapper.js'
import { readCollection, UNKNOWN_COLLECTION, type Collection, type HeadTree } from './context/collection.js'
import { testRuntimeFacts } from './context/context.js'
import { describeChangeSet, emptyReport, modelUsage, suiteFileEntry, type Report } from './report/report.js'
import { costLine } from './report/cost-line.js'
import { redactDeep, redactor } from './report/redact.js'
import { persistedCredentialsWarning } from './persisted-credentials.js'
import { RunDeadline } from './run-deadline.js'
import { together } from './settled.js'
import { TestBudget } from './execute/test-budget.js'
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
  /** Pushes the proven suite (the action's GitHub); null: the CLI, which writes a patch or the working tree. */
  destination: SuiteDestination | null
}

export interface Outcome {
  report: Report
  paths: ReportPaths
  exitCode: 0 | 1 | 2
  /** The parsed diff, when the run got that far (the action annotates its hunks). */
  changeSet: ChangeSet | null
  /** The files delivered (or that suite.patch adds), redacted: the CLI's --apply writes them. */
  deliveredFiles: SuiteFile[]
}

export async function runPipeline(settings: Settings, ports: Ports): Promise<Outcome> {
  const started = performance.now()
  // The run ends by its deadline: every sandboxed command and model call is bound by it.
  const deadline = new RunDeadline(settings.runTimeoutMinutes)
  ports = { ...ports, sandboxes: deadline.boundSandboxes(ports.sandboxes), model: ports.model && deadline.boundModel(ports.model) }
  const report = emptyReport(settings.mode, settings.repoDir, settings.base, settings.head)
  // All test runs share one budget: past it, the optional ones are skipped (the required ones never).
  const budget = new TestBudget(settings.testBudgetMinutes, ports.log)
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
  let links: DependencyLinks | undefined
  let collection: Collection | null = null
  try {
    await ports.git.verifyRepository()
    // The trees' node_modules links, started first: hundreds of new files, made beside fetching and reading the diff.
    const runLinks = dependencyLinks(settings.repoDir, settings.tests.workingDirectory, join(workDir, 'trees'))
    links = runLinks
    timings.time('dependency-links', () => runLinks.made()).catch(() => undefined)
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
    const wrapper = wrapperFor(join(settings.repoDir, settings.tests.workingDirectory), framework, settings.tests.command)
    ports.log.info(`${changeSet.files.length} changed file(s); mode ${settings.mode}`)
    if (settings.mode === 'verify') endIfNotApplicable(nothingToVerify(changeSet))
    // git checks the trees out while the sandbox opens; they wait for it only to be shared with it. A sandbox
    // that does not open ends the run once they have settled (they fail then, and remove themselves).
    const opening = openSandbox(settings, ports, workDir, report)
    const checkingOut = setUpTrees(settings, ports, { sandbox: opening, links: runLinks }, changeSet, join(workDir, 'trees'))
    sandbox = await openedBeside(opening, checkingOut)
    // What the trees take after the sandbox (an install): the first of the repository's code to run.
    trees = await timings.time('prepare-trees', () => checkingOut)
    report.preFixTree = { reverted: trees.reverted, dependencies: trees.preFixDependencies }
    const { tests } = settings
    const scratchDir = join(workDir, 'runs')
    const runs = await prepareTestRuns({ settings, log: ports.log, git: ports.git, sandbox, trees, timings, report, headTree, changeSet, scratchDir, detected, wrapper, collectionFromFiles })
    framework = runs.framework
    collectionFromFiles = runs.collectionFromFiles
    const { launches, compiled, build, captured } = runs
    report.runnerWrapper = runs.wrapper && describeWrapper(runs.wrapper)
    const through = runs.wrapper ? ` through \`${describeWrapper(runs.wrapper)}\` (its own configuration)` : captured ? ', as the test command starts it' : ''
    ports.log.info(`Framework: ${framework.name}${through}`)
    const bench = new TestBench(trees, framework, sandbox, {
      scratchDir,
      timeoutMs: settings.testTimeoutMs,
      packageDir: tests.workingDirectory,
      command: tests.command,
      wrapper: runs.wrapper,
      launches,
      compiled,
      network: settings.network,
      budget,
      log: ports.log
    })
    // Before any model call: a repository whose tests cannot run here ends now, saying why. Where it cannot
    // drop a wrapper (which would change the collection read below), it waits for the files its first run can
    // take along in the same runner start: generate mode's import check, verify mode's whole suite.
    const shareStart = !bench.wrapper
    const preflightRun = shareStart ? null : await timings.time('preflight', () => preflight(bench, changeSet, framework, settings.mode, ports))
    if (!shareStart) keepPreflight(report, preflightRun, bench)

    const ownRules = await timings.time('collection', () => repositoryCollection(bench, framework, collectionFromFiles, headTree, tests.workingDirectory))
    const collected = compiled ? throughBuild(ownRules, compiled.layout) : ownRules
    collection = collected
    ports.log.info(`The repository's own tests: ${collected.source ?? 'their collection rules could not be read'}`)
    // A test file by the framework's conventions, or by the repository's own rules.
    const isTestFile = (path: string) => framework.isTestFile(path) || collected.collects(path) === true
    const candidate =
      settings.mode === 'verify'
        ? { files: await pullRequestTests(changeSet, { name: framework.name, isTestFile }, ports.git), refiner: null, concerns: null }
        : await generate(settings, ports, changeSet, {
            framework,
            collection: collected,
            bench,
            runtime: preflightRun?.run.runtime ?? null,
            preflight: shareStart ? async (written) => keepPreflight(report, await preflight(bench, changeSet, framework, settings.mode, ports, { written }), bench) : null
          }, timings, report)
    // Verify mode: the preflight's first file runs with the pull request's other tests, a run that is then the suite's first at head.
    const suite = candidate.files.map((file) => file.path)
    const headStart = settings.mode === 'verify' && shareStart ? keepPreflight(report, await timings.time('preflight', () => preflight(bench, changeSet, framework, 'verify', ports, { suite })), bench) : preflightRun
    const proof = await proveSuite(bench, candidate.files, {
      refiner: candidate.refiner,
      repairRounds: settings.repairRounds,
      reruns: settings.reruns,
      installFiles: settings.mode === 'generate',
      // Generate mode only: verify mode's files are the pull request's own, never touched.
      tidy: settings.mode === 'generate' ? await repositoryTidy({ head: headTree, treeRoot: trees.head, packageDir: tests.workingDirectory, processes: sandbox.processes, share: (dir) => sandbox!.share(dir), budget, log: ports.log }) : null,
      // Verify mode on the preflight's own files: its run at head is the suite's first.
      firstHeadRun: headStart && { files: [headStart.preflight.file, ...(headStart.beside?.present ?? [])], run: headStart.run },
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
    if (candidate.concerns && report.verdict !== 'error' && budget.allows('the fix-concern tests')) {
      const checked = await checkFixConcerns(bench, candidate.concerns, { taken: delivered.map((file) => file.path), timings, log: ports.log })
      report.fixConcerns = checked.confirmed
      concernFiles = checked.files
    }
    report.hunks = await timings.time('hunks', () => hunkGuards(changeSet, report.tests, { trees: trees!, bench, build, runner: captured, scratchDir, settings, sandbox: sandbox!, ports, budget }))
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
    // Links still being made when the run ended before its trees stop first: the folder goes after them.
    await links?.stop()
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
  report.testBudget = budget.report()
  report.durationMs = Math.round(performance.now() - started)
  // An error's reason was just logged as an error.
  ports.log.info(`verdict: ${report.verdict}${report.reason && report.verdict !== 'error' ? ` (${report.reason})` : ''}`)
  const cost = costLine(report.model)
  if (cost) ports.log.info(cost)
  // Everything written or posted from here on (files, summary, comment, annotations) comes from these.
  const redact = redactor(settings.secrets)
  const safeReport = redactDeep(report, redact)
  const [safeSuite, safeConcerns] = [redactDeep(delivered, redact), redactDeep(concernFiles, redact)]
  // After the verdict, on the redacted files: where the suite goes (a patch, a commit, a pull request, or only the artifact).
  const delivery = await deliverSuite({
    mode: settings.mode,
    deliver: settings.deliver,
    outDir: settings.outDir,
    links: settings.links,
    issueReferences: settings.bugReport.linkedIssues?.map((issue) => issue.reference) ?? [],
    report: safeReport,
    suite: safeSuite,
    concerns: safeConcerns,
    changeSet: parsedDiff,
    git: ports.git,
    destination: ports.destination,
    log: ports.log
  })
  safeReport.delivery = redactDeep(delivery.record, redact)
  const paths = await writeReport(settings.outDir, safeReport, safeSuite, safeConcerns)
  const exitCode = exitCodeFor(report.verdict, settings.onNoFailToPass, { fixConcerns: report.fixConcerns.length, onFixConcern: settings.onFixConcern })
  return { report: safeReport, paths, exitCode, changeSet: parsedDiff, deliveredFiles: delivery.files }
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

/** The sandbox once open; else its error, once the trees waiting for it have settled too. */
async function openedBeside(opening: Promise<Sandbox>, checkingOut: Promise<unknown>): Promise<Sandbox> {
  // The trees' error, if they fail after the sandbox opened, is theirs to throw where they are awaited.
  checkingOut.catch(() => undefined)
  try {
    return await opening
  } catch (error) {
    await checkingOut.catch(() => undefined)
    throw error
  }
}

/** What the tests may reach: only loopback in the sandbox, unless the user let them have the network. */
function testNetwork(settings: Settings, sandbox: Sandbox): Report['network'] {
  if (settings.network) return { tests: 'open', why: 'network: true (--network) lets them reach it' }
  if (sandbox.isolatesNetwork) return { tests: 'loopback-only', why: 'they run in their own network namespace with only loopback up; installs and builds keep the network' }
  const why = sandbox.isolation === 'sandbox' ? 'this machine cannot give them a network namespace with loopback (see the isolation detail)' : 'there is no sandbox to take it away'
  return { tests: 'open', why }
}

async function setUpTrees(settings: Settings, ports: Ports, made: Pick<TreeOptions, 'sandbox' | 'links'>, changeSet: ChangeSet, dir: string): Promise<Trees> {
  const { installCommand, workingDirectory } = settings.tests
  const trees = await prepareTrees(ports.git, changeSet, dir, { ...made, timeoutMs: settings.testTimeoutMs, installCommand, packageDir: workingDirectory, cache: ports.dependencyCache, log: ports.log })
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
  /** The preflight still to run, beside the import check's files (`written`), in one runner start; null: it ran. */
  preflight: ((written: SuiteFile[]) => Promise<PreflightRun | null>) | null
}

async function generate(settings: Settings, ports: Ports, changeSet: ChangeSet, setup: TestSetup, timings: Timings, report: Report): Promise<GeneratedSuite> {
  const { framework, collection, runtime } = setup
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
    checkImports: (context) => checkedContext(context, setup, timings, ports.log)
  })
}

/**
 * The context's ways in checked, each by its first spelling, the others only where that does not load
 * (context/way-in.ts checkBySpelling); where the preflight is still to run, its run at head holds the first
 * round's files, and their run on the pre-fix tree starts beside it (the two trees' runner starts overlap).
 */
async function checkedContext(context: ContextPack, { framework, bench, preflight }: TestSetup, timings: Timings, log: Logger): Promise<ContextPack> {
  const firstRound = importCheckFiles(framework, { ...context, imports: firstSpellings(context.imports) })
  const preFixRun = preflight && firstRound.length ? timings.time('import-check', () => runImportCheck(bench, 'preFix', firstRound)) : null
  const [kept, preFixFirst] = preflight ? await together(timings.time('preflight', () => preflight(firstRound)), preFixRun) : [null, null]
  let done: ImportCheckRuns | null = { head: kept?.beside ? kept.run : null, preFix: preFixFirst }
  const round = (imports: ImportLine[]) => {
    const runs = done ?? {}
    done = null
    return checkImports(bench, framework, { ...context, imports }, log, runs)
  }
  const imports = await timings.time('import-check', () => checkBySpelling(context.imports, round))
  return { ...context, imports, runtime: [...testRuntimeFacts(kept?.run.runtime ?? null), ...context.runtime] }
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
 * Which test guards which hunk of the fix, while the test budget allows. It only adds to a verdict already
 * reached: a failure here costs a warning, never the report.
 */
async function hunkGuards(
  changeSet: ChangeSet,
  tests: ClassifiedTest[],
  context: { trees: Trees; bench: TestBench; build: TreeBuild | null; runner: CapturedRunner | null; scratchDir: string; settings: Settings; sandbox: Sandbox; ports: Ports; budget: TestBudget }
): Promise<HunkGuard[] | null> {
  const { trees, bench, build, runner, settings, sandbox, ports, budget } = context
  // A hunk tree builds as the others did: the build setting or detected build, and what its test command runs before the runner.
  const prepare = async (root: string) => {
    if (build) await runTreeCommand(sandbox.processes, expandCommand(build.command, [], []), join(root, settings.tests.workingDirectory), settings.testTimeoutMs, 'The build of a hunk tree', ports.log)
    if (runner?.head.launch.beforeRunner.length) await buildAgain(runner, root, { sandbox, settings, scratchDir: context.scratchDir })
  }
  try {
    return await guardHunks(changeSet, tests, { git: ports.git, trees, bench, prepare, budget, log: ports.log })
  } catch (error) {
    ports.log.warn(`Could not tell which test guards which hunk: ${describeError(error)}`)
    return null
  }
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

/** The preflight in the report; a repository whose tests cannot run here ends the run, saying why. */
function keepPreflight(report: Report, kept: PreflightRun | null, bench: TestBench): PreflightRun | null {
  report.preflight = kept?.preflight ?? null
  report.runnerWrapper = bench.wrapper && describeWrapper(bench.wrapper)
  if (report.preflight && !report.preflight.ok) throw withUncapturedRunner(preflightFailure(report.preflight), report.runner)
  return kept
}

/**
 * The first candidate runs in one runner start with the `written` files (the import check's) and, when it
 * is one of the `suite`'s files (verify mode), with the suite's others.
 */
async function preflight(bench: TestBench, changeSet: ChangeSet, framework: FrameworkAdapter, mode: Mode, ports: Ports, along: { written?: SuiteFile[]; suite?: string[] } = {}): Promise<PreflightRun | null> {
  const candidates = preflightCandidates(changeSet, await ports.git.listFiles(changeSet.head), framework, mode)
  if (candidates.length === 0) {
    ports.log.info('Preflight: the repository has no test file to try; going on')
    return null
  }
  const { written = [], suite = [] } = along
  const present = suite.includes(candidates[0]) ? suite.filter((path) => path !== candidates[0]) : []
  const beside = written.length || present.length ? { written, present } : null
  const retry = async (file: string) => (bench.wrapper ? withoutWrapper(bench, file, framework, ports) : null)
  const kept = await searchPreflight(bench, candidates, { retry, log: ports.log, beside })
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
