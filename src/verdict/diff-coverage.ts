/** Diff coverage: of the lines the fix added or changed in source files, which the suite ran at head. */
import type { ChangeSet, FileCoverage } from '../domain.js'
import { sourceFiles } from '../diff/change-set.js'

export interface FileDiffCoverage {
  file: string
  covered: number
  total: number
  uncoveredLines: number[]
}

export interface DiffCoverage {
  covered: number
  total: number
  files: FileDiffCoverage[]
}

/**
 * Null when the run collected no coverage. A changed file the tests never loaded has no executable-line
 * map, so every changed line of it that holds code counts, uncovered.
 */
export function diffCoverage(changeSet: ChangeSet, coverage: FileCoverage[] | undefined, headLines: (file: string) => string[]): DiffCoverage | null {
  if (!coverage) return null
  const byFile = new Map(coverage.map((entry) => [entry.file, entry]))
  const files = sourceFiles(changeSet)
    .filter((file) => file.status !== 'deleted')
    .map((file): FileDiffCoverage => {
      const changed = file.hunks.flatMap((hunk) => hunk.addedLines)
      const measured = byFile.get(file.path)
      const executable = measured ? new Set(measured.executableLines) : null
      const lines = headLines(file.path)
      const relevant = changed.filter((line) => (executable ? executable.has(line) : isCode(lines[line - 1] ?? '')))
      const ran = new Set(measured?.coveredLines ?? [])
      const uncoveredLines = relevant.filter((line) => !ran.has(line))
      return { file: file.path, covered: relevant.length - uncoveredLines.length, total: relevant.length, uncoveredLines }
    })
    .filter((file) => file.total > 0)
  return { covered: sum(files, 'covered'), total: sum(files, 'total'), files }
}

const sum = (files: FileDiffCoverage[], key: 'covered' | 'total') => files.reduce((total, file) => total + file[key], 0)

function isCode(line: string): boolean {
  const text = line.trim()
  return text !== '' && !/^(?:\/\/|\/\*|\*|#|[{}()[\];,]+$)/.test(text)
}
