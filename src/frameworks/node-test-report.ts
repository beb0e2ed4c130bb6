/** node:test's machine-readable output: its JUnit XML report (`--test-reporter=junit`) and its lcov report. */
import { readSandboxFile, SandboxFileRefused } from '../ports/sandbox-files.js'
import { isAbsolute, resolve } from 'node:path'
import { XMLParser } from 'fast-xml-parser'
import { isFailure, type FileCoverage, type TestResult, type TestStatus } from '../domain.js'
import { stripAnsi, trimMessage } from './output.js'
import { repoRelative } from './paths.js'

interface Failure {
  type: string
  message: string
  text: string
}

/** One <testcase>: a test that has no subtests, under the suites and parent tests that hold it. */
export interface JunitCase {
  suites: string[]
  name: string
  time: string | undefined
  failure: Failure | null
  /** Skipped, or todo (a todo test may even fail without failing the run). */
  skipped: boolean
}

type XmlNode = Record<string, unknown> & { ':@'?: Record<string, string> }

const parser = new XMLParser({
  // Document order: a suite's tests and nested suites are reported as they ran.
  preserveOrder: true,
  ignoreAttributes: false,
  attributeNamePrefix: '',
  parseTagValue: false,
  parseAttributeValue: false,
  trimValues: false,
  // Node 24 writes newlines in attributes as `&#10;` (Node 20 drops them).
  htmlEntities: true
})

// A test that never ran because a hook or its parent failed first.
const DID_NOT_RUN = new Set(['hookFailed', 'cancelledByParent'])
// Frames of node itself and of installed packages: noise in a failure message (the test's own frames stay).
const INTERNAL_FRAME = /^\s*at (?:.*\()?(?:node:|.*[\\/]node_modules[\\/]|index \d+\)|<anonymous>\)?$)/

/** Every <testcase> of the report in document order, or null when there is no readable report. */
export async function readJunitReport(scratchRoot: string, reportPath: string): Promise<JunitCase[] | null> {
  let nodes: XmlNode[]
  try {
    const xml = await readSandboxFile(scratchRoot, reportPath, 'results')
    // A report cut short (the process was killed, or exited before the reporter finished) is no report.
    if (xml === null || !xml.includes('</testsuites>')) return null
    nodes = parser.parse(xml) as XmlNode[]
  } catch (error) {
    if (error instanceof SandboxFileRefused) throw error
    return null
  }
  const root = nodes.find((node) => 'testsuites' in node)
  return root ? collectCases(root.testsuites as XmlNode[], []) : null
}

function collectCases(nodes: XmlNode[], suites: string[]): JunitCase[] {
  return nodes.flatMap((node) => {
    const attributes = node[':@'] ?? {}
    if ('testsuite' in node) return collectCases(node.testsuite as XmlNode[], [...suites, unescapeName(attributes.name ?? '')])
    if (!('testcase' in node)) return []
    const children = node.testcase as XmlNode[]
    const failure = children.find((child) => 'failure' in child)
    return [{
      suites,
      name: unescapeName(attributes.name ?? ''),
      time: attributes.time,
      failure: failure ? { type: failure[':@']?.type ?? '', message: unescapeName(failure[':@']?.message ?? ''), text: textOf(failure.failure as XmlNode[]) } : null,
      skipped: children.some((child) => 'skipped' in child)
    }]
  })
}

function textOf(nodes: XmlNode[]): string {
  return nodes.map((node) => String(node['#text'] ?? '')).join('')
}

// The junit reporter escapes `"` as `&quot;` and then escapes that `&` again: one more decoding step.
function unescapeName(text: string): string {
  return text.replace(/&quot;/g, '"')
}

/** The case node:test reports for the file itself: named by its path, when it could not load or exited early. */
export function isFileCase(testCase: JunitCase, file: string, roots: string[]): boolean {
  if (testCase.suites.length > 0) return false
  // Node 20 names it by its absolute path, Node 24 by the path as given on the command line.
  return testCase.name === file || repoRelative(resolve(roots[0], testCase.name), roots) === file
}

export function toTestResult(file: string, testCase: JunitCase): TestResult {
  const status = statusOf(testCase)
  const seconds = Number(testCase.time)
  return {
    file,
    name: [...testCase.suites, testCase.name].join(' › '),
    status,
    durationMs: status !== 'skipped' && testCase.time !== undefined && Number.isFinite(seconds) ? Math.round(seconds * 1000) : null,
    message: isFailure(status) ? failureMessage(testCase.failure!) : ''
  }
}

function statusOf(testCase: JunitCase): TestStatus {
  // Like a skipped test, a todo one says nothing yet, even when it fails.
  if (testCase.skipped) return 'skipped'
  if (testCase.failure) return DID_NOT_RUN.has(testCase.failure.type) ? 'errored' : 'failed'
  return 'passed'
}

