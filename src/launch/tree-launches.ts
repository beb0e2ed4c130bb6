/**
 * The runner as each tree's own test command starts it. The command runs once per tree in the sandbox,
 * with the capture's preloads: what it runs before the runner (its build, a `pretest`) runs for real there —
 * that pass is the tree's build — and the runner itself stops before any test. Every test run of the tree
 * is then that launch with its own files (runner-command.ts).
 */
import { join, relative, sep } from 'node:path'
import { UserFacingError } from '../errors.js'
import { ADAPTERS } from '../frameworks/detect.js'
import { treeRoots } from '../frameworks/paths.js'
import { makeRunnerFolder } from '../frameworks/runner-folder.js'
import type { Logger } from '../ports/logger.js'
import type { ProcessRunner } from '../ports/process.js'
import { withProgress } from '../ports/progress.js'
import { isWithin } from '../paths.js'
import { captureLaunch } from './capture.js'
import type { Launch } from './launch.js'
import { launchTemplate, ownSelection, rebaseTemplate } from './runner-command.js'
import { whyCaptureAgain } from './pre-fix-launch.js'
import type { CommandToCapture } from './test-command.js'

export interface TreeLaunch {
  launch: Launch
  /** The test-command template the adapters run (RunRequest.command). */
  command: string[]
  /** The runner's working folder, tree-relative ('' for the root): a run's files are given relative to it. */
  runDir: string
  durationMs: number
}

export interface CapturedRunner {
  choice: CommandToCapture
  head: TreeLaunch
  preFix: TreeLaunch
  /** Why the pre-fix tree's command started no runner (its build failed), when it did not: then `preFix` is the head's launch, moved there. */
  preFixStopped?: string
}

/** The capture at head found no runner: why, for the log and the report. */
export interface NotCaptured {
  choice: CommandToCapture
  reason: string
  durationMs: number
  /** The command ended well without starting a runner: it runs its tests some other way (or none), not a step that failed. */
  ranNoRunner: boolean
}

export interface CaptureTreesOptions {
  /** The package whose tests run, tree-relative. */
  packageDir: string
  /** The run's folder for runner scratch folders (the test bench's). */
  scratchDir: string
  timeoutMs: number
  log: Logger
  /** jest's resolved configuration is needed (capture.ts `showConfig`): asked of the head's capture only, the one the collection reads. */
  showConfig?: boolean
}

/**
 * Captures at head, then in the pre-fix tree unless nothing the fix reverts can change how its runner starts
 * (pre-fix-launch.ts): then the head's launch, moved there, is the pre-fix tree's. A pre-fix tree whose
 * command starts no runner fails the run, as its failed build would.
 */
export async function captureTrees(trees: { head: string; preFix: string; reverted: string[] }, choice: CommandToCapture, processes: ProcessRunner, options: CaptureTreesOptions): Promise<CapturedRunner | NotCaptured> {
  const head = await captureTree(trees.head, 'head', choice, processes, options)
  if ('reason' in head) return { choice, ...head }
  if (!whyCaptureAgain(head.launch, trees.reverted)) {
    options.log.info(`The pre-fix tree starts its runner as the head does (the fix reverts nothing that decides how): ${choice.command} is not asked again there`)
    return { choice, head, preFix: await launchIn(head, trees.head, trees.preFix) }
  }
  const preFix = await captureTree(trees.preFix, 'pre-fix', choice, processes, options, head)
  if (!('reason' in preFix)) return { choice, head, preFix }
  // The pre-fix code (with the change's tests) may not build: a type check of a test that uses what the fix
  // added. Its tests still run, as the head's launch, on what its build left; a test that cannot load there
  // is a weak proof at best, and the verdict says so.
  options.log.warn(`The pre-fix tree's test command (${choice.command}) stopped before its runner: ${preFix.reason}\nIts tests run as at head, on what its build left`)
  return { choice, head, preFix: await launchIn(head, trees.head, trees.preFix), preFixStopped: preFix.reason }
}

