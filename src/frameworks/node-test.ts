/**
 * node:test, Node's built-in runner: found by a `node --test` test script, or by test files that import
 * `node:test` where no other runner is declared; run one file at a time, read from its JUnit reporter.
 */
import { basename, join } from 'node:path'
import { isFailure, type FileCoverage, type RunResult, type TestResult } from '../domain.js'
import type { ProcessResult, ProcessRunner } from '../ports/process.js'
import type { FrameworkAdapter, RunRequest } from './adapter.js'
import { expandCommand, type CommandLine } from './command.js'
import { readIstanbulCoverage } from './istanbul.js'
import { nodeTestScript, type NodeTestScript } from './node-test-args.js'
import { importsNodeTest, isNodeTestFile } from './node-test-files.js'
import { nodeRuntime, type NodeRuntime } from './node-test-runtime.js'
import { cleanStack, codeLinesOnly, fileUrlsToPaths, isFileCase, mergeCoverage, readJunitReport, readLcov, toTestResult } from './node-test-report.js'
import { declares, installedBin, readPackageJson } from './packages.js'
import { stripAnsi, trimTail } from './output.js'
import { treeRoots } from './paths.js'
import { makeRunnerFolder } from './runner-folder.js'
import { removeInside } from '../ports/sandbox-writes.js'
import { readV8Coverage, v8CoverageDir, v8CoverageEnv } from './v8-coverage.js'

// Runners whose projects may import `node:test` helpers without running their tests with it.
const OTHER_RUNNERS = ['jest', 'vitest', 'mocha', 'ava', 'tap', 'tape', 'jasmine', 'uvu', '@playwright/test', 'cypress']
// node stops reading its options at the first file, so ours go right after `--test`.
const TEST_FLAG = '--test'

interface Plan {
  request: RunRequest
  processes: ProcessRunner
  node: NodeRuntime
  script: NodeTestScript
  tsxBin: string | null
  /**
   * How coverage is measured: node's own lcov reporter, c8 around the run, node's V8 coverage
   * (NODE_V8_COVERAGE) read by us, or not at all.
   */
  coverage: 'lcov' | { c8: string } | 'v8' | null
  roots: string[]
  deadline: number
}

interface FileRun {
  file: string
  process: ProcessResult | null
  output: string
  tests: TestResult[]
  fileErrors: RunResult['fileErrors']
  coverage: FileCoverage[]
}

export const nodeTestAdapter: FrameworkAdapter = {
  name: 'node-test',
  coverageNeeds: "node's lcov test reporter (Node 20.11+), else the repository's c8, else test processes that keep the NODE_V8_COVERAGE variable and exit normally (node writes their V8 coverage as they exit)",

  async detect(repoDir) {
    const manifest = await readPackageJson(repoDir)
    if (nodeTestScript(manifest?.scripts)) return true
    if (OTHER_RUNNERS.some((runner) => declares(manifest, runner))) return false
    return importsNodeTest(repoDir)
  },

  isTestFile: isNodeTestFile,

  loadingTest: (imports, importSyntax) => `${importSyntax ? "import test from 'node:test'" : "const test = require('node:test')"}\n${imports}\n\ntest('loads', () => {})\n`,

  async run(request, processes) {
    await makeRunnerFolder(request.scratchDir)
    const node = await nodeRuntime(processes, request.treeDir)
    if (node.problem) return everyFileFails(request, node.problem)
    const script = (request.command ? null : nodeTestScript((await readPackageJson(request.treeDir))?.scripts)) ?? { runner: 'node', flags: [], env: {} }
    const tsxBin = script.runner === 'tsx' ? installedBin(request.treeDir, 'tsx') : null
    if (script.runner === 'tsx' && !tsxBin) return everyFileFails(request, `the test script runs tsx --test, but tsx is not installed in ${request.treeDir}`)
    const c8 = installedBin(request.treeDir, 'c8')
    const coverage = !request.coverage ? null : node.lcov ? 'lcov' : c8 ? { c8 } : 'v8'
    const plan: Plan = { request, processes, node, script, tsxBin, coverage, roots: await treeRoots(request.treeDir), deadline: Date.now() + request.timeoutMs }
    // One process a file: node's JUnit report names no files before Node 24.11, and hides a failed
    // suite, hook or file (only the exit code shows it); alone, each file's exit code and output are its own.
    const runs: FileRun[] = []
    for (const [index, file] of request.files.entries()) runs.push(await runFile(plan, file, join(request.scratchDir, `file-${index + 1}`)))
    return combine(runs, plan)
  }
}

