/**
 * node-tap: found by its dependency, config file or test script; run by path with its TAP reporter, the
 * report read like ava's (tap-report.ts). tap 16 and older run nyc unless told not to (`--no-coverage`);
 * tap 18+ (the @tapjs packages) collect coverage unless told not to (`--disable-coverage`).
 */
import { existsSync } from 'node:fs'
import { join } from 'node:path'
import type { RunResult } from '../domain.js'
import type { FrameworkAdapter, RunRequest } from './adapter.js'
import { toReportFile, withTimeout } from './ava.js'
import { expandCommand, type CommandLine } from './command.js'
import { readSandboxFile } from '../ports/sandbox-files.js'
import { removeInside } from '../ports/sandbox-writes.js'
import { stripAnsi, trimTail } from './output.js'
import { assignments, scriptCommands } from './package-scripts.js'
import { atLeastVersion, declares, installedBin, installedVersion, readPackageJson, type PackageJson } from './packages.js'
import { treeRoots } from './paths.js'
import { makeRunnerFolder } from './runner-folder.js'
import { parseTapTree, readTapResults } from './tap-report.js'
import { readV8Coverage, v8CoverageDir, v8CoverageEnv } from './v8-coverage.js'

const PACKAGES = ['tap', '@tapjs/run']
const CONFIG_FILES = ['.taprc', '.taprc.yml', '.taprc.yaml']
const TAP_WORD = /(?:^|[\\/])tap$/
const REPORT_FILE = 'tap.tap'
// tap's default test files (tap 16's --test-regex and tap 18+'s --include, merged): any script in a test
// folder, `*.test.*`/`*.spec.*` anywhere, a file named test(s).*; never in the folders tap always skips.
const SCRIPT_FILE = /\.(?:[cm]?js|jsx|[cm]?ts|tsx)$/
const TEST_NAME = /(?:\.(?:tests?|spec)|^tests?)\.[^.]+$/
const TEST_FOLDERS = new Set(['test', 'tests', '__test__', '__tests__'])
const EXCLUDED_FOLDERS = new Set(['node_modules', 'tap-snapshots', 'fixture', 'fixtures', 'dist'])

export const tapAdapter: FrameworkAdapter = {
  name: 'tap',
  coverageNeeds: "test processes run by node that keep the NODE_V8_COVERAGE variable and exit normally (node writes their V8 coverage as they exit; tap's own coverage is turned off)",

  async detect(repoDir) {
    const manifest = await readPackageJson(repoDir)
    if (manifest && usesTap(manifest)) return true
    return CONFIG_FILES.some((file) => existsSync(join(repoDir, file)))
  },

  loadingTest: (imports, importSyntax) => `${importSyntax ? "import t from 'tap'" : "const t = require('tap')"}\n${imports}\n\nt.test('loads', async (t) => {\n  t.pass('loaded')\n})\n`,

  isTestFile(path) {
    const parts = path.split('/')
    const base = parts[parts.length - 1]
    const folders = parts.slice(0, -1)
    if (!SCRIPT_FILE.test(base) || /\.d\.[cm]?ts$/.test(base) || parts.some((part) => part.startsWith('.'))) return false
    if (folders.some((folder) => EXCLUDED_FOLDERS.has(folder) || folder.startsWith('tap-testdir-'))) return false
    return TEST_NAME.test(base) || folders.some((folder) => TEST_FOLDERS.has(folder))
  },

  async run(request, processes) {
    await makeRunnerFolder(request.scratchDir)
    const tap = installedBin(request.treeDir, 'tap')
    if (!tap && !request.command) return notInstalled(request)
    const reportFile = join(request.scratchDir, REPORT_FILE)
    // A report left by an earlier run must not pass for this one's.
    await removeInside(request.scratchDir, REPORT_FILE)
    const tapArgs = ['--reporter=tap', noCoverageFlag(request.treeDir)]
    const invocation = request.command ? expandCommand(request.command, request.files, tapArgs) : await defaultInvocation(request, tap!, tapArgs)
    // tap's report goes to stdout; the tests' stderr (a crash's stack) stays in the run's output.
    const wrapped = await toReportFile(invocation, reportFile, request.scratchDir)
    const v8 = request.coverage ? await v8CoverageEnv(request.scratchDir) : null
    const ran = await processes.run({ ...wrapped, env: { ...wrapped.env, ...v8 }, cwd: request.treeDir, timeoutMs: request.timeoutMs })
    // A missing report reads as no TAP; a link, FIFO or oversized one ends the run (sandbox-files.ts).
    const report = (await readSandboxFile(request.scratchDir, reportFile, 'results')) ?? ''
    const output = trimTail(stripAnsi(`${ran.output}\n${report}`))
    const base = { exitCode: ran.exitCode, timedOut: ran.timedOut, durationMs: ran.durationMs, output }
    const files = parseTapTree(report)
    if (!files) return { ...base, tests: [], fileErrors: request.files.map((file) => ({ file, message: noReport(ran.timedOut, ran.exitCode, output, request) })) }
    const results = withTimeout(readTapResults(files, request.files, ran.output), ran.timedOut, request, 'tap')
    const testFiles = new Set(request.files)
    const coverage = v8 ? await readV8Coverage(v8CoverageDir(request.scratchDir), await treeRoots(request.treeDir), { exclude: (file) => testFiles.has(file) || tapAdapter.isTestFile(file) }) : null
    return { ...base, ...results, ...(coverage && { coverage }) }
  }
}

/** tap 18+ says `--disable-coverage`; tap 16 and older `--no-coverage`. A tap not found is taken for a current one. */
function noCoverageFlag(treeDir: string): string {
  const version = installedVersion(treeDir, 'tap')
  return version === null || atLeastVersion(version, 18) ? '--disable-coverage' : '--no-coverage'
}

/** The tree's tap, run by node directly (no npx, no shell), with the variables its test script sets. */
async function defaultInvocation(request: RunRequest, tapBin: string, tapArgs: string[]): Promise<CommandLine> {
  const manifest = await readPackageJson(request.treeDir)
  return { command: process.execPath, args: [tapBin, ...tapArgs, ...request.files], env: scriptEnv(manifest?.scripts?.test) }
}

/** `NAME=value` words before tap in the test script (e.g. `TZ=UTC tap`). */
function scriptEnv(script: string | undefined): Record<string, string> {
  for (const words of scriptCommands(script ?? '')) {
    const at = words.findIndex((word) => TAP_WORD.test(word))
    if (at >= 0) return assignments(words.slice(0, at))
  }
  return {}
}

function usesTap(manifest: PackageJson): boolean {
  return PACKAGES.some((name) => declares(manifest, name)) || scriptCommands(manifest.scripts?.test ?? '').some((words) => words.some((word) => TAP_WORD.test(word)))
}

function noReport(timedOut: boolean, exitCode: number | null, output: string, request: RunRequest): string {
  const reason = timedOut ? `tap timed out after ${request.timeoutMs} ms` : `tap wrote no TAP report (exit ${exitCode})`
  return `${reason}\n${trimTail(output, 2000)}`
}

function notInstalled(request: RunRequest): RunResult {
  const message = `tap is not installed in ${request.treeDir} (no node_modules/tap/package.json from it)`
  return { tests: [], fileErrors: request.files.map((file) => ({ file, message })), exitCode: null, timedOut: false, durationMs: 0, output: message }
}
