/** pytest's machine-readable output: the JUnit XML report (`--junitxml`) and coverage.py's JSON report. */
import { parseSandboxJson, readSandboxFile, SandboxFileRefused } from '../ports/sandbox-files.js'
import { isAbsolute } from 'node:path'
import { XMLParser } from 'fast-xml-parser'
import type { FileCoverage, RunResult, TestResult, TestStatus } from '../domain.js'
import { stripAnsi, trimMessage } from './output.js'
import { repoRelative } from './paths.js'

/** The name of a test result that stands for a whole file skipped at collection (`pytest.importorskip`). */
export const MODULE_SKIPPED = '(module skipped)'

type Element = Record<string, unknown> | string
interface Case {
  classname?: string
  name?: string
  file?: string
  time?: string
  failure?: Element[]
  error?: Element[]
  skipped?: Element[]
}

const parser = new XMLParser({
  ignoreAttributes: false,
  attributeNamePrefix: '',
  parseTagValue: false,
  parseAttributeValue: false,
  trimValues: false,
  // pytest writes newlines in attributes as `&#10;`.
  htmlEntities: true,
  isArray: (name) => ['testsuite', 'testcase', 'failure', 'error', 'skipped'].includes(name)
})

/** Every <testcase> of the report, or null when there is no readable report. */
export async function readJunitCases(scratchRoot: string, reportPath: string): Promise<Case[] | null> {
  try {
    const text = await readSandboxFile(scratchRoot, reportPath, 'results')
    if (text === null) return null
    const xml = parser.parse(text) as { testsuites?: { testsuite?: Suite[] }; testsuite?: Suite[] }
    const suites = xml.testsuites?.testsuite ?? xml.testsuite
    if (!Array.isArray(suites)) return null
    return suites.flatMap((suite) => suite.testcase ?? [])
  } catch (error) {
    if (error instanceof SandboxFileRefused) throw error
    return null
  }
}
interface Suite {
  testcase?: Case[]
}

export interface CaseResults {
  tests: TestResult[]
  fileErrors: RunResult['fileErrors']
  /** The requested files that no test case named. */
  unreported: string[]
}

/** Test cases → per-test results on the requested files; collection errors → file errors. */
export function caseResults(cases: Case[], files: string[]): CaseResults {
  const tests: TestResult[] = []
  const fileErrors: RunResult['fileErrors'] = []
  const reported = new Set<string>()
  for (const testCase of cases) {
    const classname = testCase.classname ?? ''
    const name = testCase.name ?? ''
    // A collection report has no test: pytest names it by its module path alone, with an empty classname.
    const wholeFile = classname === '' || testCase.error?.some((error) => attribute(error, 'message') === 'collection failure') === true
    const address = wholeFile ? [classname, name].filter(Boolean).join('.') : classname
    const { file, classes } = locate(address, testCase.file, files)
    reported.add(file)
    const status = statusOf(testCase)
    if (wholeFile && status === 'errored') fileErrors.push({ file, message: messageOf(testCase.error) || 'the file could not be collected' })
    else tests.push({ file, name: [...classes, wholeFile ? MODULE_SKIPPED : name].join(' › '), status, durationMs: durationOf(testCase.time), message: messageFor(testCase, status) })
  }
  return { tests, fileErrors, unreported: files.filter((file) => !reported.has(file)) }
}

/**
 * The requested file a dotted address (`tests.unit.test_cart.TestTotals`) belongs to, and the classes
 * after it. Addresses are relative to pytest's rootdir, so the file is matched on its longest dotted tail.
 */
export function locate(address: string, fileAttribute: string | undefined, files: string[]): { file: string; classes: string[] } {
  const padded = `.${address}.`
  let best: { file: string; tail: string; at: number } | null = null
  for (const file of files) {
    const parts = file.replace(/\.py$/, '').split('/')
    for (let start = 0; start < parts.length; start++) {
      const tail = parts.slice(start).join('.')
      const at = padded.indexOf(`.${tail}.`)
      const matchesAttribute = !fileAttribute || file === fileAttribute || file.endsWith(`/${fileAttribute}`)
      if (at >= 0 && matchesAttribute && (!best || tail.length > best.tail.length)) best = { file, tail, at }
      if (at >= 0) break
    }
  }
  if (!best) return { file: fileAttribute ?? `${address.split('.').join('/')}.py`, classes: [] }
  const rest = address.slice(best.at + best.tail.length + 1)
  return { file: best.file, classes: rest.split('.').filter(Boolean) }
}

function statusOf(testCase: Case): TestStatus {
  if (testCase.failure?.length) return 'failed'
  if (testCase.error?.length) return 'errored'
  if (testCase.skipped?.length) return 'skipped'
  return 'passed'
}

function messageFor(testCase: Case, status: TestStatus): string {
  if (status === 'failed') return messageOf(testCase.failure)
  if (status === 'errored') return messageOf(testCase.error)
  if (status === 'skipped') return messageOf(testCase.skipped)
  return ''
}

/** The element's message attribute (the gist: the assertion or exception), then its text (the traceback). */
function messageOf(elements: Element[] | undefined): string {
  const element = elements?.[0]
  if (element === undefined) return ''
  const text = typeof element === 'string' ? element : String(element['#text'] ?? '')
  const gist = attribute(element, 'message')
  const parts = [gist, text.trim()].filter((part, index, all) => part && (index === 0 || !all[0].includes(part)))
  return trimMessage(stripAnsi(parts.join('\n\n')))
}

function attribute(element: Element, name: string): string {
  return typeof element === 'string' ? '' : String(element[name] ?? '')
}

function durationOf(time: string | undefined): number | null {
  const seconds = Number(time)
  return time !== undefined && Number.isFinite(seconds) ? Math.round(seconds * 1000) : null
}

interface CoverageJson {
  files?: Record<string, { executed_lines?: number[]; missing_lines?: number[] }>
}

/** coverage.py's `coverage json` report → the tree's files (executable = executed ∪ missing); null when absent. */
export async function readCoverageJson(scratchRoot: string, reportPath: string, treeRoots: string[], keep: (file: string) => boolean): Promise<FileCoverage[] | null> {
  let report: CoverageJson
  try {
    const text = await readSandboxFile(scratchRoot, reportPath, 'coverage')
    if (text === null) return null
    report = parseSandboxJson(reportPath, text) as CoverageJson
  } catch (error) {
    if (error instanceof SandboxFileRefused) throw error
    return null
  }
  const coverage: FileCoverage[] = []
  for (const [path, data] of Object.entries(report.files ?? {})) {
    // Absolute paths by default; relative to the tree (the working folder) with `relative_files = true`.
    const file = isAbsolute(path) ? repoRelative(path, treeRoots) : path.split('\\').join('/').replace(/^\.\//, '')
    if (isAbsolute(file) || file.startsWith('../') || !keep(file)) continue
    // coverage.py counts an empty module as line 0: lines are 1-based here.
    const lines = (list: number[] | undefined) => [...new Set(list ?? [])].filter((line) => line >= 1).sort((a, b) => a - b)
    const executed = lines(data.executed_lines)
    coverage.push({ file, executableLines: lines([...executed, ...(data.missing_lines ?? [])]), coveredLines: executed })
  }
  return coverage.sort((a, b) => a.file.localeCompare(b.file))
}
