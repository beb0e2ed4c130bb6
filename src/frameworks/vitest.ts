/** vitest: found by its dependency, test script or config file; run by path, read from its JSON report. */
import { existsSync } from 'node:fs'
import { readFile } from 'node:fs/promises'
import { join } from 'node:path'
import { appendAll } from '../arrays.js'
import type { RunResult, TestResult, TestStatus } from '../domain.js'
import type { FrameworkAdapter, RunRequest } from './adapter.js'
import { atLeastVersion, declares, installedBin, installedVersion, packageDir, readPackageJson } from './packages.js'
import { expandCommand, type CommandLine } from './command.js'
import { readIstanbulCoverage } from './istanbul.js'
import { parseSandboxJson, readSandboxFile, SandboxFileRefused } from '../ports/sandbox-files.js'
import { removeInside } from '../ports/sandbox-writes.js'
import { makeRunnerFolder } from './runner-folder.js'
import { stripAnsi, trimMessage, trimTail } from './output.js'
import { repoRelative, treeRoots } from './paths.js'
import { wrapperBin } from './wrapper.js'

const CONFIG_EXTENSIONS = ['ts', 'mts', 'cts', 'js', 'mjs', 'cjs']
const VITEST_CONFIGS = CONFIG_EXTENSIONS.flatMap((ext) => [`vitest.config.${ext}`, `vitest.workspace.${ext}`]).concat('vitest.workspace.json')
const VITE_CONFIGS = CONFIG_EXTENSIONS.map((ext) => `vite.config.${ext}`)
// vitest's default include, `**/*.{test,spec}.?(c|m)[jt]s?(x)`, and its default exclude.
const TEST_FILE = /\.(?:test|spec)\.[cm]?[jt]sx?$/
const EXCLUDED_FOLDERS = new Set(['node_modules', 'dist', 'cypress', '.idea', '.git', '.cache', '.output', '.temp'])
const TOOL_CONFIG = /^(?:karma|rollup|webpack|vite|vitest|jest|ava|babel|nyc|cypress|tsup|build|eslint|prettier)\.config\./
const REPORT_FILE = 'vitest-results.json'
// Frames of vitest itself and of node: noise in a failure message (the test's own frames stay).
const INTERNAL_FRAME = /^\s*at .*(?:[\\/]node_modules[\\/]|node:internal|\(<anonymous>\))/
const HOOK_FAILED = 'a hook or suite of this file failed (vitest reports no message for it; see the run output)'

/**
 * Flags vitest has accepted from 0.3x to 3.x (vitest 1+ rejects unknown flags; the dotted coverage options
 * are parsed as one `coverage` object, which every version knows). Both reporters: the JSON one for the
 * results, the default one for the human output that repair prompts and logs show.
 */
export const VITEST_FLAGS = ['--reporter=default', '--reporter=json']

/** Coverage as istanbul JSON in the scratch folder, through whichever provider package the tree has. */
function coverageFlags(request: RunRequest, provider: string | null): string[] {
  if (!request.coverage || !provider) return []
  const reportsDirectory = join(request.scratchDir, 'coverage')
  return ['--coverage.enabled', `--coverage.provider=${provider}`, '--coverage.reporter=json', `--coverage.reportsDirectory=${reportsDirectory}`, '--coverage.reportOnFailure']
}

interface VitestAssertion {
  ancestorTitles?: string[]
  title: string
  /** Where the test is defined (`--includeTaskLocation`, vitest 1.4+): tells same-titled tests apart. */
  location?: { line?: number } | null
  status: string
  duration?: number | null
  failureMessages?: string[] | null
}

interface VitestFileResult {
  name: string
  status: string
  message?: string
  assertionResults?: VitestAssertion[]
}