async function runFile(plan: Plan, file: string, dir: string): Promise<FileRun> {
  const { request } = plan
  const junit = join(dir, 'junit.xml')
  const lcov = join(dir, 'lcov.info')
  // Reports left by an earlier run must not pass for this one's.
  await removeInside(request.scratchDir, basename(dir), { recursive: true })
  await makeRunnerFolder(dir)
  const remaining = plan.deadline - Date.now()
  if (remaining <= 0) return { file, process: null, output: '', tests: [], fileErrors: [{ file, message: `not run: the files before it used up the ${request.timeoutMs} ms time limit` }], coverage: [] }
  const reporterArgs = ['--test-reporter=junit', `--test-reporter-destination=${junit}`, '--test-reporter=spec', '--test-reporter-destination=stdout']
  if (plan.coverage === 'lcov') reporterArgs.push('--experimental-test-coverage', '--test-reporter=lcov', `--test-reporter-destination=${lcov}`)
  const invocation = request.command ? userInvocation(request.command, file, reporterArgs) : defaultInvocation(plan, file, reporterArgs)
  const c8 = typeof plan.coverage === 'object' && plan.coverage ? plan.coverage.c8 : null
  const v8 = plan.coverage === 'v8' ? await v8CoverageEnv(dir) : null
  const command = c8 ? withC8(invocation, c8, dir, plan.node.path) : v8 ? { ...invocation, env: { ...invocation.env, ...v8 } } : invocation
  const ran = await plan.processes.run({ ...command, cwd: request.treeDir, timeoutMs: remaining })
  const output = trimTail(fileUrlsToPaths(stripAnsi(ran.output)))
  const cases = await readJunitReport(dir, junit)
  const excerpt = messageExcerpt(output)
  if (!cases) {
    const forceExit = command.args.includes('--test-force-exit') ? ' (--test-force-exit cuts the report short on some Node versions: nodejs/node#54327)' : ''
    const reason = ran.timedOut ? `node --test timed out after ${remaining} ms` : `node --test wrote no complete report (exit ${ran.exitCode})${forceExit}`
    return { file, process: ran, output, tests: [], fileErrors: [{ file, message: `${reason}\n${excerpt}`.trim() }], coverage: [] }
  }
  const fileCases = cases.filter((testCase) => isFileCase(testCase, file, plan.roots))
  const tests = cases.filter((testCase) => !fileCases.includes(testCase)).map((testCase) => toTestResult(file, testCase))
  const coverage = await readCoverage(plan, file, dir, lcov)
  const fileErrors = fileErrorsOf(file, ran, tests, fileCases.some((testCase) => testCase.failure), excerpt)
  return { file, process: ran, output, tests, fileErrors, coverage: coverage ? await codeLinesOnly(coverage, request.treeDir) : [] }
}

async function readCoverage(plan: Plan, file: string, dir: string, lcov: string): Promise<FileCoverage[] | null> {
  if (!plan.coverage) return null
  if (plan.coverage === 'lcov') return readLcov(dir, lcov, plan.request.treeDir, plan.roots)
  if (plan.coverage === 'v8') return readV8Coverage(v8CoverageDir(dir), plan.roots, { exclude: (path) => path === file || isNodeTestFile(path) })
  return readIstanbulCoverage(join(dir, 'coverage', 'coverage-final.json'), plan.roots, dir)
}

