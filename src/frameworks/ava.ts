/** ava: found by its dependency, config file or test script; run by path, read from its TAP report. */
import { existsSync } from 'node:fs'
import { join } from 'node:path'
import type { RunResult } from '../domain.js'
import type { FrameworkAdapter, RunRequest } from './adapter.js'
import { parseTap, readAvaResults } from './ava-report.js'
import { expandCommand, type CommandLine } from './command.js'
import { readIstanbulCoverage } from './istanbul.js'
import { readSandboxFile } from '../ports/sandbox-files.js'
import { removeInside, writeInside } from '../ports/sandbox-writes.js'
import { findC8 } from './mocha-install.js'
import { stripAnsi, trimTail } from './output.js'
import { assignments, scriptCommands } from './package-scripts.js'
import { declares, installedBin, readPackageJson, type PackageJson } from './packages.js'
import { treeRoots } from './paths.js'
import { makeRunnerConfigFolder, makeRunnerFolder } from './runner-folder.js'
import { readV8Coverage, v8CoverageDir, v8CoverageEnv } from './v8-coverage.js'

const CONFIG_FILES = ['js', 'cjs', 'mjs', 'ts', 'cts', 'mts'].map((ext) => `ava.config.${ext}`)
const SCRIPT_FILE = /\.[cm]?[jt]sx?$/
// ava's default test files: by name anywhere, or anything under a test folder.
const TEST_NAME = /^(?:test\.[^.]+|test-.+|.+\.(?:spec|test)\.[^.]+)$/
const TEST_FOLDERS = new Set(['test', 'tests', '__tests__'])
// Never tests by ava's default globs: helpers and fixtures under test folders, and installed packages.
const EXCLUDED_FOLDERS = new Set(['node_modules', 'helper', 'helpers', 'fixture', 'fixtures', '__helper__', '__helpers__', '__fixture__', '__fixtures__'])
const AVA_WORD = /(?:^|[\\/])ava(?:\.c?js)?$/
const REPORT_FILE = 'ava.tap'
const TAP_WRAPPER = 'tap-to-file.mjs'

// ava prints its TAP report to stdout and the tests' own output to stderr: stdout goes to a file, so
// nothing a test prints can split or fake a line of the report. Run by node, no shell.
const TAP_WRAPPER_SOURCE = `// Written by regression-testgen: runs a command with its stdout (ava's TAP report) in a file.
import { spawn } from 'node:child_process'
import { openSync } from 'node:fs'
const [report, command, ...args] = process.argv.slice(2)
const child = spawn(command, args, { stdio: ['ignore', openSync(report, 'w'), 'inherit'] })
child.on('error', (error) => { console.error(String(error)); process.exitCode = 127 })
child.on('exit', (code, signal) => { process.exitCode = code ?? (signal ? 1 : 0) })
`

export const avaAdapter: FrameworkAdapter = {
  name: 'ava',
  coverageNeeds: "the repository's c8, else ava's processes and worker threads run by node, keeping the NODE_V8_COVERAGE variable and exiting normally (node writes their V8 coverage as they exit)",

  async detect(repoDir) {
    const manifest = await readPackageJson(repoDir)
    if (manifest && usesAva(manifest)) return true
    return CONFIG_FILES.some((file) => existsSync(join(repoDir, file)))
  },

  loadingTest: (imports, importSyntax) => `${importSyntax ? "import test from 'ava'" : "const test = require('ava')"}\n${imports}\n\ntest('loads', (t) => {\n  t.pass()\n})\n`,

  isTestFile(path) {
    const parts = path.split('/')
    const base = parts[parts.length - 1]
    const folders = parts.slice(0, -1)
    if (!SCRIPT_FILE.test(base) || base.endsWith('.d.ts') || base.startsWith('_') || base.startsWith('.')) return false
    if (folders.some((folder) => EXCLUDED_FOLDERS.has(folder))) return false
    return TEST_NAME.test(base) || folders.some((folder) => TEST_FOLDERS.has(folder))
  },

  async run(request, processes) {
    await makeRunnerFolder(request.scratchDir)
    const ava = installedBin(request.treeDir, 'ava')
    if (!ava && !request.command) return notInstalled(request)
    const reportFile = join(request.scratchDir, REPORT_FILE)
    // A report left by an earlier run must not pass for this one's.
    await removeInside(request.scratchDir, REPORT_FILE)
    await removeInside(request.scratchDir, 'coverage', { recursive: true })
    const invocation = request.command ? expandCommand(request.command, request.files, ['--tap']) : await defaultInvocation(request, ava!)
    const c8 = request.coverage ? findC8(request.treeDir) : null
    const wrapped = await toReportFile(invocation, reportFile, request.scratchDir)
    // Without c8, node itself: NODE_V8_COVERAGE reaches ava's worker threads and child processes.
    const v8 = request.coverage && !c8 ? await v8CoverageEnv(request.scratchDir) : null
    const command = c8 ? withCoverage(wrapped, c8, request.scratchDir) : v8 ? { ...wrapped, env: { ...wrapped.env, ...v8 } } : wrapped
    const ran = await processes.run({ ...command, cwd: request.treeDir, timeoutMs: request.timeoutMs })
    // A missing report reads as no TAP; a link, FIFO or oversized one ends the run (sandbox-files.ts).
    const tap = (await readSandboxFile(request.scratchDir, reportFile, 'results')) ?? ''
    const output = trimTail(stripAnsi(`${ran.output}\n${tap}`))
    const base = { exitCode: ran.exitCode, timedOut: ran.timedOut, durationMs: ran.durationMs, output }
    const points = parseTap(tap)
    if (!points) return { ...base, tests: [], fileErrors: request.files.map((file) => ({ file, message: noReport(ran.timedOut, ran.exitCode, output, request) })) }
    const results = readAvaResults(points, request.files)
    const roots = await treeRoots(request.treeDir)
    const testFile = (file: string) => request.files.includes(file) || avaAdapter.isTestFile(file)
    const coverage = c8 ? await readIstanbulCoverage(join(request.scratchDir, 'coverage', 'coverage-final.json'), roots, request.scratchDir) : v8 ? await readV8Coverage(v8CoverageDir(request.scratchDir), roots, { exclude: testFile }) : null
    return { ...base, ...withTimeout(results, ran.timedOut, request), ...(coverage && { coverage }) }
  }
}