export const vitestAdapter: FrameworkAdapter = {
  name: 'vitest',
  coverageNeeds: '@vitest/coverage-v8 or @vitest/coverage-istanbul installed in the repository',

  async detect(repoDir) {
    const manifest = await readPackageJson(repoDir)
    const script = manifest?.scripts?.test ?? ''
    if (/\bvitest\b/.test(script)) return true
    // A test script that runs jest decides, whatever else is installed (a migration half done).
    if (/\bjest\b/.test(script)) return false
    if (declares(manifest, 'vitest')) return true
    if (VITEST_CONFIGS.some((file) => existsSync(join(repoDir, file)))) return true
    return hasViteTestSection(repoDir)
  },

  // vitest transforms every test file: import syntax works whatever the package's module system.
  loadingTest: (imports) => `import { test } from 'vitest'\n${imports}\n\ntest('loads', () => {})\n`,

  isTestFile(path) {
    const parts = path.split('/')
    const base = parts[parts.length - 1]
    return TEST_FILE.test(base) && !TOOL_CONFIG.test(base) && !parts.slice(0, -1).some((part) => EXCLUDED_FOLDERS.has(part))
  },

  async run(request, processes) {
    const reportFile = join(request.scratchDir, REPORT_FILE)
    const coverageFile = join(request.scratchDir, 'coverage', 'coverage-final.json')
    // Reports left by an earlier run must not pass for this one's.
    await makeRunnerFolder(request.scratchDir)
    await removeInside(request.scratchDir, REPORT_FILE)
    await removeInside(request.scratchDir, 'coverage/coverage-final.json')
    const provider = request.coverage ? coverageProvider(request.treeDir) : null
    // `--sequence.shuffle`: files and tests in a random order (vitest 0.30 and later know it).
    const version = installedVersion(request.treeDir, 'vitest')
    const shuffled = request.shuffle === true && atLeastVersion(version, 0, 30)
    const reporterArgs = (located: boolean) => [...VITEST_FLAGS, `--outputFile=${reportFile}`, ...coverageFlags(request, provider), ...(shuffled ? ['--sequence.shuffle'] : []), ...(located ? ['--includeTaskLocation'] : [])]
    const invocation = (located: boolean) => (request.command ? expandCommand(request.command, request.files, reporterArgs(located)) : defaultInvocation(request, reporterArgs(located)))
    if (!invocation(false)) return notInstalled(request)
    const runWith = (located: boolean) => processes.run({ ...invocation(located)!, cwd: request.treeDir, timeoutMs: request.timeoutMs })
    // `--includeTaskLocation` (a config option since vitest 1.4): each test's line, so same-titled tests stay
    // apart when shuffled. Some versions keep it off the command line (2.0 rejects it): then without it.
    const located = atLeastVersion(version, 1, 4)
    const first = await runWith(located)
    const result = located && LOCATION_REFUSED.test(first.output) ? await runWith(false) : first
    const output = trimTail(stripAnsi(result.output))
    const base = { exitCode: result.exitCode, timedOut: result.timedOut, durationMs: result.durationMs, output }
    const report = await readReport(request.scratchDir, reportFile)
    if (!report) {
      const reason = result.timedOut ? `vitest timed out after ${request.timeoutMs} ms` : `vitest wrote no report (exit ${result.exitCode})`
      const message = `${reason}\n${trimTail(output, 2000)}`
      return { ...base, tests: [], fileErrors: request.files.map((file) => ({ file, message })) }
    }
    const roots = await treeRoots(request.treeDir)
    const coverage = provider ? await readIstanbulCoverage(coverageFile, roots, request.scratchDir) : null
    return { ...base, ...readResults(report, request.files, roots), ...(coverage && { coverage }), ...(shuffled && { shuffled }) }
  }
}

const LOCATION_REFUSED = /Unknown option `--includeTaskLocation`/

/**
 * The tree's own vitest, run by node directly (no npx, no shell), once, without watching. The files go
 * before the flags: vitest 0.x takes the word after a flag it does not know (--coverage.reportOnFailure)
 * as that flag's value.
 */
function defaultInvocation(request: RunRequest, reporterArgs: string[]): CommandLine | null {
  // Through the wrapper CLI the test script calls, if any (CI=true keeps it from watching).
  const wrapper = request.wrapper ?? null
  const bin = wrapper ? wrapperBin(request.treeDir, wrapper) : installedBin(request.treeDir, 'vitest')
  if (!bin) return null
  return { command: process.execPath, args: [bin, ...(wrapper?.args ?? ['run']), ...request.files, ...reporterArgs], env: wrapper?.env ?? {} }
}

