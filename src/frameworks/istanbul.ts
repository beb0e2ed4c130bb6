/** Istanbul's `coverage-final.json` (jest, vitest, c8) → per-file executable and covered lines. */
import type { FileCoverage } from '../domain.js'
import { parseSandboxJson, readSandboxFile, SandboxFileRefused } from '../ports/sandbox-files.js'
import { repoRelative } from './paths.js'

/** What an istanbul file entry says about its statements: where each starts, how often it ran. */
export interface IstanbulStatements {
  statementMap: Record<string, { start: { line: number } }>
  s: Record<string, number>
}

interface IstanbulFile extends IstanbulStatements {
  path?: string
}

/** Null when there is no report (coverage was off, or the run crashed before writing it); `scratchRoot` is the runner's folder it is in. */
export async function readIstanbulCoverage(reportPath: string, treeRoots: string[], scratchRoot: string): Promise<FileCoverage[] | null> {
  let report: Record<string, IstanbulFile>
  try {
    const text = await readSandboxFile(scratchRoot, reportPath, 'coverage')
    if (text === null) return null
    report = parseSandboxJson(reportPath, text) as Record<string, IstanbulFile>
  } catch (error) {
    if (error instanceof SandboxFileRefused) throw error
    return null
  }
  if (!isIstanbulReport(report)) return null
  return Object.entries(report).map(([path, data]) => toFileCoverage(repoRelative(data.path ?? path, treeRoots), data))
}

/** The shape the walk below relies on: every file entry has a statementMap of {start: {line}} and counts. */
function isIstanbulReport(report: unknown): report is Record<string, IstanbulFile> {
  if (typeof report !== 'object' || report === null || Array.isArray(report)) return false
  return Object.values(report).every((data: IstanbulFile) => typeof data === 'object' && data !== null && typeof data.statementMap === 'object' && data.statementMap !== null && typeof data.s === 'object' && data.s !== null && Object.values(data.statementMap).every((statement) => typeof statement?.start?.line === 'number'))
}

/** Istanbul's statements as lines: each statement counts on its first line. */
export function toFileCoverage(file: string, data: IstanbulStatements): FileCoverage {
  const executable = new Set<number>()
  const covered = new Set<number>()
  for (const [id, statement] of Object.entries(data.statementMap)) {
    // A statement counts on its first line, the line a reviewer would point at.
    executable.add(statement.start.line)
    if ((data.s[id] ?? 0) > 0) covered.add(statement.start.line)
  }
  const sorted = (lines: Set<number>) => [...lines].sort((a, b) => a - b)
  return { file, executableLines: sorted(executable), coveredLines: sorted(covered) }
}