/**
 * The test's own error, with its stack and properties (the `cause` that node:test wraps in its
 * ERR_TEST_FAILURE), else the reporter's message; prefixed with node:test's reason when the test's own
 * code did not fail (a hook did, or a timeout).
 */
export function failureMessage(failure: Failure): string {
  const cause = /\n {2}cause: (?!['"])([\s\S]*)\n\}\s*$/.exec(failure.text)?.[1]
  const text = cause ? cause.replace(/^ {2}/gm, '') : failure.message || failure.text.trim()
  const reason = failure.type !== 'testCodeFailure' && failure.message && !text.startsWith(failure.message) ? `${failure.message}\n` : ''
  return trimMessage(cleanStack(stripAnsi(reason + text)) || 'failed without an error message')
}

/** Text without node's own stack frames, and with file URLs as paths. */
export function cleanStack(text: string): string {
  const kept: string[] = []
  for (const line of text.split('\n')) {
    if (!INTERNAL_FRAME.test(line)) kept.push(line)
    // util.inspect opens an error's properties at the end of its last frame: keep the brace.
    else if (line.endsWith(' {') && kept.length > 0) kept[kept.length - 1] += ' {'
  }
  return fileUrlsToPaths(kept.join('\n'))
}

/** ES modules' stack frames name files by URL: as paths, the tree's folder can be taken out of them. */
export function fileUrlsToPaths(text: string): string {
  return text.replace(/file:\/\/(\/[^\s:)]+)/g, (match, path: string) => {
    try {
      return decodeURIComponent(path)
    } catch {
      return match
    }
  })
}

/** node:test's lcov report → per-file lines; null when there is none. */
export async function readLcov(scratchRoot: string, reportPath: string, treeDir: string, roots: string[]): Promise<FileCoverage[] | null> {
  const text = await readSandboxFile(scratchRoot, reportPath, 'coverage')
  if (text === null) return null
  const coverage: FileCoverage[] = []
  for (const record of text.split('end_of_record')) {
    const source = /^SF:(.+)$/m.exec(record)?.[1]?.trim()
    if (!source) continue
    const hits = [...record.matchAll(/^DA:(\d+),(\d+)/gm)].map((match) => ({ line: Number(match[1]), count: Number(match[2]) }))
    const file = repoRelative(resolve(treeDir, source), roots)
    coverage.push({ file, executableLines: hits.map((hit) => hit.line), coveredLines: hits.filter((hit) => hit.count > 0).map((hit) => hit.line) })
  }
  return coverage
}

/**
 * The tree's own files, counting only lines with code: V8 coverage (node's, and c8's) counts every line of
 * a function that ran, blank lines, comments and closing braces included.
 */
export async function codeLinesOnly(coverage: FileCoverage[], treeDir: string): Promise<FileCoverage[]> {
  const inTree = coverage.filter(({ file }) => !isAbsolute(file) && !file.startsWith('../') && !file.split('/').includes('node_modules'))
  return Promise.all(
    inTree.map(async (entry) => {
      // The tests ran in this tree: a file of it may now be a link, never followed (a missing or refused file has no code lines).
      const path = resolve(treeDir, entry.file)
      const lines = ((await readSandboxFile(treeDir, path, 'config').catch(() => null)) ?? '').split('\n')
      const code = (line: number) => isCode(lines[line - 1] ?? '')
      return { file: entry.file, executableLines: entry.executableLines.filter(code), coveredLines: entry.coveredLines.filter(code) }
    })
  )
}

function isCode(line: string): boolean {
  const text = line.trim()
  return text !== '' && !/^(?:\/\/|\/\*|\*)/.test(text) && !/^[{}()[\];,]+$/.test(text)
}

/** Per-file coverage of several runs as one: a line ran if it ran in any of them. */
export function mergeCoverage(runs: FileCoverage[][]): FileCoverage[] {
  const merged = new Map<string, { executable: Set<number>; covered: Set<number> }>()
  for (const entry of runs.flat()) {
    const lines = merged.get(entry.file) ?? { executable: new Set<number>(), covered: new Set<number>() }
    entry.executableLines.forEach((line) => lines.executable.add(line))
    entry.coveredLines.forEach((line) => lines.covered.add(line))
    merged.set(entry.file, lines)
  }
  const sorted = (lines: Set<number>) => [...lines].sort((a, b) => a - b)
  return [...merged].map(([file, lines]) => ({ file, executableLines: sorted(lines.executable), coveredLines: sorted(lines.covered) })).sort((a, b) => a.file.localeCompare(b.file))
}
