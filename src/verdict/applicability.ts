/**
 * Whether a change has anything this tool could prove, decided from the diff: before a sandbox, a tree or
 * a model token. A change with nothing to prove (no change at all, docs or tests alone, verify mode without
 * tests) ends `not-applicable`: neither a proof nor a failure, and no red check.
 */
import type { ChangeSet } from '../domain.js'
import { filesToRevert } from '../execute/trees.js'

/**
 * Why the change has nothing to prove in any mode, or null. From the diff alone: the repository's own test
 * rules never make it wrong, as they turn some source files into tests but never all of them.
 */
export function nothingToProve(changeSet: ChangeSet): string | null {
  const { base, head, mergeBase } = changeSet
  if (base === head) return `base and head are the same commit (${short(head)}): there is no change to prove`
  if (mergeBase === head) return `head ${short(head)} is an ancestor of base ${short(base)}, so base...head holds no change: were base and head swapped? (base is the commit before the fix, head the fix)`
  if (changeSet.files.length === 0) return `base...head changes no file: there is no change to prove`
  if (filesToRevert(changeSet).length === 0) return `the change has no source change to prove: it changes only ${nonSource(changeSet)}, so the pre-fix tree (head with the source changes taken back) would be head itself, and no test could fail before the fix`
  return null
}

/** Why verify mode has nothing to run, or null: it runs the change's own tests (as the repository's rules count them). */
export function nothingToVerify(changeSet: ChangeSet): string | null {
  if (changeSet.files.some((file) => file.role === 'test' && file.status !== 'deleted')) return null
  return `verify mode runs the change's own tests, and it changes ${count(filesToRevert(changeSet).length, 'source file')} but adds or modifies no test file: there is nothing to verify (generate mode writes the tests)`
}

function nonSource(changeSet: ChangeSet): string {
  const tests = changeSet.files.filter((file) => file.role === 'test').length
  const others = changeSet.files.length - tests
  const parts = [tests && count(tests, 'test file'), others && `${count(others, 'file')} that ${others === 1 ? 'is' : 'are'} not source (documentation, configuration, tooling)`]
  return parts.filter(Boolean).join(' and ')
}

const count = (n: number, noun: string) => `${n} ${noun}${n === 1 ? '' : 's'}`
const short = (commit: string) => commit.slice(0, 7)
