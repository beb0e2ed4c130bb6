/** mocha: found by its dependency, config file or test script; run by path, read from its JSON reporter. */
import { existsSync } from 'node:fs'
import { join, resolve, sep } from 'node:path'
import { appendAll } from '../arrays.js'
import type { FileCoverage, RunResult } from '../domain.js'
import type { ProcessResult, ProcessRunner } from '../ports/process.js'
import { declares, readPackageJson, type PackageJson } from './packages.js'
import type { FrameworkAdapter, RunRequest } from './adapter.js'
import { expandCommand, type CommandLine } from './command.js'
import { readIstanbulCoverage } from './istanbul.js'
import { mochaCommandArgs, parseMochaArgs, parseOptsFile, scriptFlags, type ScriptFlags } from './mocha-args.js'
import { findC8, findMocha, writeConfigWrapper, type MochaInstall } from './mocha-install.js'
import { extractReport, namesFiles, readReportFile, readResults, withoutInternalFrames, type MochaReport } from './mocha-report.js'
import { stripAnsi, trimTail } from './output.js'
import { treeRoots } from './paths.js'
import { makeRunnerConfigFolder, makeRunnerFolder } from './runner-folder.js'
import { removeInside, writeInside } from '../ports/sandbox-writes.js'
import { readSandboxFile, SandboxFileRefused } from '../ports/sandbox-files.js'
import { readV8Coverage, v8CoverageDir, v8CoverageEnv } from './v8-coverage.js'

const CONFIG_FILES = ['js', 'cjs', 'mjs', 'json', 'jsonc', 'yml', 'yaml'].map((ext) => `.mocharc.${ext}`)
const SCRIPT_FILE = /\.[cm]?[jt]s$/
const SPEC_NAME = /\.(?:spec|test)\.[cm]?[jt]s$/
const TEST_FOLDERS = new Set(['test', 'tests'])
// Never specs: inputs of tests, and (for files not named *.spec.* / *.test.*) the suite's helpers. Narrow on
// purpose: `test/utils.js` is as likely the spec of `lib/utils.js` as a helper, and a spec taken for a
// helper is never run, while a helper taken for a spec only shows up as a file without tests.
const EXCLUDED_FOLDERS = new Set(['node_modules', 'fixtures', '__fixtures__'])
const HELPER_FOLDERS = new Set(['helpers', 'helper', 'support', 'mocks', '__mocks__'])
const HELPER_NAME = /^(?:setup|helpers?|bootstrap|global-setup)\.[cm]?[jt]s$/
const REPORT_FILE = 'mocha-results.json'

/** One run of mocha on some files: what the process did and the report it left, if any. */
interface Attempt {
  process: ProcessResult
  output: string
  report: MochaReport | null
}

export const mochaAdapter: FrameworkAdapter = {
  name: 'mocha',
  coverageNeeds: "the repository's c8, else test processes run by node that keep the NODE_V8_COVERAGE variable and exit normally (node writes their V8 coverage as they exit)",

  async detect(repoDir) {
    const manifest = await readPackageJson(repoDir)
    if (manifest && usesMocha(manifest)) return true
    return CONFIG_FILES.some((file) => existsSync(join(repoDir, file)))
  },

  // `it` under the BDD interface, `test` under TDD.
  loadingTest: (imports) => `${imports}\n\n;(typeof it === 'function' ? it : test)('loads', function () {})\n`,

  isTestFile(path) {
    const parts = path.split('/')
    const base = parts[parts.length - 1]
    const folders = parts.slice(0, -1)
    if (!SCRIPT_FILE.test(base) || base.endsWith('.d.ts') || base.startsWith('.')) return false
    if (folders.some((folder) => EXCLUDED_FOLDERS.has(folder))) return false
    if (SPEC_NAME.test(base)) return true
    // mocha's default spec is the ./test folder: any script in it that is not a helper.
    return folders.some((folder) => TEST_FOLDERS.has(folder)) && !folders.some((folder) => HELPER_FOLDERS.has(folder)) && !HELPER_NAME.test(base)
  },

  async run(request, processes) {
    await makeRunnerFolder(request.scratchDir)
    const mocha = findMocha(request.treeDir)
    if (!mocha && !request.command) return notInstalled(request)
    const first = await runMocha(request, processes, mocha, request.files, request.scratchDir)
    const base = { exitCode: first.process.exitCode, timedOut: first.process.timedOut, durationMs: first.process.durationMs, output: first.output }
    const roots = await treeRoots(request.treeDir)
    // A report that names no files (mocha < 6) is only of use for a single file.
    if (first.report && (namesFiles(first.report) || request.files.length === 1)) {
      const coverage = request.coverage ? await readCoverage(request, roots) : null
      return { ...base, ...readResults(first.report, request.files, roots), ...(coverage && { coverage }) }
    }
    // mocha loads every file before it runs any, so one that cannot load ends the run without a report.
    // Alone, each file shows whether it is the one (and whose tests are whose, for an old mocha).
    if (!first.process.timedOut && request.files.length > 1) return isolate(request, processes, mocha, base, roots)
    return { ...base, tests: [], fileErrors: request.files.map((file) => ({ file, message: noReport(first, request) })) }
  }
}

