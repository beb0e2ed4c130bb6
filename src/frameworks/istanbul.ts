/** Istanbul's `coverage-final.json` (jest, vitest, c8) → per-file executable and covered lines. */
import { readFile } from 'node:fs/promises'
import type { FileCoverage } from '../domain.js'
import { repoRelative } from './paths.js'

/** What an istanbul file entry says about its statements: where each starts, how often it ran. */
export interface IstanbulStatements {
  statementMap: Record<string, { start: { line: number } }>
  s: Record<string, number>
}

interface IstanbulFile extends IstanbulStatements {
  path?: string
}

/** Null when there is no report (coverage was off, or the run crashed before writing it). */
export async function readIstanbulCoverage(reportPath: string, treeRoots: string[]): Promise<FileCoverage[] | null> {
  let report: Record<string, IstanbulFile>
  try {
    report = JSON.parse(await readFile(reportPath, 'utf8'))
  } catch {
    return null
  }
  return Object.entries(report).map(([path, data]) => toFileCoverage(repoRelative(data.path ?? path, treeRoots), data))
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