/** The tree's ava, run by node directly (no npx, no shell), with the variables its test script sets. */
async function defaultInvocation(request: RunRequest, avaBin: string): Promise<CommandLine> {
  const manifest = await readPackageJson(request.treeDir)
  return { command: process.execPath, args: [avaBin, '--tap', ...request.files], env: scriptEnv(manifest?.scripts?.test) }
}

/** `NAME=value` words before ava in the test script (e.g. `TZ=UTC ava`). */
function scriptEnv(script: string | undefined): Record<string, string> {
  for (const words of scriptCommands(script ?? '')) {
    const at = words.findIndex((word) => AVA_WORD.test(word))
    if (at >= 0) return assignments(words.slice(0, at))
  }
  return {}
}

/** The wrapper lives beside the scratch folder, not in it: the tests may write their scratch folder, never what runs them. */
export async function toReportFile(invocation: CommandLine, reportFile: string, scratchDir: string): Promise<CommandLine> {
  const wrapper = await writeInside(await makeRunnerConfigFolder(scratchDir), TAP_WRAPPER, TAP_WRAPPER_SOURCE)
  return { command: process.execPath, args: [wrapper, reportFile, invocation.command, ...invocation.args], env: invocation.env }
}

/** c8 around the command: istanbul JSON in the scratch folder, and no coverage threshold failing the run. */
function withCoverage(invocation: CommandLine, c8Bin: string, scratchDir: string): CommandLine {
  const c8Args = ['--reporter=json', `--report-dir=${join(scratchDir, 'coverage')}`, `--temp-directory=${join(scratchDir, 'c8-temp')}`, '--check-coverage=false']
  return { command: process.execPath, args: [c8Bin, ...c8Args, invocation.command, ...invocation.args], env: invocation.env }
}

/** A run cut short by the timeout: files it never reached say so, rather than "no test in this file". */
export function withTimeout(results: Pick<RunResult, 'tests' | 'fileErrors'>, timedOut: boolean, request: RunRequest, runner = 'ava'): Pick<RunResult, 'tests' | 'fileErrors'> {
  if (!timedOut) return results
  const message = `${runner} timed out after ${request.timeoutMs} ms`
  const reached = new Set(results.tests.map((test) => test.file))
  const fileErrors = request.files.flatMap((file) => {
    const error = results.fileErrors.find((entry) => entry.file === file)
    if (reached.has(file)) return error ? [error] : []
    return [{ file, message: error ? `${message}\n\n${error.message}` : message }]
  })
  return { tests: results.tests, fileErrors }
}

function usesAva(manifest: PackageJson): boolean {
  return declares(manifest, 'ava') || manifest.ava !== undefined || scriptCommands(manifest.scripts?.test ?? '').some((words) => words.some((word) => AVA_WORD.test(word)))
}

function noReport(timedOut: boolean, exitCode: number | null, output: string, request: RunRequest): string {
  const reason = timedOut ? `ava timed out after ${request.timeoutMs} ms` : `ava wrote no TAP report (exit ${exitCode})`
  return `${reason}\n${trimTail(output, 2000)}`
}

function notInstalled(request: RunRequest): RunResult {
  const message = `ava is not installed in ${request.treeDir} (no node_modules/ava/package.json from it)`
  return { tests: [], fileErrors: request.files.map((file) => ({ file, message })), exitCode: null, timedOut: false, durationMs: 0, output: message }
}