/** v8, else istanbul, else none: a missing provider would make vitest stop and offer to install it. */
function coverageProvider(treeDir: string): string | null {
  return ['v8', 'istanbul'].find((provider) => packageDir(treeDir, `@vitest/coverage-${provider}`)) ?? null
}

async function hasViteTestSection(repoDir: string): Promise<boolean> {
  for (const file of VITE_CONFIGS) {
    const text = await readFile(join(repoDir, file), 'utf8').catch(() => '')
    if (/\btest\s*:/.test(text)) return true
  }
  return false
}

function notInstalled(request: RunRequest): RunResult {
  const message = `vitest is not installed in ${request.treeDir} (no node_modules/vitest/package.json from it)`
  return { tests: [], fileErrors: request.files.map((file) => ({ file, message })), exitCode: null, timedOut: false, durationMs: 0, output: message }
}

async function readReport(scratchRoot: string, reportFile: string): Promise<VitestFileResult[] | null> {
  try {
    const text = await readSandboxFile(scratchRoot, reportFile, 'results')
    const report = text === null ? null : (parseSandboxJson(reportFile, text) as { testResults?: VitestFileResult[] } | null)
    return Array.isArray(report?.testResults) ? report.testResults : null
  } catch (error) {
    if (error instanceof SandboxFileRefused) throw error
    return null
  }
}

/** Per-test results of the requested files (vitest's file filters match substrings, so it may run more). */
function readResults(report: VitestFileResult[], files: string[], roots: string[]): Pick<RunResult, 'tests' | 'fileErrors'> {
  const requested = new Set(files)
  const tests: TestResult[] = []
  const fileErrors: RunResult['fileErrors'] = []
  const seen = new Set<string>()
  for (const fileResult of report) {
    const file = repoRelative(fileResult.name, roots)
    if (!requested.has(file)) continue
    seen.add(file)
    const assertions = fileResult.assertionResults ?? []
    const fileMessage = cleanMessage(fileResult.message ?? '')
    const results = assertions.map((assertion) => toTestResult(file, assertion, fileMessage || HOOK_FAILED))
    // The file failed but no test did: it did not load or collect, or a hook failed and kept tests from
    // running. vitest ≥ 1 marks such a file failed; 0.x only gives its message.
    if ((fileResult.status === 'failed' || fileMessage) && !results.some((test) => test.status === 'failed')) {
      const message = fileMessage || (assertions.length ? HOOK_FAILED : 'the test file failed to run')
      for (const test of results) if (test.status !== 'passed') Object.assign(test, { status: 'errored', message })
      if (!results.some((test) => test.status === 'errored')) fileErrors.push({ file, message })
    }
    appendAll(tests, results)
  }
  for (const file of files) {
    if (!seen.has(file)) fileErrors.push({ file, message: 'vitest did not run this file (does it match the include / exclude of the vitest config?)' })
  }
  return { tests, fileErrors }
}

/** `notRun` explains a test vitest meant to run but did not (`pending`): its file's setup failed. */
function toTestResult(file: string, assertion: VitestAssertion, notRun: string): TestResult {
  const failure = assertion.failureMessages?.[0] ?? ''
  const status = toStatus(assertion.status)
  return {
    file,
    // vitest 0.x puts the file's unnamed suite first, as ''.
    name: [...(assertion.ancestorTitles ?? []).filter(Boolean), assertion.title].join(' › '),
    ...lineOf(assertion),
    status,
    durationMs: typeof assertion.duration === 'number' ? Math.round(assertion.duration) : null,
    message: failure ? cleanMessage(failure) : status === 'errored' ? notRun : ''
  }
}

const lineOf = (assertion: VitestAssertion) => (typeof assertion.location?.line === 'number' ? { line: assertion.location.line } : {})

function cleanMessage(text: string): string {
  const lines = stripAnsi(text).split('\n').filter((line) => !INTERNAL_FRAME.test(line))
  return trimMessage(lines.join('\n'))
}

function toStatus(status: string): TestStatus {
  if (status === 'passed') return 'passed'
  if (status === 'failed') return 'failed'
  // Meant to run, never did (a failed hook or collection): not a pass, not a choice to skip.
  if (status === 'pending') return 'errored'
  // skipped, todo, disabled: the test was not to run.
  return 'skipped'
}
