/**
 * Coverage through Node itself, for a repository without a coverage tool of its own: `NODE_V8_COVERAGE`
 * makes every node process of the run (children and worker threads too) write V8's coverage as JSON when it
 * exits, and v8-to-istanbul (the converter c8 uses) turns it into per-line coverage of the repository's
 * files, through the source maps Node recorded (ts-node, tsx) or the files' own.
 */
import { readdir } from 'node:fs/promises'
import type { Profiler } from 'node:inspector'
import { dirname, isAbsolute, join } from 'node:path'
import { fileURLToPath } from 'node:url'
import v8ToIstanbul from 'v8-to-istanbul'
import type { FileCoverage } from '../domain.js'
import { parseSandboxJson, readSandboxFile, SandboxFileRefused } from '../ports/sandbox-files.js'
import { removeInside } from '../ports/sandbox-writes.js'
import { codeLinesOnly, mergeCoverage } from './node-test-report.js'
import { repoRelative } from './paths.js'
import { toFileCoverage, type IstanbulStatements } from './istanbul.js'
import { makeRunnerFolder } from './runner-folder.js'

const FOLDER = 'v8-coverage'

/** One process's (or worker thread's) file: `coverage-<pid>-<time>-<n>.json`. */
interface ProcessCoverage {
  result: ScriptCoverage[]
  /** Source maps Node saw, by file URL: the map, and the line lengths of the code that ran. */
  'source-map-cache'?: Record<string, { lineLengths?: number[] | null; data?: unknown }>
}

interface ScriptCoverage {
  url: string
  functions: Profiler.FunctionCoverage[]
}

interface IstanbulLines extends IstanbulStatements {
  path: string
}

type Sources = Parameters<typeof v8ToIstanbul>[2]

export interface V8CoverageOptions {
  /** Repository-relative files that are not the repository's code under test (its test files). */
  exclude?: (file: string) => boolean
}

/** The folder under a run's scratch folder that node writes its coverage into. */
export function v8CoverageDir(scratchDir: string): string {
  return join(scratchDir, FOLDER)
}

/**
 * Empties the coverage folder (files of an earlier run must not count for this one), makes it writable by
 * the sandbox's user, and gives the variable that makes the test processes write there.
 */
export async function v8CoverageEnv(scratchDir: string): Promise<Record<string, string>> {
  const dir = v8CoverageDir(scratchDir)
  await removeInside(scratchDir, FOLDER, { recursive: true })
  await makeRunnerFolder(dir)
  return { NODE_V8_COVERAGE: dir }
}

/**
 * Per-line coverage of the repository's own files (under one of `roots`, the tree and its real path; not
 * node_modules, not excluded), merged over every process: a line ran if it ran in any. Only lines with code
 * count: V8 counts every line of a function that ran. Null when no process wrote coverage (the run crashed,
 * was killed, or did not run in Node).
 */
export async function readV8Coverage(dir: string, roots: string[], options: V8CoverageOptions = {}): Promise<FileCoverage[] | null> {
  const names = ((await readdir(dir).catch(() => null)) ?? []).filter((name) => name.endsWith('.json')).sort()
  const own = (file: string) => isOwn(file) && !options.exclude?.(file)
  const runs: FileCoverage[][] = []
  let reports = 0
  for (const name of names) {
    // The coverage folder sits in the runner's scratch folder (v8CoverageDir): no link from there down.
    const report = await readReport(dirname(dir), join(dir, name))
    if (!report) continue
    reports += 1
    const sourceMaps = normalizeSourceMaps(report['source-map-cache'])
    for (const script of report.result) {
      const path = scriptPath(script.url)
      // Files outside the tree (node_modules resolve to their real paths) are never converted.
      if (!path || !own(repoRelative(path, roots))) continue
      const converted = await convert(path, script, sourceMaps)
      runs.push(converted.flatMap((data) => ownFileCoverage(repoRelative(data.path, roots), data, own)))
    }
  }
  if (reports === 0) return null
  return codeLinesOnly(mergeCoverage(runs), roots[0])
}

