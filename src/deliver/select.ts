/**
 * Which generated files are delivered (issue 24 item 1): those whose every test passed every run at head
 * and none flaky, at a safe path inside what placement accepted and where the repository's own test
 * command collects it, never under `.github/`, never where the pull request or the head already has
 * something. Each file left out says why.
 */
import { posix } from 'node:path'
import type { ClassifiedTest, SuiteFile, TestKind } from '../domain.js'
import { unsafePathProblem } from '../suite/file-path.js'

export interface LeftOut {
  path: string
  reason: string
}

export interface Selection {
  files: SuiteFile[]
  leftOut: LeftOut[]
}

export interface SelectionFacts {
  /** Every test of the run, classified (report.tests). */
  tests: ClassifiedTest[]
  /** The fix-concern tests' files: they fail at head by design. */
  concernPaths: ReadonlySet<string>
  /** The paths the pull request touches (at head and at base). */
  changedPaths: ReadonlySet<string>
  /** Every tracked path at head. */
  headFiles: ReadonlySet<string>
  /** The suite's files the repository's own test command does not collect (report.suite.files): its CI would never run them. */
  uncollected: ReadonlySet<string>
}

/** What a delivered test may be: it passed at head in every run; it failed, or passed, before the fix. */
const DELIVERABLE: ReadonlySet<TestKind> = new Set(['fail-to-pass', 'pass-to-pass'])

export function selectDeliverable(suite: SuiteFile[], facts: SelectionFacts): Selection {
  const files: SuiteFile[] = []
  const leftOut: LeftOut[] = []
  for (const file of suite) {
    const reason = pathProblem(file.path, facts) ?? testsProblem(file.path, facts.tests)
    if (reason) leftOut.push({ path: file.path, reason })
    else files.push(file)
  }
  return { files, leftOut }
}

function pathProblem(path: string, facts: SelectionFacts): string | null {
  if (facts.concernPaths.has(path)) return 'a fix-concern test: it fails at head by design (listed in the message, never delivered)'
  const unsafe = unsafePathProblem(path)
  if (unsafe) return unsafe
  if (posix.normalize(path) !== path || path.endsWith('/')) return 'the path is not in its plain form'
  if (path.split('/')[0].toLowerCase() === '.github') return 'under .github/: workflows and repository settings are never delivered'
  if (facts.changedPaths.has(path)) return 'the pull request already has a file at this path'
  if (facts.headFiles.has(path)) return 'a file already exists at this path at head'
  const parent = fileAbove(path, facts.headFiles)
  if (parent) return `${parent} is a file (or a symbolic link) at head, not a folder`
  if (facts.uncollected.has(path)) return "the repository's own test command does not collect it: its CI would never run it"
  return null
}

/** A folder on the way to `path` that is a tracked file or link at head: writing through it would follow it. */
function fileAbove(path: string, headFiles: ReadonlySet<string>): string | null {
  const names = path.split('/')
  for (let depth = 1; depth < names.length; depth++) {
    const folder = names.slice(0, depth).join('/')
    if (headFiles.has(folder)) return folder
  }
  return null
}

function testsProblem(path: string, tests: ClassifiedTest[]): string | null {
  const own = tests.filter((test) => test.file === path)
  if (own.length === 0) return 'none of its tests ran'
  const other = own.find((test) => test.flaky || !DELIVERABLE.has(test.kind))
  if (!other) return null
  const count = own.filter((test) => test.flaky || !DELIVERABLE.has(test.kind)).length
  return `${count} of its ${own.length} test(s) neither fail-to-pass nor pass-to-pass (${other.name}: ${other.flaky ? 'flaky' : other.kind})`
}
