/** pytest: found by its config or its test files; run by path with `python -m pytest`, read from JUnit XML. */
import { existsSync, readdirSync } from 'node:fs'
import { readFile, readdir } from 'node:fs/promises'
import { join } from 'node:path'
import { removeInside } from '../ports/sandbox-writes.js'
import { makeRunnerFolder } from './runner-folder.js'
import { appendAll } from '../arrays.js'
import type { RunResult } from '../domain.js'
import type { ProcessRunner } from '../ports/process.js'
import type { FrameworkAdapter, RunRequest } from './adapter.js'
import { expandCommand, type CommandLine } from './command.js'
import { stripAnsi, trimTail } from './output.js'
import { treeRoots } from './paths.js'
import { describePython, findPython, pythonEnvironment, SYSTEM_PYTHONS, type PythonInterpreter } from './python.js'
import { caseResults, readCoverageJson, readJunitCases } from './pytest-reports.js'

const REPORT_FILE = 'junit.xml'
const COVERAGE_DATA = '.coverage'
const COVERAGE_REPORT = 'coverage.json'
const TEST_FILE = /(?:^|\/)(?:test_[^/]*|[^/]*_test)\.py$/
const OUTSIDE_PROJECT = /(?:^|\/)(?:node_modules|site-packages|\.venv|venv|\.tox|\.nox|__pycache__)\//
// pytest's own exit codes: 2 interrupted, 3 internal error, 4 usage error, 5 no tests collected.
const STOPPED_EARLY = new Set([2, 3, 4])

/** The config sections that say "this repository runs pytest", by file. */
const CONFIG_SECTIONS: Array<[string, RegExp]> = [
  ['pytest.ini', /^/],
  ['pyproject.toml', /^\s*\[tool\.pytest\.ini_options\]/m],
  ['setup.cfg', /^\s*\[tool:pytest\]/m],
  ['tox.ini', /^\s*\[pytest\]/m]
]

/**
 * Arguments every pytest since 6.2 accepts, after the repository's own ini options: no cache written into
 * the trees, a JUnit XML report in a fixed (xunit2) shape, quiet and short tracebacks (they go into repair
 * prompts), and every file's results even when another file fails to import.
 */
export const PYTEST_FLAGS = ['-p', 'no:cacheprovider', '-o', 'junit_family=xunit2', '-q', '--tb=short', '--continue-on-collection-errors']

export interface PytestOptions {
  /** The interpreters to try after the repository's virtualenv (default: PATH's python3 and python, then Debian's). */
  pythons?: string[]
}

/** The pytest adapter; `pythons` lets a caller (the project's own tests) say which interpreters are on offer. */
export function createPytestAdapter(options: PytestOptions = {}): FrameworkAdapter {
  const systemPythons = options.pythons ?? SYSTEM_PYTHONS
  return {
    name: 'pytest',
    coverageNeeds: 'coverage.py importable by the Python that runs pytest',
    detect: detectPytest,
    isTestFile,
    loadingTest: (imports) => `${imports}\n\n\ndef test_loads():\n    pass\n`,
    run: (request, processes) => runPytest(request, processes, systemPythons)
  }
}

export const pytestAdapter: FrameworkAdapter = createPytestAdapter()

async function detectPytest(repoDir: string): Promise<boolean> {
  for (const [file, section] of CONFIG_SECTIONS) {
    const content = await readFile(join(repoDir, file), 'utf8').catch(() => null)
    if (content !== null && section.test(content)) return true
  }
  if (['conftest.py', 'tests/conftest.py', 'test/conftest.py'].some((file) => existsSync(join(repoDir, file)))) return true
  const isProject = ['pyproject.toml', 'setup.py', 'setup.cfg'].some((file) => existsSync(join(repoDir, file)))
  return isProject && hasTestFile(repoDir, 3)
}

function isTestFile(path: string): boolean {
  return TEST_FILE.test(path) && !OUTSIDE_PROJECT.test(path)
}

/** How a run starts: the repository's command, or `python -m pytest` under the interpreter the search chose. */
interface Launch {
  invocation: CommandLine
  /** The chosen interpreter; null under the repository's own command. */
  python: PythonInterpreter | null
  /** Which interpreter, and what else was tried, for the top of the output. */
  note: string
}

async function runPytest(request: RunRequest, processes: ProcessRunner, systemPythons: string[]): Promise<RunResult> {
  // No files would mean pytest's own choice of tests (testpaths, or the whole tree): never what was asked.
  if (request.files.length === 0) return { tests: [], fileErrors: [], exitCode: null, timedOut: false, durationMs: 0, output: '' }
  const reportFile = join(request.scratchDir, REPORT_FILE)
  await clearReports(request.scratchDir)
  const reporterArgs = [...PYTEST_FLAGS, `--junitxml=${reportFile}`]
  const launch = await chooseLaunch(request, processes, systemPythons, reporterArgs)
  if ('notInstalled' in launch) return launch.notInstalled
  const { invocation, python, note } = launch
  const env = pythonEnvironment(request.treeDir)
  const result = await processes.run({ ...invocation, env: { ...env, ...invocation.env }, cwd: request.treeDir, timeoutMs: request.timeoutMs })
  // The interpreter goes first in the output, which the run log keeps: which Python ran is the first question.
  const output = note + trimTail(stripAnsi(result.output))
  const base = { exitCode: result.exitCode, timedOut: result.timedOut, durationMs: result.durationMs, output }
  const cases = await readJunitCases(request.scratchDir, reportFile)
  if (!cases) {
    const reason = result.timedOut ? `pytest timed out after ${request.timeoutMs} ms` : `pytest wrote no report (exit ${result.exitCode})`
    const message = `${reason}\n${trimTail(output, 2000)}`
    return { ...base, tests: [], fileErrors: request.files.map((file) => ({ file, message })) }
  }
  const { tests, fileErrors, unreported } = caseResults(cases, request.files)
  const missing = unreportedMessage(result.exitCode, output)
  appendAll(fileErrors, unreported.map((file) => ({ file, message: missing })))
  const coverage = python && request.coverage && python.hasCoverage ? await collectCoverage(python, request, env, processes) : null
  return { ...base, tests, fileErrors, ...(coverage && { coverage }), ...(python && { runtime: `Python ${python.pythonVersion}, pytest ${python.pytestVersion}` }) }
}