async function readReport(scratchRoot: string, path: string): Promise<ProcessCoverage | null> {
  try {
    const text = await readSandboxFile(scratchRoot, path, 'coverage')
    const report = text === null ? null : parseSandboxJson(path, text)
    return isProcessCoverage(report) ? report : null
  } catch (error) {
    if (error instanceof SandboxFileRefused) throw error
    // A process killed while writing leaves a partial file: the other processes' coverage still counts.
    return null
  }
}

/** The shape the conversion relies on (a test can write anything there): else the file counts as no coverage. */
function isProcessCoverage(report: unknown): report is ProcessCoverage {
  const candidate = report as Partial<ProcessCoverage> | null
  if (typeof candidate !== 'object' || candidate === null || !Array.isArray(candidate.result)) return false
  const cache = candidate['source-map-cache']
  const cacheOk = cache === undefined || (typeof cache === 'object' && cache !== null && Object.values(cache).every(isSourceMapEntry))
  return cacheOk && candidate.result.every(isScriptCoverage)
}

function isScriptCoverage(script: unknown): script is ScriptCoverage {
  const candidate = script as Partial<ScriptCoverage> | null
  return typeof candidate === 'object' && candidate !== null && typeof candidate.url === 'string' && Array.isArray(candidate.functions) && candidate.functions.every(isFunctionCoverage)
}

function isFunctionCoverage(coverage: unknown): boolean {
  const candidate = coverage as Partial<Profiler.FunctionCoverage> | null
  const isRange = (range: Partial<Profiler.CoverageRange> | null) => typeof range === 'object' && range !== null && [range.startOffset, range.endOffset, range.count].every((value) => typeof value === 'number')
  return typeof candidate === 'object' && candidate !== null && Array.isArray(candidate.ranges) && candidate.ranges.every(isRange)
}

function isSourceMapEntry(entry: unknown): boolean {
  const candidate = entry as { lineLengths?: unknown; data?: unknown } | null
  if (typeof candidate !== 'object' || candidate === null) return false
  const lengths = candidate.lineLengths
  return lengths === undefined || lengths === null || (Array.isArray(lengths) && lengths.every((length) => Number.isInteger(length) && length >= 0 && length < 1_000_000))
}

/** The script's path: a file URL (ESM, and CommonJS on newer Nodes) or an absolute path; null for node's own. */
function scriptPath(url: string): string | null {
  if (url.startsWith('file://')) {
    try {
      return fileURLToPath(url)
    } catch {
      return null
    }
  }
  return isAbsolute(url) ? url : null
}

function normalizeSourceMaps(cache: ProcessCoverage['source-map-cache']): Map<string, { lineLengths?: number[] | null; data?: unknown }> {
  const maps = new Map<string, { lineLengths?: number[] | null; data?: unknown }>()
  for (const [url, entry] of Object.entries(cache ?? {})) {
    const path = scriptPath(url)
    if (path) maps.set(path, entry)
  }
  return maps
}

/**
 * The script's coverage in istanbul's form, through the source map Node cached for it (code transpiled at
 * load time: what ran is not the file on disk, so the lines come from the lengths Node recorded), else the
 * file and the source map it names. Empty when the file cannot be read (a test removed it).
 */
async function convert(path: string, script: ScriptCoverage, sourceMaps: Map<string, { lineLengths?: number[] | null; data?: unknown }>): Promise<IstanbulLines[]> {
  const cached = sourceMaps.get(path)
  const sources = cached?.data
    ? ({
        sourceMap: { sourcemap: cached.data },
        ...(cached.lineLengths && { source: cached.lineLengths.map((length) => '.'.repeat(length)).join('\n') + '\n' })
      } as unknown as Sources)
    : undefined
  try {
    const converter = v8ToIstanbul(path, 0, sources)
    await converter.load()
    converter.applyCoverage(script.functions)
    return Object.values(converter.toIstanbul()) as unknown as IstanbulLines[]
  } catch {
    return []
  }
}

/** v8-to-istanbul gives every line of the source as a statement, with its count. */
function ownFileCoverage(file: string, data: IstanbulLines, own: (file: string) => boolean): FileCoverage[] {
  return own(file) ? [toFileCoverage(file, data)] : []
}

function isOwn(file: string): boolean {
  return !isAbsolute(file) && !file.startsWith('../') && file !== '..' && !file.split('/').includes('node_modules')
}
