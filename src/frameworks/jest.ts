/** Jest: found by its dependency, test script or config file; run by path, read from its JSON report. */
import { existsSync } from 'node:fs'
import { isAbsolute, join, relative, sep } from 'node:path'
import type { RunResult, TestResult, TestStatus } from '../domain.js'
import type { FrameworkAdapter, RunRequest } from './adapter.js'
import { expandCommand, type CommandLine } from './command.js'
import { atLeastVersion, declares, installedBin, installedVersion, readPackageJson, type PackageJson } from './packages.js'
import { readIstanbulCoverage } from './istanbul.js'
import { parseSandboxJson, readSandboxFile, SandboxFileRefused } from '../ports/sandbox-files.js'
import { stripAnsi, trimMessage, trimTail } from './output.js'
import { repoRelative, treeRoots } from './paths.js'
import { makeRunnerFolder } from './runner-folder.js'
import { removeInside } from '../ports/sandbox-writes.js'
import { describeWrapper, wrapperBin, type RunnerWrapper } from './wrapper.js'

const CONFIG_FILES = ['js', 'cjs', 'mjs', 'ts', 'json'].map((ext) => `jest.config.${ext}`)
const TEST_EXTENSION = /\.[mc]?[jt]sx?$/
const REPORT_FILE = 'jest-results.json'
// Jest's generic advice on a parse error, which would crowd the actual SyntaxError out of a trimmed message.
const PARSE_ERROR_ADVICE = /(Jest encountered an unexpected token)[\s\S]*?\n\s*Details:\s*\n/

/**
 * Flags jest has accepted since version 22 (it rejects unknown flags): no snapshot writing, a JSON report
 * in a file, exactly the given files, no watchman daemon, and an exit once the report is written even if
 * a test left a handle open; each test's line (`--testLocationInResults`), so same-titled tests stay apart
 * when shuffled.
 */
export const JEST_FLAGS = ['--ci', '--json', '--runTestsByPath', '--watchman=false', '--forceExit', '--testLocationInResults']

/** Coverage as istanbul JSON in the scratch folder, or none (a config's thresholds could fail the run). */
function coverageFlags(request: RunRequest): string[] {
  if (!request.coverage) return ['--coverage=false']
  return ['--coverage', '--coverageReporters=json', `--coverageDirectory=${join(request.scratchDir, 'coverage')}`, '--coverageThreshold={}']
}

interface JestAssertion {
  ancestorTitles?: string[]
  title: string
  /** Where the test is defined (`--testLocationInResults`): tells same-titled tests apart. */
  location?: { line?: number } | null
  status: string
  duration?: number | null
  failureMessages?: string[] | null
}

interface JestFileResult {
  name: string
  status: string
  message?: string
  assertionResults?: JestAssertion[]
}

