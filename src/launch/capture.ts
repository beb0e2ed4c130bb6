/**
 * Capturing the runner: the repository's own test command (`npm test`, or the one given) runs once, through
 * the ProcessRunner port (the sandbox's), with the capture's preloads (the action's `capture/` folder): the
 * first test runner it starts records how it was launched and exits before any test runs. What the command
 * ran before the runner ran for real (that is the build).
 *
 * The preloads are copied from the action's folder into the scratch folder first, so the sandbox reads
 * them wherever the action lives; what comes back is read as any file the sandbox wrote (sandbox-files.ts).
 */
import { readFile } from 'node:fs/promises'
import { join } from 'node:path'
import { actionRoot } from '../model/prompts.js'
import type { ProcessRunner } from '../ports/process.js'
import { readSandboxFile } from '../ports/sandbox-files.js'
import { makeFolderInside, removeInside, writeInside } from '../ports/sandbox-writes.js'
import { launchesFrom, parseCaptureRecords, unsupportedRunner, type CaptureFootprint, type Launch } from './launch.js'

export const DEFAULT_TEST_COMMAND = 'npm test'
/** Long enough for a build before the runner; the runner itself stops at once. */
export const DEFAULT_CAPTURE_TIMEOUT_MS = 10 * 60_000
/** How much of the command's output an unsuccessful capture keeps for its error. */
const OUTPUT_TAIL_CHARS = 4000

/** The action's files the capture uses: [path under capture/, mode]. */
const CAPTURE_FILES: [string, number][] = [
  ['start.sh', 0o644],
  ['node-preload.cjs', 0o644],
  ['bin/node', 0o755],
  ['bin/python-shim', 0o755],
  ['python/sitecustomize.py', 0o644]
]

/** The names the Python shim takes on PATH (a script's own PYTHONPATH would hide the sitecustomize). */
const PYTHON_SHIM_NAMES = ['python', 'python3', 'pytest', 'py.test']

export interface CaptureOptions {
  /** A fresh folder the tool made and shared with the sandbox (writable by its commands): the capture's files go there. */
  scratchDir: string
  timeoutMs?: number
  /** May the command reach the network (a build that downloads)? Default: no, loopback only in the sandbox. */
  network?: boolean
  /**
   * A jest started through its bin goes on as `jest --showConfig` instead of stopping (the preload's
   * showJestConfig): the launch carries its resolved configuration, so the collection need not start jest
   * again. Default: no.
   */
  showConfig?: boolean
}

export type CaptureResult =
  | { launch: Launch; /** Runners started after the first (`jest && mocha`). */ later: Launch[]; durationMs: number }
  | {
      launch: null
      durationMs: number
      exitCode: number | null
      timedOut: boolean
      /** The command's last output, for the error. */
      outputTail: string
      /** A runner it started first that the tool cannot run (tape, jasmine…): stopped like the others. */
      unsupported: string | null
    }

/** Runs `command` (default `npm test`) in `treeDir` with the capture preloads and returns the first runner it started. */
export async function captureLaunch(treeDir: string, command: string | undefined, processes: ProcessRunner, options: CaptureOptions): Promise<CaptureResult> {
  const testCommand = command?.trim() || DEFAULT_TEST_COMMAND
  const { scratchDir } = options
  const folder = await installCaptureFiles(scratchDir)
  const preloadPath = join(folder, 'node-preload.cjs')
  const nodeOptions = `--require ${quoteForNodeOptions(preloadPath)}`
  const footprint: Omit<CaptureFootprint, 'startEnv'> = { command: testCommand, nodeOptions, preloadPath, shimDir: join(folder, 'bin'), pythonDir: join(folder, 'python') }
  const recordsPath = join(scratchDir, 'capture.jsonl')
  const startEnvPath = join(scratchDir, 'capture-start-env')
  // A scratch folder used for an earlier capture must not lend it its records.
  for (const path of ['capture.jsonl', 'capture-start-env']) await removeInside(scratchDir, path)
  const result = await processes.run({
    command: '/bin/sh',
    args: [join(folder, 'start.sh'), testCommand],
    cwd: treeDir,
    env: {
      NODE_OPTIONS: nodeOptions,
      PYTHONPATH: footprint.pythonDir,
      RTG_CAPTURE_FILE: recordsPath,
      RTG_CAPTURE_START_ENV: startEnvPath,
      RTG_CAPTURE_SHIMS: footprint.shimDir,
      RTG_CAPTURE_PRELOAD: preloadPath,
      RTG_CAPTURE_PYTHON: footprint.pythonDir,
      RTG_CAPTURE_NODE_OPTIONS: nodeOptions,
      RTG_CAPTURE_SHOW_CONFIG: options.showConfig ? '1' : ''
    },
    timeoutMs: options.timeoutMs ?? DEFAULT_CAPTURE_TIMEOUT_MS,
    network: options.network ?? false
  })
  const records = parseCaptureRecords((await readSandboxFile(scratchDir, recordsPath, 'results')) ?? '')
  const startEnv = parseStartEnv(await readSandboxFile(scratchDir, startEnvPath, 'results'))
  const unsupported = unsupportedRunner(records)
  const [launch, ...later] = unsupported ? [] : launchesFrom(records, { ...footprint, startEnv })
  if (launch) return { launch, later, durationMs: result.durationMs }
  return { launch: null, durationMs: result.durationMs, exitCode: result.exitCode, timedOut: result.timedOut, outputTail: result.output.slice(-OUTPUT_TAIL_CHARS), unsupported }
}

/** Copies the action's capture files into `scratchDir/capture-tools`, fresh, readable by the sandbox. */
async function installCaptureFiles(scratchDir: string): Promise<string> {
  const source = join(actionRoot(), 'capture')
  await removeInside(scratchDir, 'capture-tools', { recursive: true })
  for (const sub of ['capture-tools', 'capture-tools/bin', 'capture-tools/python']) await makeFolderInside(scratchDir, sub, 0o755)
  for (const [file, mode] of CAPTURE_FILES) await writeInside(scratchDir, `capture-tools/${file}`, await readFile(join(source, file)), mode)
  const pythonShim = await readFile(join(source, 'bin/python-shim'))
  for (const name of PYTHON_SHIM_NAMES) await writeInside(scratchDir, `capture-tools/bin/${name}`, pythonShim, 0o755)
  return join(scratchDir, 'capture-tools')
}

/** NODE_OPTIONS splits at spaces unless quoted; inside double quotes, a backslash escapes. */
function quoteForNodeOptions(path: string): string {
  return `"${path.replace(/[\\"]/g, (c) => `\\${c}`)}"`
}

/** `env -0` output: NAME=value entries separated by NUL. Null when the shell could not write it. */
export function parseStartEnv(text: string | null): Record<string, string> | null {
  if (text === null) return null
  const env: Record<string, string> = {}
  for (const entry of text.split('\0')) {
    const equals = entry.indexOf('=')
    if (equals > 0) env[entry.slice(0, equals)] = entry.slice(equals + 1)
  }
  return env
}
