/**
 * Which test guards which hunk. A fix of two or more source hunks gets one more tree per hunk (at most
 * MAX_HUNKS, while the test budget allows), with only that hunk taken out, where the files holding the
 * fail-to-pass tests run again. A test that fails there proves that hunk necessary — a pass-to-pass one
 * in those files too: it guards a hunk the rest of the fix cannot do without (a guard the new code needs)
 * — and a hunk no such test fails without is one the suite does not show the fix needs. Files with only
 * pass-to-pass tests stay out: a hunk tree is as slow as a run of the suite, and what the fix is proven
 * by is its fail-to-pass tests.
 */
import { removeInside, writeInside } from '../ports/sandbox-writes.js'
import { extent } from '../arrays.js'
import { isFailure, type ChangeSet, type ChangedFile, type ClassifiedTest, type Hunk, type RunResult } from '../domain.js'
import { sourceFiles } from '../diff/change-set.js'
import type { GitCommands } from '../ports/git.js'
import type { Logger } from '../ports/logger.js'
import type { TestBench } from './test-bench.js'
import type { Trees } from './trees.js'
import { identityKey, withOccurrences } from '../test-identity.js'
import { describeLimit } from '../sandbox-limits.js'
import { limitHit } from '../verdict/failure-kind.js'
import type { TestBudget } from './test-budget.js'

export const MAX_HUNKS = 8

export interface HunkGuard {
  file: string
  /** The hunk's lines at head (for a deleted file: its lines at the base). */
  startLine: number
  endLine: number
  /** The hunk only takes lines out: with none guarding it, that may be dead code going, which no test can need. */
  onlyRemoves: boolean
  /**
   * The tests that fail with this hunk alone taken out: fail-to-pass ones (also when their file cannot load
   * there), and pass-to-pass ones that fail on their own; null: not checked (past the limits).
   */
  guardedBy: string[] | null
}

export interface GuardOptions {
  git: GitCommands
  trees: Trees
  bench: TestBench
  /** Makes a variant tree ready to test (its build), if it needs anything. */
  prepare: (treeDir: string) => Promise<void>
  /** A hunk tree is optional: it starts only while the budget allows, and is charged to it (preparation and run). */
  budget: TestBudget
  log: Logger
}

interface FixHunk {
  file: ChangedFile
  hunk: Hunk
}

/** Null when there is nothing to tell apart: fewer than two source hunks, or no fail-to-pass test. */
export async function guardHunks(changeSet: ChangeSet, tests: ClassifiedTest[], options: GuardOptions): Promise<HunkGuard[] | null> {
  const hunks = sourceFiles(changeSet).flatMap((file) => file.hunks.map((hunk) => ({ file, hunk })))
  const failToPass = tests.filter((test) => test.kind === 'fail-to-pass')
  if (hunks.length < 2 || failToPass.length === 0) return null
  const files = [...new Set(failToPass.map((test) => test.file))]
  const passing = tests.filter((test) => (test.kind === 'fail-to-pass' || test.kind === 'pass-to-pass') && files.includes(test.file))
  const others = [...new Set(tests.filter((test) => !files.includes(test.file)).map((test) => test.file))]
  options.log.info(`Hunk trees run the ${files.length} file(s) holding fail-to-pass tests: ${files.join(', ')}${others.length ? `; not the ${others.length} with none (${others.join(', ')})` : ''}`)
  const guards: HunkGuard[] = []
  for (const [index, fixHunk] of hunks.entries()) {
    const lines = linesOf(fixHunk)
    const label = `hunk ${index + 1} of ${hunks.length} (${lines.file}:${lines.startLine}-${lines.endLine})`
    if (index >= MAX_HUNKS || !options.budget.allows(label)) {
      guards.push({ ...lines, guardedBy: null })
      continue
    }
    const where = `with hunk ${index + 1} of ${hunks.length} taken out (${lines.file}:${lines.startLine}-${lines.endLine})`
    const run = await options.budget.charge(async () => {
      const root = await options.trees.addVariant(`hunk-${index + 1}`, (treeDir) => takeOut(options.git, changeSet, fixHunk, treeDir))
      await options.bench.installInto(root)
      await options.prepare(root)
      return options.bench.run({ root, where }, files)
    })
    const inconclusive = whyInconclusive(run)
    if (inconclusive) {
      // A test that ran out of time or met a limit says nothing of the hunk: not a guard, and said so.
      options.log.warn(`Hunk ${index + 1} of ${hunks.length} (${lines.file}:${lines.startLine}-${lines.endLine}) not checked: its run ${inconclusive}`)
      guards.push({ ...lines, guardedBy: null })
      continue
    }
    const results = new Map(withOccurrences(run.tests).map((result) => [identityKey(result), result]))
    const unloadable = new Set(run.fileErrors.map((error) => error.file))
    // A file that cannot load in the mixed tree says nothing of its pass-to-pass tests one by one.
    const fails = (test: ClassifiedTest) => isFailure(results.get(identityKey(test))?.status ?? 'missing') || (test.kind === 'fail-to-pass' && unloadable.has(test.file))
    const guardedBy = passing.filter(fails).map((test) => test.name)
    guards.push({ ...lines, guardedBy })
  }
  const unguarded = guards.filter((guard) => guard.guardedBy?.length === 0)
  const named = (guard: HunkGuard) => `${guard.file}:${guard.startLine}-${guard.endLine}${guard.onlyRemoves ? ' (only removes lines)' : ''}`
  if (unguarded.length) options.log.warn(`No test fails with ${unguarded.length} hunk(s) of the fix taken out alone: ${unguarded.map(named).join(', ')}`)
  return guards
}