export const jestAdapter: FrameworkAdapter = {
  name: 'jest',
  coverageNeeds: "jest's own coverage; a configuration that turns it off or breaks it leaves none",

  async detect(repoDir) {
    const manifest = await readPackageJson(repoDir)
    if (manifest && usesJest(manifest)) return true
    return CONFIG_FILES.some((file) => existsSync(join(repoDir, file)))
  },

  loadingTest: (imports) => `${imports}\n\ntest('loads', () => {})\n`,

  isTestFile(path) {
    if (!TEST_EXTENSION.test(path) || path.split('/').includes('node_modules')) return false
    const parts = path.split('/')
    const base = parts[parts.length - 1]
    return parts.slice(0, -1).includes('__tests__') || /^(?:.*\.)?(?:spec|test)+\.[mc]?[jt]sx?$/.test(base)
  },

  async run(request, processes) {
    const reportFile = join(request.scratchDir, REPORT_FILE)
    // A report left by an earlier run must not pass for this one's.
    await makeRunnerFolder(request.scratchDir)
    await removeInside(request.scratchDir, REPORT_FILE)
    // `--randomize` (jest 29.2+) shuffles the tests of each file; older jest rejects the flag.
    const shuffled = request.shuffle === true && atLeastVersion(installedVersion(request.treeDir, 'jest'), 29, 2)
    const reporterArgs = [...JEST_FLAGS, ...coverageFlags(request), ...(shuffled ? ['--randomize'] : []), `--outputFile=${reportFile}`]
    const invocation = request.command ? expandCommand(request.command, request.files, reporterArgs) : await defaultInvocation(request.treeDir, request.wrapper ?? null, request.files, reporterArgs)
    if (!invocation) return notInstalled(request)
    const result = await processes.run({ ...invocation, cwd: request.treeDir, timeoutMs: request.timeoutMs })
    const output = trimTail(stripAnsi(result.output))
    const base = { exitCode: result.exitCode, timedOut: result.timedOut, durationMs: result.durationMs, output }
    const report = await readReport(request.scratchDir, reportFile)
    if (!report) {
      const reason = result.timedOut ? `jest timed out after ${request.timeoutMs} ms` : `jest wrote no report (exit ${result.exitCode})`
      const message = `${reason}\n${trimTail(output, 2000)}`
      return { ...base, tests: [], fileErrors: request.files.map((file) => ({ file, message })) }
    }
    const coverage = request.coverage ? await readIstanbulCoverage(join(request.scratchDir, 'coverage', 'coverage-final.json'), await treeRoots(request.treeDir), request.scratchDir) : null
    return { ...base, ...(await readResults(report, request)), ...(coverage && { coverage }), ...(shuffled && { shuffled }) }
  },

  async resolveConfig(request, processes) {
    const wrapper = request.wrapper ?? null
    const asker = request.label ?? (request.command ? request.command.join(' ') : wrapper ? describeWrapper(wrapper) : 'jest')
    // The capture's jest printed it on its way (jest 22 prints it on stderr under `--json`): no second start.
    const shown = request.shown && (parseShownConfig(request.shown.stdout) ?? parseShownConfig(request.shown.stderr))
    if (shown) return { source: `jest's resolved configuration, from ${asker} --showConfig, printed during the capture`, values: await underRootDir(shown, request.treeDir) }
    const asked = request.command ? expandCommand(request.command, [], ['--showConfig']) : await defaultInvocation(request.treeDir, wrapper, [], ['--showConfig'])
    if (!asked) return null
    const result = await processes.run({ ...asked, cwd: request.treeDir, timeoutMs: request.timeoutMs })
    const config = parseShownConfig(result.stdout)
    return config && { source: `jest's resolved configuration, from ${asker} --showConfig`, values: await underRootDir(config, request.treeDir) }
  }
}

/** `jest --showConfig` prints `{ configs: [project…], globalConfig, version }`; a multi-project config is not one set of rules. */
function parseShownConfig(stdout: string): Record<string, unknown> | null {
  try {
    const shown = JSON.parse(stdout.slice(stdout.indexOf('{'))) as { configs?: Array<Record<string, unknown>> }
    return shown.configs?.length === 1 ? shown.configs[0] : null
  } catch {
    return null
  }
}

/** The tree's absolute paths in the config made `<rootDir>`-relative, and rootDir itself relative to the tree. */
async function underRootDir(config: Record<string, unknown>, treeDir: string): Promise<Record<string, unknown>> {
  const rootDir = typeof config.rootDir === 'string' ? config.rootDir : treeDir
  const [tree, realTree] = await treeRoots(treeDir)
  const placeholder = (value: unknown): unknown =>
    typeof value === 'string' ? (value === rootDir ? '<rootDir>' : value.split(`${rootDir}/`).join('<rootDir>/')) : Array.isArray(value) ? value.map(placeholder) : value
  const within = [tree, realTree].map((root) => relative(root, rootDir)).find((path) => !path.startsWith('..') && !isAbsolute(path))
  const values: Record<string, unknown> = { rootDir: (within ?? '').split(sep).join('/') }
  for (const key of ['roots', 'testMatch', 'testRegex', 'testPathIgnorePatterns', 'moduleFileExtensions']) values[key] = placeholder(config[key])
  return values
}