async function isolate(request: RunRequest, processes: ProcessRunner, mocha: MochaInstall | null, base: Omit<RunResult, 'tests' | 'fileErrors'>, roots: string[]): Promise<RunResult> {
  const result: RunResult = { ...base, tests: [], fileErrors: [] }
  const outputs = [base.output]
  for (const [index, file] of request.files.entries()) {
    const alone = await runMocha({ ...request, coverage: false }, processes, mocha, [file], join(request.scratchDir, `file-${index + 1}`))
    outputs.push(`── ${file} alone ──\n${alone.output}`)
    result.durationMs += alone.process.durationMs
    result.timedOut ||= alone.process.timedOut
    if (!alone.report) result.fileErrors.push({ file, message: noReport(alone, request) })
    else {
      const { tests, fileErrors } = readResults(alone.report, [file], roots)
      appendAll(result.tests, tests)
      appendAll(result.fileErrors, fileErrors)
    }
  }
  return { ...result, output: trimTail(outputs.join('\n')) }
}

/** Coverage of the first run: c8's istanbul JSON, else node's own V8 coverage (see runMocha). */
async function readCoverage(request: RunRequest, roots: string[]): Promise<FileCoverage[] | null> {
  if (findC8(request.treeDir)) return readIstanbulCoverage(join(request.scratchDir, 'coverage', 'coverage-final.json'), roots, request.scratchDir)
  const testFiles = new Set(request.files)
  return readV8Coverage(v8CoverageDir(request.scratchDir), roots, { exclude: (file) => testFiles.has(file) || mochaAdapter.isTestFile(file) })
}

/**
 * Runs the files once and reads the report. Coverage, when asked: through the repository's c8, else through
 * node itself (NODE_V8_COVERAGE, which mocha's child processes and workers inherit).
 */
async function runMocha(request: RunRequest, processes: ProcessRunner, mocha: MochaInstall | null, files: string[], scratchDir: string): Promise<Attempt> {
  const reportFile = join(scratchDir, REPORT_FILE)
  // Reports left by an earlier run must not pass for this one's.
  await makeRunnerFolder(scratchDir)
  await removeInside(scratchDir, REPORT_FILE)
  await removeInside(scratchDir, 'coverage', { recursive: true })
  const reporterArgs = mochaReporterArgs(mocha, reportFile)
  const invocation = request.command ? await commandInvocation(request, request.command, mocha, files, reporterArgs) : await defaultInvocation(request, mocha!, files, reporterArgs)
  const c8 = request.coverage ? findC8(request.treeDir) : null
  const v8 = request.coverage && !c8 ? await v8CoverageEnv(scratchDir) : null
  const command = c8 ? withCoverage(invocation, c8, scratchDir) : v8 ? { ...invocation, env: { ...invocation.env, ...v8 } } : invocation
  const ran = await processes.run({ ...command, cwd: request.treeDir, timeoutMs: request.timeoutMs })
  const output = stripAnsi(ran.output)
  const fromFile = await readReportFile(scratchDir, reportFile)
  if (fromFile) return { process: ran, output: trimTail(output), report: fromFile }
  // A mocha older than 9.2 (or one that could not write the file) prints the JSON report to stdout.
  const printed = extractReport(output)
  return { process: ran, output: trimTail(printed ? printed.rest : output), report: printed?.report ?? null }
}

/**
 * The JSON reporter, into a file where mocha can; `--exit` (mocha ≥ 4 waits for open handles, so a test
 * that leaves a server or timer running would hold the run until the timeout); and, where mocha has it,
 * tests a failed hook kept from running reported as failed rather than left out.
 */
export function mochaReporterArgs(mocha: MochaInstall | null, reportFile: string): string[] {
  const toFile = !mocha || mocha.jsonToFile ? ['--reporter-options', `output=${reportFile}`] : []
  const exit = !mocha || mocha.exitFlag ? ['--exit'] : []
  const hooks = mocha?.failHookAffectedTests ? ['--fail-hook-affected-tests'] : []
  return ['--reporter', 'json', ...toFile, ...exit, ...hooks]
}

/**
 * The tree's mocha, run by node directly (no npx, no shell), with the flags of the repository's test script,
 * its `mocha.opts` (mocha ≤ 7) and its configuration through a wrapper (mocha ≥ 6), without their spec paths.
 */