/** Why a hunk tree's run proves nothing either way: it timed out, or a test met one of the sandbox's limits. */
function whyInconclusive(run: RunResult): string | null {
  if (run.timedOut) return `timed out after ${run.durationMs} ms`
  const messages = [...run.tests.map((test) => test.message ?? ''), ...run.fileErrors.map((error) => error.message)]
  const limit = messages.map(limitHit).find((hit) => hit !== null)
  return limit ? `met the sandbox's ${describeLimit(limit)}` : null
}

function linesOf({ file, hunk }: FixHunk): Omit<HunkGuard, 'guardedBy'> {
  const range = file.status === 'deleted' ? hunk.base : hunk.head
  const changed = hunk.addedLines.length ? hunk.addedLines : [range.start]
  const { min, max } = extent(changed)
  return { file: file.path, startLine: min, endLine: max, onlyRemoves: hunk.addedLines.length === 0 }
}

/** The head's file with this one hunk back as it was at the base; the file's other hunks stay fixed. */
async function takeOut(git: GitCommands, changeSet: ChangeSet, { file, hunk }: FixHunk, treeDir: string): Promise<void> {
  const base = file.basePath === null ? '' : ((await git.fileAt(changeSet.mergeBase, file.basePath)) ?? '')
  const head = file.status === 'deleted' ? '' : ((await git.fileAt(changeSet.head, file.path)) ?? '')
  const text = withHunkReverted(head, base, hunk.header)
  // A deleted file comes back; an added one whose only hunk goes out is gone; a renamed one keeps its name.
  if (file.status === 'added' && text === '') return removeInside(treeDir, file.path)
  await writeInside(treeDir, file.path, text)
}

/**
 * `@@ -a,b +c,d @@`: lines c..c+d-1 of the head replaced by lines a..a+b-1 of the base. A count of 0 puts
 * the hunk after the line its start names (git's convention for pure additions and deletions).
 */
export function withHunkReverted(head: string, base: string, header: string): string {
  const match = /^@@ -(\d+)(?:,(\d+))? \+(\d+)(?:,(\d+))? @@/.exec(header)
  if (!match) throw new Error(`not a hunk header: ${header}`)
  const [oldStart, oldLines, newStart, newLines] = [match[1], match[2] ?? '1', match[3], match[4] ?? '1'].map(Number)
  const headLines = head.split('\n')
  const baseLines = base.split('\n')
  const from = newLines === 0 ? newStart : newStart - 1
  const baseFrom = oldLines === 0 ? oldStart : oldStart - 1
  return [...headLines.slice(0, from), ...baseLines.slice(baseFrom, baseFrom + oldLines), ...headLines.slice(from + newLines)].join('\n')
}