/**
 * The tree's own jest, run by node directly (no npx, no shell); through the wrapper CLI the test script
 * calls, when it calls one, so that the wrapper's own configuration applies.
 */
async function defaultInvocation(treeDir: string, wrapper: RunnerWrapper | null, files: string[], reporterArgs: string[]): Promise<CommandLine | null> {
  const nodeArgs = await nodeArgsFor(treeDir)
  const bin = wrapper ? wrapperBin(treeDir, wrapper) : installedBin(treeDir, 'jest')
  if (!bin) return null
  const args = [...nodeArgs, bin, ...(wrapper?.args ?? []), ...reporterArgs, ...files]
  return { command: process.execPath, args, env: wrapper?.env ?? {} }
}

function usesJest(manifest: PackageJson): boolean {
  return declares(manifest, 'jest') || manifest.jest !== undefined || /\bjest\b/.test(manifest.scripts?.test ?? '')
}

/** Node flags the project's own test script passes, since NODE_OPTIONS does not reach the test process. */
async function nodeArgsFor(treeDir: string): Promise<string[]> {
  const script = (await readPackageJson(treeDir))?.scripts?.test ?? ''
  return script.includes('--experimental-vm-modules') ? ['--experimental-vm-modules'] : []
}

function notInstalled(request: RunRequest): RunResult {
  const message = `jest is not installed in ${request.treeDir} (cannot resolve jest/package.json from it)`
  return { tests: [], fileErrors: request.files.map((file) => ({ file, message })), exitCode: null, timedOut: false, durationMs: 0, output: message }
}

async function readReport(scratchRoot: string, reportFile: string): Promise<JestFileResult[] | null> {
  try {
    const text = await readSandboxFile(scratchRoot, reportFile, 'results')
    const report = text === null ? null : (parseSandboxJson(reportFile, text) as { testResults?: JestFileResult[] } | null)
    return Array.isArray(report?.testResults) ? report.testResults : null
  } catch (error) {
    if (error instanceof SandboxFileRefused) throw error
    return null
  }
}

async function readResults(report: JestFileResult[], request: RunRequest): Promise<Pick<RunResult, 'tests' | 'fileErrors'>> {
  const roots = await treeRoots(request.treeDir)
  const tests: TestResult[] = []
  const fileErrors: RunResult['fileErrors'] = []
  const seen = new Set<string>()
  for (const fileResult of report) {
    const file = repoRelative(fileResult.name, roots)
    seen.add(file)
    const assertions = fileResult.assertionResults ?? []
    if (fileResult.status === 'failed' && assertions.length === 0) {
      fileErrors.push({ file, message: cleanMessage(fileResult.message || 'the test file failed to run') })
    }
    for (const assertion of assertions) tests.push(toTestResult(file, assertion))
  }
  for (const file of request.files) {
    if (!seen.has(file)) fileErrors.push({ file, message: 'jest did not run this file (does it match the testMatch / testRegex of the jest config?)' })
  }
  return { tests, fileErrors }
}

function toTestResult(file: string, assertion: JestAssertion): TestResult {
  const failure = assertion.failureMessages?.[0] ?? ''
  return {
    file,
    name: [...(assertion.ancestorTitles ?? []), assertion.title].join(' › '),
    ...lineOf(assertion),
    status: toStatus(assertion.status),
    durationMs: typeof assertion.duration === 'number' ? assertion.duration : null,
    message: failure ? cleanMessage(failure) : ''
  }
}

const lineOf = (assertion: JestAssertion) => (typeof assertion.location?.line === 'number' ? { line: assertion.location.line } : {})

function cleanMessage(text: string): string {
  return trimMessage(stripAnsi(text).replace(PARSE_ERROR_ADVICE, '$1\n\n'))
}

function toStatus(status: string): TestStatus {
  if (status === 'passed') return 'passed'
  if (status === 'failed') return 'failed'
  // pending (it.skip), skipped, todo, disabled, focused-elsewhere: the test did not run.
  return 'skipped'
}