async function chooseLaunch(request: RunRequest, processes: ProcessRunner, systemPythons: string[], reporterArgs: string[]): Promise<Launch | { notInstalled: RunResult }> {
  // The repository's own command runs as given: pytest's flags go on it, coverage.py does not wrap it.
  if (request.command) return { invocation: expandCommand(request.command, request.files, reporterArgs), python: null, note: '' }
  const search = await findPython(request.treeDir, processes, { files: request.files, systemPythons })
  if (!search.interpreter) return { notInstalled: notInstalled(request, search.tried) }
  const python = search.interpreter
  return { invocation: defaultInvocation(python, request, reporterArgs), python, note: interpreterNote(python, search.tried) }
}

/** The lines that open every run's output: the interpreter, its versions, and every candidate probed. */
function interpreterNote(python: PythonInterpreter, tried: string[]): string {
  return [`Python for pytest: ${describePython(python)}, probed:`, ...tried.map((line) => `  - ${line}`)].join('\n') + '\n'
}

/** Reports (and coverage data) left by an earlier run must not pass for this one's. */
async function clearReports(scratchDir: string): Promise<void> {
  await makeRunnerFolder(scratchDir)
  const stale = (await readdir(scratchDir)).filter((file) => [REPORT_FILE, COVERAGE_REPORT].includes(file) || file.startsWith(COVERAGE_DATA))
  for (const file of stale) await removeInside(scratchDir, file)
}

/** `python -m pytest` (which puts the tree's root on sys.path, as the usual way to run it does), under coverage when asked. */
function defaultInvocation(python: PythonInterpreter, request: RunRequest, reporterArgs: string[]): CommandLine {
  const pytest = ['-m', 'pytest', ...reporterArgs, ...request.files]
  if (!request.coverage || !python.hasCoverage) return { command: python.command, args: pytest, env: {} }
  // COVERAGE_FILE rather than --data-file: coverage.py before 6.3 has no such option.
  return { command: python.command, args: ['-m', 'coverage', 'run', ...pytest], env: { COVERAGE_FILE: join(request.scratchDir, COVERAGE_DATA) } }
}

/** coverage.py's JSON report of the run; null (no coverage) when it cannot be made. */
async function collectCoverage(python: PythonInterpreter, request: RunRequest, env: Record<string, string>, processes: ProcessRunner): Promise<RunResult['coverage'] | null> {
  const dataFile = join(request.scratchDir, COVERAGE_DATA)
  const coverageEnv = { ...env, COVERAGE_FILE: dataFile }
  const coverage = (...args: string[]) => processes.run({ command: python.command, args: ['-m', 'coverage', ...args], env: coverageEnv, cwd: request.treeDir, timeoutMs: request.timeoutMs })
  // A config with `parallel = true` leaves `.coverage.<host>.<pid>…` files to combine first.
  const entries = await readdir(request.scratchDir).catch(() => [] as string[])
  if (entries.some((entry) => entry.startsWith(`${COVERAGE_DATA}.`))) await coverage('combine')
  if (!existsSync(dataFile)) return null
  const reportFile = join(request.scratchDir, COVERAGE_REPORT)
  // The exit code is not the answer: a configured fail_under fails the command, after writing the report.
  await coverage('json', '-o', reportFile)
  const keep = (file: string) => !isTestFile(file) && !file.endsWith('conftest.py') && !OUTSIDE_PROJECT.test(file)
  return readCoverageJson(request.scratchDir, reportFile, await treeRoots(request.treeDir), keep)
}

function unreportedMessage(exitCode: number | null, output: string): string {
  if (exitCode !== null && STOPPED_EARLY.has(exitCode)) return `pytest stopped (exit ${exitCode}) before running this file\n${trimTail(output, 2000)}`
  return "pytest collected no tests from this file (do its tests match the repository's python_files / python_functions settings?)"
}

function notInstalled(request: RunRequest, tried: string[]): RunResult {
  const message = [
    `no Python interpreter here can run this repository's pytest (import pytest, then load its configuration and conftest.py files); tried:`,
    ...tried.map((line) => `- ${line}`),
    'Install pytest and the test dependencies in the repository\'s .venv (or venv), or set test-command.'
  ].join('\n')
  return { tests: [], fileErrors: request.files.map((file) => ({ file, message })), exitCode: null, timedOut: false, durationMs: 0, output: message }
}

/** A `test_*.py` / `*_test.py` within `depth` folders, outside virtualenvs and dependencies. */
function hasTestFile(dir: string, depth: number): boolean {
  let entries
  try {
    entries = readdirSync(dir, { withFileTypes: true })
  } catch {
    return false
  }
  if (entries.some((entry) => entry.isFile() && TEST_FILE.test(entry.name))) return true
  if (depth <= 1) return false
  const folders = entries.filter((entry) => entry.isDirectory() && !entry.name.startsWith('.') && !/^(?:node_modules|venv|site-packages|__pycache__)$/.test(entry.name))
  return folders.some((entry) => hasTestFile(join(dir, entry.name), depth - 1))
}
