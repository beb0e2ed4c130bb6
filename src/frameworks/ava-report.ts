/**
 * ava's TAP 13 report (`--tap`), read with tap-parser → per-test results and file errors. ava prefixes a
 * test's title with its file's title when a run has more than one file; the results keep the title alone.
 */
import { posix } from 'node:path'
import { Parser, type Result } from 'tap-parser'
import type { RunResult, TestResult } from '../domain.js'
import { fileUrlsToPaths } from './node-test-report.js'
import { stripAnsi, trimMessage } from './output.js'

/** Between a file's title and a test's title (figures' pointerSmall, as ava prints it on Linux and macOS). */
const SEPARATOR = ' › '
// Crash lines that name their file, as ava's TAP reporter writes them.
const FILE_CRASHES = [/^(.+) exited with a non-zero exit code: \d+$/, /^(.+) exited due to \S+$/, /^No tests found in (.+?)(?:, make sure to import "ava" at the top of your test file)?$/]
// Crash lines of an error outside any test, when the error had neither stack nor message.
const EVENT_CRASHES = new Set(['uncaught-exception', 'unhandled-rejection', 'internal-error'])
// A hook ava named itself (an untitled `before`, `after.always`, `beforeEach … for <test>`).
const DEFAULT_HOOK = /^(?:before|after)(?:Each)?(?:\.always)? hook(?: for .*)?$/
const INTERNAL_AT = /node_modules[\\/]|node:internal|^node:/

/** One test point of the report: a test, a failed hook, or a crash. */
export interface AvaPoint {
  name: string
  ok: boolean
  skip: boolean
  todo: boolean
  diag: Record<string, unknown> | null
}

/** The test points of a TAP report, in order; null when the text holds no TAP report (ava never started one). */
export function parseTap(tap: string): AvaPoint[] | null {
  if (!/^TAP version \d+/m.test(tap)) return null
  const points: AvaPoint[] = []
  const parser = new Parser()
  parser.on('assert', (result: Result) => points.push(toPoint(result)))
  parser.end(tap)
  return points
}

export function toPoint(result: Result): AvaPoint {
  const diag = result.diag && typeof result.diag === 'object' ? (result.diag as Record<string, unknown>) : null
  return { name: stripAnsi(result.name), ok: result.ok, skip: Boolean(result.skip), todo: Boolean(result.todo), diag }
}

/**
 * The title ava gives a file when it prefixes test titles: its path below the files' common folder
 * (`__tests__` folders left out), its name without `.test.`/`.spec.`/`test-` and extension. Paths are
 * '/'-separated and relative to the folder ava runs in.
 */
export function fileTitle(file: string, files: string[]): string {
  const parts = file.slice(commonFolder(files).length).split('/').filter((part) => part !== '__tests__')
  const name = parts.pop()!.replace(/\.spec\./, '.').replace(/\.test\./, '.').replace(/test-/, '').replace(/\.[^.]+$/, '')
  return [...parts, name].join(SEPARATOR)
}

/** The folder (with its trailing '/') that all the files are in, as ava's `common-path-prefix` finds it. */
function commonFolder(files: string[]): string {
  const folders = files.map((file) => posix.dirname(file).split('/'))
  const common: string[] = []
  for (let i = 0; folders.every((folder) => folder[i] !== undefined && folder[i] === folders[0][i]); i++) common.push(folders[0][i])
  const prefix = common.filter((part) => part !== '.').join('/')
  return prefix ? `${prefix}/` : ''
}

/**
 * Per-test results of the requested files (paths relative to the folder ava ran in). A file that crashed,
 * held no tests, or had a hook fail goes to fileErrors, with the error that crashed it when the error
 * names the file (an import that failed does).
 */
export function readAvaResults(points: AvaPoint[], files: string[]): Pick<RunResult, 'tests' | 'fileErrors'> {
  const tests: TestResult[] = []
  const errors = new Map<string, string[]>()
  const addError = (file: string, message: string) => errors.set(file, [...(errors.get(file) ?? []), message])
  const crashes: AvaPoint[] = []
  const titles = files.length > 1 ? files.map((file) => ({ file, prefix: fileTitle(file, files) + SEPARATOR })) : []
  for (const point of points) {
    const crashedFile = crashFile(point, files)
    if (crashedFile) addError(crashedFile, point.name)
    else if (isCrash(point)) crashes.push(point)
    else {
      const owner = ownerOf(point.name, titles, files)
      if (!owner) crashes.push(point)
      else if (DEFAULT_HOOK.test(owner.title) && !point.ok) addError(owner.file, `${owner.title} failed: ${failureMessage(point)}`)
      else tests.push(toTestResult(owner.file, owner.title, point))
    }
  }
  attributeCrashes(crashes, files, errors, addError)
  for (const file of files) {
    if (!errors.has(file) && !tests.some((test) => test.file === file)) addError(file, 'ava ran no test from this file (is it one of the test files the ava configuration selects?)')
  }
  const fileErrors = files.filter((file) => errors.has(file)).map((file) => ({ file, message: trimMessage(errors.get(file)!.join('\n\n')) }))
  return { tests, fileErrors }
}

