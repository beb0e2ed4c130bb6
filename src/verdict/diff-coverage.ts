/**
 * Diff coverage: of the lines the fix added or changed in source files, which the suite ran at head. Only
 * lines the coverage tool itself counts as executable, and that hold code outside comments, count; a
 * changed file the coverage does not hold is not guessed at but named in the note.
 */
import type { ChangeSet, ChangedFile, FileCoverage } from '../domain.js'
import { sourceFiles } from '../diff/change-set.js'
import { codeLines } from './code-lines.js'
import { toRanges, type LineRanges } from './line-ranges.js'

export interface FileDiffCoverage {
  file: string
  covered: number
  total: number
  /** The changed executable lines the suite did not run, as ranges. */
  uncoveredLines: LineRanges
}

export interface DiffCoverage {
  covered: number
  total: number
  files: FileDiffCoverage[]
}

/** Null when the run collected no coverage, or the coverage holds none of the changed source files (diffCoverageNote says why). */
export function diffCoverage(changeSet: ChangeSet, coverage: FileCoverage[] | undefined, headLines: (file: string) => string[]): DiffCoverage | null {
  if (!coverage) return null
  const changedFiles = measurableFiles(changeSet)
  const measured = changedFiles.map((file) => ({ file, entry: measuredOf(file.path, coverage) }))
  if (changedFiles.length > 0 && measured.every(({ entry }) => !entry)) return null
  const files = measured
    .flatMap(({ file, entry }) => (entry ? [fileDiffCoverage(file, entry, headLines(file.path))] : []))
    .filter((file) => file.total > 0)
  return { covered: sum(files, 'covered'), total: sum(files, 'total'), files }
}

/**
 * Why the diff coverage leaves changed files out, or is missing although coverage was collected: which
 * files were expected, and which the coverage holds. Null when every changed source file is in it.
 */
export function diffCoverageNote(changeSet: ChangeSet, coverage: FileCoverage[] | undefined): string | null {
  if (!coverage) return null
  const changedFiles = measurableFiles(changeSet).map((file) => file.path)
  const missing = changedFiles.filter((path) => !coverageOf(path, coverage))
  // In the coverage with not one executable line: only types, or a transform the tool did not instrument.
  const empty = changedFiles.filter((path) => coverageOf(path, coverage) && !measuredOf(path, coverage))
  if (missing.length + empty.length === 0) return null
  const emptyWhy = empty.length ? `${listed(empty)} ${empty.length === 1 ? 'is' : 'are'} in the coverage without one executable line (only declarations, or a transform the coverage tool did not instrument)` : ''
  if (missing.length + empty.length < changedFiles.length) {
    const missingWhy = missing.length ? `${listed(missing)}: not in the coverage (the tests did not load ${missing.length === 1 ? 'it' : 'them'})` : ''
    return `leaves out ${[missingWhy, emptyWhy].filter(Boolean).join('; ')}`
  }
  if (missing.length === 0) return `not measured: ${emptyWhy}`
  const held = coverage.length ? `it holds ${listed(coverage.map((entry) => entry.file))}` : 'it holds no file'
  const missingWhy = `the coverage holds none of the changed source files (expected ${listed(missing)}; ${held}): the tests did not load them, or the coverage is of other files (compiled output, another root)`
  return `not measured: ${[missingWhy, emptyWhy].filter(Boolean).join('; ')}`
}

/** Source files the head still has: the ones a run can cover. */
const measurableFiles = (changeSet: ChangeSet) => sourceFiles(changeSet).filter((file) => file.status !== 'deleted')

function fileDiffCoverage(file: ChangedFile, entry: FileCoverage, lines: string[]): FileDiffCoverage {
  const executable = new Set(entry.executableLines)
  const code = codeLines(file.path, lines)
  const changed = file.hunks.flatMap((hunk) => hunk.addedLines)
  const relevant = changed.filter((line) => executable.has(line) && code.has(line))
  const ran = new Set(entry.coveredLines)
  const uncovered = relevant.filter((line) => !ran.has(line))
  return { file: file.path, covered: relevant.length - uncovered.length, total: relevant.length, uncoveredLines: toRanges(uncovered) }
}

/**
 * The coverage of a changed file: by its repository path, else the one entry whose path and the change's
 * end alike — an absolute path in another copy of the tree, or a path relative to a package's `rootDir` or
 * working folder.
 */
function coverageOf(path: string, coverage: FileCoverage[]): FileCoverage | undefined {
  const exact = coverage.find((entry) => entry.file === path)
  if (exact) return exact
  const alike = coverage.filter((entry) => endsWithPath(entry.file, path) || endsWithPath(path, entry.file))
  return alike.length === 1 ? alike[0] : undefined
}

/** The coverage of a changed file that counts executable lines in it. */
function measuredOf(path: string, coverage: FileCoverage[]): FileCoverage | undefined {
  const entry = coverageOf(path, coverage)
  return entry && entry.executableLines.length > 0 ? entry : undefined
}

const endsWithPath = (long: string, short: string) => short !== '' && long.endsWith(`/${short.replace(/^\.\//, '')}`)

const sum = (files: FileDiffCoverage[], key: 'covered' | 'total') => files.reduce((total, file) => total + file[key], 0)

const SHOWN = 5
const listed = (paths: string[]) => paths.slice(0, SHOWN).join(', ') + (paths.length > SHOWN ? ` and ${paths.length - SHOWN} more` : '')
