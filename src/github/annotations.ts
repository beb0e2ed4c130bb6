/**
 * Check annotations on the fix's hunks, within GitHub's limit of 10 of each kind per step: a notice on a
 * hunk the suite runs when it proves the fix (naming the tests that fail with that hunk alone taken out,
 * when that was checked), a warning on a hunk no such test needs, an error on every hunk when nothing is
 * proven, and a warning on changed lines the suite never runs. A confirmed fix concern (an input the fixed
 * code still gets wrong) is a warning on the first hunk of its file. A change with nothing to prove gets none.
 */
import { extent } from '../arrays.js'
import type { ChangeSet } from '../domain.js'
import type { Report } from '../report/report.js'
import { sourceFiles } from '../diff/change-set.js'
import { inRanges } from '../verdict/line-ranges.js'

export type AnnotationKind = 'error' | 'warning' | 'notice'

export interface Annotation {
  kind: AnnotationKind
  file: string
  startLine: number
  endLine: number
  title: string
  message: string
}

export const MAX_PER_KIND = 10

export function annotationsFor(report: Report, changeSet: ChangeSet): Annotation[] {
  // Nothing was run or proven: the diff gets no marks.
  if (report.verdict === 'not-applicable') return []
  const proven = report.verdict === 'fail-to-pass'
  const uncovered = new Map(report.diffCoverage?.files.map((file) => [file.file, file.uncoveredLines]))
  const annotations: Annotation[] = concernAnnotations(report, changeSet)
  for (const file of sourceFiles(changeSet).filter((entry) => entry.status !== 'deleted')) {
    const missed = uncovered.get(file.path) ?? []
    for (const hunk of file.hunks) {
      const changed = hunk.addedLines.length ? hunk.addedLines : [hunk.head.start]
      // Without coverage every hunk counts as run; with it, a hunk is run when none of its executable lines was missed.
      const run = !changed.some((line) => inRanges(missed, line))
      const { min, max } = extent(changed)
      const range = { file: file.path, startLine: min, endLine: max }
      const guard = report.hunks?.find((entry) => entry.file === range.file && entry.startLine === range.startLine && entry.endLine === range.endLine)
      if (proven && guard?.guardedBy?.length === 0 && guard.onlyRemoves) {
        annotations.push({ kind: 'notice', ...range, title: 'No test needs this removal', message: 'No test that passes at head fails with the removed lines back: right for dead code; otherwise the suite does not show the fix needs the removal.' })
      } else if (proven && guard?.guardedBy?.length === 0) {
        annotations.push({ kind: 'warning', ...range, title: 'No test needs this hunk', message: 'No test that passes at head fails with this hunk alone taken out: the suite does not show the fix needs it.' })
      } else if (proven && guard?.guardedBy) {
        annotations.push({ kind: 'notice', ...range, title: 'Guarded by a regression test', message: `Fails without this hunk alone: ${guard.guardedBy.slice(0, 5).join('; ')}${guard.guardedBy.length > 5 ? ` and ${guard.guardedBy.length - 5} more` : ''}.` })
      } else if (proven && run) {
        annotations.push({ kind: 'notice', ...range, title: 'Guarded by a regression test', message: `The suite runs this change and fails without it (${failToPass(report)} fail-to-pass test(s)).` })
      }
      if (!proven) annotations.push({ kind: 'error', ...range, title: 'No test guards this fix', message: `No test fails without this change: ${report.reason ?? report.verdict}.` })
    }
    for (const [startLine, endLine] of missed) {
      annotations.push({ kind: 'warning', file: file.path, startLine, endLine, title: 'Changed line not run by the suite', message: 'No regression test runs this changed line.' })
    }
  }
  return (['error', 'warning', 'notice'] as const).flatMap((kind) => annotations.filter((annotation) => annotation.kind === kind).slice(0, MAX_PER_KIND))
}

/** Each confirmed concern on the first fix hunk of its file (else of the first changed source file). */
function concernAnnotations(report: Report, changeSet: ChangeSet): Annotation[] {
  const sources = sourceFiles(changeSet).filter((entry) => entry.status !== 'deleted' && entry.hunks.length > 0)
  return (report.fixConcerns ?? []).flatMap((concern) => {
    const file = sources.find((entry) => entry.path === concern.where.file) ?? sources[0]
    if (!file) return []
    const hunk = file.hunks[0]
    const changed = hunk.addedLines.length ? hunk.addedLines : [hunk.head.start]
    const broke = concern.preFixResult === 'passed'
    const message = `${concern.input}: expected ${concern.expected}; the fixed code ${concern.actual} (${concern.where.file}, ${concern.where.function}). The test "${concern.test.name}" fails at head (${concern.failure}: ${concern.failureLine})${broke ? ' and passed before the fix' : ''}.`
    const { min, max } = extent(changed)
    return [{ kind: 'warning' as const, file: file.path, startLine: min, endLine: max, title: broke ? 'The fix may break this input' : 'The fix may be incomplete', message }]
  })
}

const failToPass = (report: Report) => report.tests.filter((test) => test.kind === 'fail-to-pass').length