async function captureTree(treeRoot: string, name: string, choice: CommandToCapture, processes: ProcessRunner, options: CaptureTreesOptions, like?: TreeLaunch): Promise<TreeLaunch | Omit<NotCaptured, 'choice'>> {
  const scratchDir = join(options.scratchDir, `capture-${name}`)
  await makeRunnerFolder(scratchDir)
  // Builds before the runner may fetch (as the tree's build does): the network is theirs; the tests stop before running.
  const captured = await withProgress(options.log, `Asking ${name === 'head' ? 'the head' : 'the pre-fix'} tree how it runs its tests: ${choice.command}`, () =>
    captureLaunch(join(treeRoot, choice.dir), choice.command, processes, { scratchDir, timeoutMs: options.timeoutMs, network: true, showConfig: !like && options.showConfig })
  )
  if (!captured.launch && captured.unsupported) {
    throw new UserFacingError(`The repository's test command (${choice.command}) runs ${captured.unsupported}, which regression-testgen cannot run yet`, `supported: ${ADAPTERS.map((adapter) => adapter.name).join(', ')}`)
  }
  if (!captured.launch) {
    const how = captured.timedOut ? `timed out after ${options.timeoutMs} ms` : `exit ${captured.exitCode ?? 'none'}`
    const ranNoRunner = captured.exitCode === 0 && !captured.timedOut
    return { reason: `started no test runner regression-testgen knows (${how}); its output ends:\n${captured.outputTail.slice(-1500)}`, durationMs: captured.durationMs, ranNoRunner }
  }
  const roots = await treeRoots(treeRoot)
  const launches = [captured.launch, ...captured.later].map((launch) => ({ launch, runDir: treeRelative(launch.cwd, roots) }))
  const chosen = like ? launches.find((entry) => entry.launch.runner === like.launch.runner && entry.runDir === like.runDir) : packageLaunch(launches, options.packageDir)
  if (!chosen || chosen.runDir === null) return { reason: `started its runner (${captured.launch.runner} in ${captured.launch.cwd}) outside the tree`, durationMs: captured.durationMs, ranNoRunner: false }
  return { launch: chosen.launch, command: launchTemplate(chosen.launch), runDir: chosen.runDir, durationMs: captured.durationMs }
}

/**
 * Of the runners one command started (a workspace root's script starts one per package), the package's
 * own: the one working in the package folder, else in a folder above it (a root configuration that
 * collects the package's tests), else the first.
 */
export function packageLaunch<T extends { launch: Launch; runDir: string | null }>(launches: T[], packageDir: string): T | undefined {
  const inside = (entry: T) => entry.runDir !== null && (entry.runDir === '' || packageDir === entry.runDir || packageDir.startsWith(`${entry.runDir}/`))
  const atPackage = launches.filter((entry) => entry.runDir === packageDir)
  const above = launches.filter(inside)
  return broadest(atPackage.length ? atPackage : above.length ? above : launches)
}

/** The launch that names the fewest files itself (the run on everything, not one time zone's run on one file); the first of equals. */
function broadest<T extends { launch: Launch }>(launches: T[]): T | undefined {
  return launches.reduce<T | undefined>((best, entry) => (best === undefined || ownSelection(entry.launch) < ownSelection(best.launch) ? entry : best), undefined)
}

/** `cwd` as a tree-relative, '/'-separated folder; null outside the tree. */
function treeRelative(cwd: string, roots: string[]): string | null {
  const root = roots.find((candidate) => isWithin(cwd, candidate))
  return root === undefined ? null : relative(root, cwd).split(sep).join('/')
}

/** The head's launch in another tree (a hunk's variant): the head's paths, as given and as real paths, become the tree's. */
export async function launchIn(head: TreeLaunch, headRoot: string, treeRoot: string): Promise<TreeLaunch> {
  const roots = [...new Set(await treeRoots(headRoot))]
  return { ...head, command: roots.reduce((command, root) => rebaseTemplate(command, root, treeRoot), head.command) }
}