/** What the JUnit report alone does not say about the file: that it did not load, ran no test, or failed outside its tests. */
function fileErrorsOf(file: string, ran: ProcessResult, tests: TestResult[], fileFailed: boolean, excerpt: string): RunResult['fileErrors'] {
  const exit = ran.timedOut ? 'timed out' : `exit ${ran.exitCode}`
  if (fileFailed) return [{ file, message: `The file failed to load, or its process ended before its tests did (${exit}):\n${excerpt}` }]
  if (tests.length === 0) return [{ file, message: 'node:test ran no test from this file (does it call test() or it() from node:test?)' }]
  const failing = tests.some((test) => isFailure(test.status))
  if (ran.exitCode !== 0 && !failing) return [{ file, message: `A suite, a hook or the file itself failed outside its tests (${exit}):\n${excerpt}` }]
  return []
}

/** The tree's node (or tsx) with the test script's flags and variables. */
function defaultInvocation(plan: Plan, file: string, reporterArgs: string[]): CommandLine {
  const runner = plan.tsxBin ? [plan.tsxBin] : []
  return { command: plan.node.path, args: [...runner, ...plan.script.flags, TEST_FLAG, ...reporterArgs, file], env: plan.script.env }
}

/** The repository's command, its own reporters replaced by ours, which go after `--test` (added when absent). */
export function userInvocation(template: string[], file: string, reporterArgs: string[]): CommandLine {
  const line = expandCommand(template, [file], [])
  const args = line.args.filter((arg, index) => !isReporterArg(arg) && !(index > 0 && /^--test-reporter(?:-destination)?$/.test(line.args[index - 1])))
  const at = args.indexOf(TEST_FLAG)
  const withOurs = at >= 0 ? [...args.slice(0, at + 1), ...reporterArgs, ...args.slice(at + 1)] : [TEST_FLAG, ...reporterArgs, ...args]
  return { ...line, args: withOurs }
}

function isReporterArg(arg: string): boolean {
  return /^--test-reporter(?:-destination)?(?:=|$)/.test(arg)
}

/** c8 around the command: istanbul JSON in the file's folder, and no coverage threshold failing the run. */
function withC8(invocation: CommandLine, c8Bin: string, dir: string, nodePath: string): CommandLine {
  const c8Args = ['--reporter=json', `--report-dir=${join(dir, 'coverage')}`, `--temp-directory=${join(dir, 'c8-temp')}`, '--check-coverage=false']
  return { command: nodePath, args: [c8Bin, ...c8Args, invocation.command, ...invocation.args], env: invocation.env }
}

function combine(runs: FileRun[], plan: Plan): RunResult {
  const processes = runs.flatMap((run) => (run.process ? [run.process] : []))
  const output = runs.length === 1 ? runs[0].output : runs.map((run) => `── ${run.file} ──\n${run.output}`).join('\n')
  return {
    tests: runs.flatMap((run) => run.tests),
    fileErrors: runs.flatMap((run) => run.fileErrors),
    exitCode: processes.map((ran) => ran.exitCode).find((code) => code !== 0) ?? 0,
    timedOut: processes.some((ran) => ran.timedOut),
    durationMs: processes.reduce((total, ran) => total + ran.durationMs, 0),
    output: trimTail(output),
    ...(plan.coverage && { coverage: mergeCoverage(runs.map((run) => run.coverage)) })
  }
}

/** The run's output for a message: without node's frames and the spec reporter's counts. */
function messageExcerpt(output: string): string {
  const lines = cleanStack(output).split('\n').filter((line) => !/^ℹ /.test(line) && !/^Node\.js v\d/.test(line))
  return trimTail(lines.join('\n').replace(/\n{3,}/g, '\n\n'), 2000)
}

function everyFileFails(request: RunRequest, message: string): RunResult {
  return { tests: [], fileErrors: request.files.map((file) => ({ file, message })), exitCode: null, timedOut: false, durationMs: 0, output: message }
}