/** The requested file a crash line names ("… exited with a non-zero exit code", "No tests found in …"). */
function crashFile(point: AvaPoint, files: string[]): string | null {
  if (point.ok || point.diag) return null
  for (const pattern of FILE_CRASHES) {
    const named = pattern.exec(point.name)?.[1]
    if (named !== undefined) return files.find((file) => posix.normalize(file) === posix.normalize(named.split('\\').join('/'))) ?? null
  }
  return null
}

/**
 * An error outside any test: ava titles it with the error's first stack line (or its message), and it is
 * not one of ava's own assertion failures.
 */
function isCrash(point: AvaPoint): boolean {
  if (point.ok) return false
  if (EVENT_CRASHES.has(point.name)) return true
  const message = typeof point.diag?.message === 'string' ? point.diag.message : null
  return point.diag?.name !== 'AssertionError' && message !== null && message !== '' && (point.name === message || point.name.endsWith(`: ${message}`))
}

/** The requested file a test point belongs to, and its title without the file's title. */
function ownerOf(name: string, titles: Array<{ file: string; prefix: string }>, files: string[]): { file: string; title: string } | null {
  if (files.length === 1) return { file: files[0], title: name }
  // The longest prefix first: `a › b` is a file below `a` rather than a test of `a` titled `b › …`.
  const match = titles.filter(({ prefix }) => name.startsWith(prefix)).sort((a, b) => b.prefix.length - a.prefix.length)[0]
  return match ? { file: match.file, title: name.slice(match.prefix.length) } : null
}

/**
 * Crashes go to the file whose path they mention (a failed import names the importer), else to the files
 * that ended with a crash line, else to every file: whichever it was, it did not run as it should.
 */
function attributeCrashes(crashes: AvaPoint[], files: string[], errors: Map<string, string[]>, addError: (file: string, message: string) => void): void {
  const crashed = [...errors.keys()]
  for (const crash of crashes) {
    const text = `${crash.name}\n${JSON.stringify(crash.diag ?? {})}`
    const named = files.filter((file) => text.includes(`/${file}`) || text.startsWith(file))
    const targets = named.length ? named : crashed.length ? crashed : files
    for (const file of targets) addError(file, failureMessage(crash))
  }
}

function toTestResult(file: string, title: string, point: AvaPoint): TestResult {
  // A todo test is reported `not ok # TODO`: like a skipped one, it says nothing yet.
  const status = point.skip || point.todo ? 'skipped' : point.ok ? 'passed' : 'failed'
  return { file, name: title, status, durationMs: null, message: status === 'failed' ? failureMessage(point) : '' }
}

/**
 * The failure as ava describes it: the message, the assertion and its formatted details (the difference
 * between actual and expected, the error a test threw), and where it happened when that is the test's code.
 */
export function failureMessage(point: AvaPoint): string {
  const diag = point.diag ?? {}
  const text = (value: unknown) => (typeof value === 'string' ? value : '')
  const name = text(diag.name)
  const message = text(diag.message) || point.name
  const lines = [name && name !== 'AssertionError' && !message.startsWith(name) ? `${name}: ${message}` : message]
  if (text(diag.assertion)) lines.push(`assertion: ${text(diag.assertion)}`)
  if (diag.details && typeof diag.details === 'object') {
    for (const [label, formatted] of Object.entries(diag.details as Record<string, unknown>)) lines.push(`${label}\n${text(formatted)}`)
  }
  if (text(diag.formatted)) lines.push(text(diag.formatted))
  const at = text(diag.at)
  if (at && !INTERNAL_AT.test(at)) lines.push(`at ${at}`)
  return trimMessage(fileUrlsToPaths(stripAnsi(lines.join('\n'))) || 'failed without an error message')
}