async function defaultInvocation(request: RunRequest, mocha: MochaInstall, files: string[], reporterArgs: string[]): Promise<CommandLine> {
  const manifest = await readPackageJson(request.treeDir)
  const script = scriptFlags(manifest?.scripts)
  const flags = [...script.flags]
  // Beside the scratch folder, not in it: the tests may write their scratch folder, never what mocha loads.
  const configDir = await makeRunnerConfigFolder(request.scratchDir)
  if (mocha.readsOpts) {
    // Its flags on the command line instead, without its spec paths; mocha ≤ 5 gets an empty opts file.
    flags.unshift(...(await optsFileFlags(request.treeDir, script.opts)))
    flags.push(...(mocha.modern ? ['--no-opts'] : ['--opts', await emptyOptsFile(configDir)]))
  }
  if (mocha.modern) flags.push(...(await configWrapperFlags(request.treeDir, mocha, script, configDir)))
  return { command: process.execPath, args: [mocha.bin, ...flags, ...reporterArgs, ...files], env: script.env }
}

/**
 * The repository's own command (test-command, or the captured launch), with mocha's configuration through
 * the wrapper too where the command runs mocha ≥ 6 itself: a config's `spec` would add the whole suite to
 * the files given. The wrapper's `--config` comes last, so it is the one mocha reads.
 */
async function commandInvocation(request: RunRequest, command: string[], mocha: MochaInstall | null, files: string[], reporterArgs: string[]): Promise<CommandLine> {
  const args = mochaCommandArgs(command)
  if (!mocha?.modern || !args) return expandCommand(command, files, reporterArgs)
  const configFlags = await configWrapperFlags(request.treeDir, mocha, parseMochaArgs(args), await makeRunnerConfigFolder(request.scratchDir))
  return expandCommand(command, files, [...reporterArgs, ...configFlags])
}

/** `--config <wrapper> --no-package`: the configuration the command names (or mocha would find), without its spec. */
async function configWrapperFlags(treeDir: string, mocha: MochaInstall, sources: Pick<ScriptFlags, 'config' | 'package'>, configDir: string): Promise<string[]> {
  const packageJson = sources.package === false ? false : resolve(treeDir, sources.package ?? 'package.json')
  const config = typeof sources.config === 'string' ? resolve(treeDir, sources.config) : sources.config
  const found = packageJson !== false && existsSync(packageJson) ? packageJson : false
  const wrapper = await writeConfigWrapper(mocha, { config, package: found }, configDir)
  return ['--config', wrapper, '--no-package']
}

/**
 * The flags of a `mocha.opts` (mocha ≤ 7), its spec paths dropped. Read as runner output is: the tests may
 * have replaced it with a link to a file only the tool may read; a file outside the tree is not read.
 */
async function optsFileFlags(treeDir: string, opts: string | false | undefined): Promise<string[]> {
  if (opts === false) return []
  const path = resolve(treeDir, opts ?? 'test/mocha.opts')
  const text = await readSandboxFile(treeDir, path, 'config').catch((error: unknown) => {
    if (error instanceof SandboxFileRefused && !path.startsWith(treeDir + sep)) return ''
    throw error
  })
  return parseOptsFile(text ?? '').flags
}

async function emptyOptsFile(dir: string): Promise<string> {
  return writeInside(dir, 'mocha.opts', '')
}

/** c8 around the command: istanbul JSON in the scratch folder, and no coverage threshold failing the run. */
function withCoverage(invocation: CommandLine, c8Bin: string, scratchDir: string): CommandLine {
  const c8Args = ['--reporter=json', `--report-dir=${join(scratchDir, 'coverage')}`, `--temp-directory=${join(scratchDir, 'c8-temp')}`, '--check-coverage=false']
  return { command: process.execPath, args: [c8Bin, ...c8Args, invocation.command, ...invocation.args], env: invocation.env }
}

function usesMocha(manifest: PackageJson): boolean {
  return declares(manifest, 'mocha') || manifest.mocha !== undefined || /(?:^|[\s/])_?mocha\b/.test(manifest.scripts?.test ?? '')
}

function noReport(attempt: Attempt, request: RunRequest): string {
  const ran = attempt.process
  const reason = ran.timedOut ? `mocha timed out after ${request.timeoutMs} ms` : `mocha wrote no report (exit ${ran.exitCode})`
  return `${reason}\n${trimTail(withoutInternalFrames(attempt.output), 2000)}`
}

function notInstalled(request: RunRequest): RunResult {
  const message = `mocha is not installed in ${request.treeDir} (no node_modules/mocha/package.json from it)`
  return { tests: [], fileErrors: request.files.map((file) => ({ file, message })), exitCode: null, timedOut: false, durationMs: 0, output: message }
}
