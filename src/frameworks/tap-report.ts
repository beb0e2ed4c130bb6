/**
 * node-tap's TAP report (`--reporter=tap`), read with the parser the ava adapter uses → per-test results
 * and file errors. tap runs each file in its own process and reports it as a top-level subtest named by its
 * path; a test is a subtest (`t.test`) or an assertion made outside any subtest, named by its subtests'
 * titles joined with ' › '. The subtests' own assertions are not tests: they are how a test fails.
 */
import { posix } from 'node:path'
import { Parser, type Result } from 'tap-parser'
import type { RunResult, TestResult } from '../domain.js'
import { escapeRegExp } from '../regexp.js'
import { toPoint, type AvaPoint } from './ava-report.js'
import { fileUrlsToPaths } from './node-test-report.js'
import { stripAnsi, trimMessage } from './output.js'

const SEPARATOR = ' › '
// Output lines kept either side of a crashed file's first mention.
const CONTEXT_LINES = 4
// A report tap started: tap 18+ leaves out the version line when the report goes to a file.
const TAP_STARTED = /^(?:TAP version \d+|# Subtest: |1\.\.\d+|(?:not )?ok\b)/m

/** A subtest (a file, or a `t.test` in one): its closing test point, its subtests and its own assertions. */
export interface TapNode {
  name: string
  point: AvaPoint | null
  subtests: TapNode[]
  assertions: AvaPoint[]
}

/** The report's top-level subtests (one per file tap ran); null when the text holds no TAP (tap never started). */
export function parseTapTree(tap: string): TapNode[] | null {
  if (!TAP_STARTED.test(tap)) return null
  const root: TapNode = { name: '', point: null, subtests: [], assertions: [] }
  const parser = new Parser()
  listen(parser, root)
  parser.end(tap)
  return root.subtests
}

/** Fills `node` from a parser: a child parser is a subtest, closed by the parent's next closing test point. */
function listen(parser: Parser, node: TapNode): void {
  const open: TapNode[] = []
  parser.on('child', (child: Parser) => {
    const subtest: TapNode = { name: unescapeName(child.name), point: null, subtests: [], assertions: [] }
    node.subtests.push(subtest)
    open.push(subtest)
    listen(child, subtest)
  })
  parser.on('assert', (result: Result) => {
    const subtest = result.closingTestPoint ? open.shift() : undefined
    const point = toPoint(result)
    point.name = unescapeName(point.name)
    if (subtest) subtest.point = point
    else node.assertions.push(point)
  })
}

/** A title as the test gave it: TAP escapes `#` (a directive's start) and `\` in descriptions. */
function unescapeName(name: string): string {
  return name.replace(/\\([#\\])/g, '$1')
}

/**
 * Per-test results of the requested files (paths relative to the folder tap ran in). A file that ran no
 * test, or whose process failed outside its tests (an import that failed, a crash, a plan it broke), goes to
 * fileErrors; `output` (the run's own output, where a crashed file's stderr went) is searched for the file's
 * error.
 */
export function readTapResults(files: TapNode[], requested: string[], output: string): Pick<RunResult, 'tests' | 'fileErrors'> {
  const tests: TestResult[] = []
  const fileErrors: RunResult['fileErrors'] = []
  for (const file of requested) {
    const node = files.find((entry) => samePath(entry.name, file))
    if (!node) {
      fileErrors.push({ file, message: 'tap did not run this file (is it one of the files its configuration runs?)' })
      continue
    }
    const found = testsOf(node, [], file)
    tests.push(...found)
    const error = fileError(node, found, file, output)
    if (error) fileErrors.push({ file, message: trimMessage(error) })
  }
  return { tests, fileErrors }
}

/** The tests of a subtest: its leaf subtests, and its own assertions where it has subtests too (or it is the file). */
function testsOf(node: TapNode, titles: string[], file: string): TestResult[] {
  const nested = node.subtests.flatMap((subtest) => testsOf(subtest, [...titles, subtest.name], file))
  const isFile = titles.length === 0
  if (!isFile && node.subtests.length === 0) return [leafTest(node, titles, file)]
  const own = node.assertions.map((assertion) => toTestResult(file, [...titles, assertion.name].join(SEPARATOR), assertion, [assertion]))
  return [...own, ...nested]
}

function leafTest(node: TapNode, titles: string[], file: string): TestResult {
  const point = node.point ?? { name: node.name, ok: false, skip: false, todo: false, diag: { message: 'tap reported no result for this test' } }
  return toTestResult(file, titles.join(SEPARATOR), point, node.assertions.length ? node.assertions : [point])
}

function toTestResult(file: string, name: string, point: AvaPoint, assertions: AvaPoint[]): TestResult {
  // A todo test is reported `ok # TODO`: like a skipped one, it says nothing yet.
  const status = point.skip || point.todo ? 'skipped' : point.ok ? 'passed' : 'failed'
  const failures = assertions.filter((assertion) => !assertion.ok && !assertion.skip && !assertion.todo)
  const message = status === 'failed' ? trimMessage(failures.map(tapFailureMessage).join('\n\n') || tapFailureMessage(point)) : ''
  return { file, name, status, durationMs: null, message }
}

/**
 * Why a file failed outside its tests: it ran none (`1..0 # no tests found`: an import failed, or it defines
 * none), or tap failed it with every test passing (its process exited non-zero, a broken plan).
 */
function fileError(node: TapNode, tests: TestResult[], file: string, output: string): string | null {
  if (tests.length > 0 && (node.point?.ok !== false || tests.some((test) => test.status === 'failed'))) return null
  if (tests.length === 0 && node.point?.skip) return 'tap ran no test from this file (it defines none)'
  const exitCode = node.point?.diag?.exitCode
  const signal = node.point?.diag?.signal
  const how = typeof signal === 'string' ? `was killed by ${signal}` : typeof exitCode === 'number' ? `exited with code ${exitCode}` : 'failed'
  const reason = tests.length === 0 ? `tap ran no test from this file: its process ${how}` : `tap failed this file after its tests passed: its process ${how}`
  const said = outputAbout(file, output)
  return said ? `${reason}\n${said}` : reason
}

/**
 * The lines of the run's output around the file's first mention: a crashed file's stderr reaches the run's
 * output, its error a few lines above the stack frame that names the file.
 */
function outputAbout(file: string, output: string): string {
  const lines = stripAnsi(output).split('\n')
  const mention = new RegExp(`(?:^|[\\s/(])${escapeRegExp(file)}\\b`)
  const at = lines.findIndex((line) => mention.test(line))
  return at < 0 ? '' : trimMessage(lines.slice(Math.max(0, at - CONTEXT_LINES), at + CONTEXT_LINES).join('\n'))
}

/** The failure as tap describes it: the error's type and message, the diff, and where it happened. */
export function tapFailureMessage(point: AvaPoint): string {
  const diag = point.diag ?? {}
  const text = (value: unknown) => (typeof value === 'string' ? value.trimEnd() : '')
  const type = text(diag.type)
  const message = text(diag.message) || point.name
  const lines = [type && !message.startsWith(type) ? `${type}: ${message}` : message]
  if (text(diag.diff)) lines.push(text(diag.diff))
  else if ('found' in diag || 'wanted' in diag) lines.push(`found: ${JSON.stringify(diag.found)}\nwanted: ${JSON.stringify(diag.wanted)}`)
  const at = where(diag.at)
  if (at) lines.push(`at ${at}`)
  if (text(diag.stack)) lines.push(text(diag.stack))
  // tap 16 writes a file URL's path relative to the folder it runs in (`file://test/a.test.mjs:3:7`).
  return trimMessage(fileUrlsToPaths(stripAnsi(lines.join('\n'))).replace(/file:\/\/(?=[^/])/g, '') || 'failed without an error message')
}

/** `file:line:column` from tap's `at`: `{file, line, column}` (tap 16) or `{fileName, lineNumber, columnNumber}` (18+). */
function where(at: unknown): string {
  if (!at || typeof at !== 'object') return ''
  const value = at as Record<string, unknown>
  const file = value.file ?? value.fileName
  const line = value.line ?? value.lineNumber
  const column = value.column ?? value.columnNumber
  return typeof file === 'string' ? [file, line, column].filter((part) => part !== undefined).join(':') : ''
}

function samePath(reported: string, file: string): boolean {
  return posix.normalize(reported.split('\\').join('/')) === posix.normalize(file)
}
