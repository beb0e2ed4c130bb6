import type { ChangeSet, ChangedFile } from '../../src/domain.js'
import { classifyFile } from '../../src/diff/classify.js'
import { exitCodeFor } from '../../src/pipeline.js'
import { notApplicableReason } from '../../src/verdict/applicability.js'

const BASE = 'b'.repeat(40)
const HEAD = 'h'.repeat(40)

const changed = (path: string, status: ChangedFile['status'] = 'modified'): ChangedFile => ({ path, basePath: status === 'added' ? null : path, status, role: classifyFile(path), hunks: [] })
const changeSet = (paths: Array<string | ChangedFile>, range: Partial<ChangeSet> = {}): ChangeSet => ({
  base: BASE,
  head: HEAD,
  mergeBase: BASE,
  files: paths.map((path) => (typeof path === 'string' ? changed(path) : path)),
  ...range
})

test('a fix with its test is applicable in both modes', () => {
  const fix = changeSet(['src/transport.ts', 'test/transport.test.ts'])
  expect(notApplicableReason(fix, 'verify')).toBeNull()
  expect(notApplicableReason(fix, 'generate')).toBeNull()
})

test('generate mode proves a source change without tests: it writes them', () => {
  expect(notApplicableReason(changeSet(['src/transport.ts']), 'generate')).toBeNull()
})

test('a dependency change alone is applicable: the pre-fix tree takes the manifests back', () => {
  expect(notApplicableReason(changeSet(['package.json', 'package-lock.json', 'test/transport.test.ts']), 'verify')).toBeNull()
})

test('docs alone: nothing could fail before the fix', () => {
  const reason = notApplicableReason(changeSet(['README.md', 'docs/usage.md']), 'generate')
  expect(reason).toBe(
    'the change has no source change to prove: it changes only 2 files that are not source (documentation, configuration, tooling), so the pre-fix tree (head with the source changes taken back) would be head itself, and no test could fail before the fix'
  )
})

test('tests alone: nothing could fail before the fix, in either mode', () => {
  const testsOnly = changeSet(['test/transport.test.ts'])
  const expected = 'the change has no source change to prove: it changes only 1 test file, so the pre-fix tree (head with the source changes taken back) would be head itself, and no test could fail before the fix'
  expect(notApplicableReason(testsOnly, 'verify')).toBe(expected)
  expect(notApplicableReason(testsOnly, 'generate')).toBe(expected)
})

test('tests and configuration together are counted both', () => {
  const reason = notApplicableReason(changeSet(['test/a.test.ts', 'test/b.test.ts', 'jest.config.js']), 'verify')
  expect(reason).toContain('it changes only 2 test files and 1 file that is not source (documentation, configuration, tooling)')
})

test('verify mode with source changes but no test change has nothing to verify', () => {
  expect(notApplicableReason(changeSet(['src/transport.ts', 'src/retry.ts', 'README.md']), 'verify')).toBe(
    "verify mode runs the change's own tests, and it changes 2 source files but adds or modifies no test file: there is nothing to verify (generate mode writes the tests)"
  )
})

test('verify mode: a deleted test is no test to run', () => {
  const reason = notApplicableReason(changeSet(['src/transport.ts', changed('test/old.test.ts', 'deleted')]), 'verify')
  expect(reason).toMatch(/^verify mode runs the change's own tests, and it changes 1 source file but adds or modifies no test file/)
})

test('base == head: no change', () => {
  expect(notApplicableReason(changeSet([], { base: HEAD, mergeBase: HEAD }), 'generate')).toBe('base and head are the same commit (hhhhhhh): there is no change to prove')
})

test('a reversed range: head is an ancestor of base', () => {
  expect(notApplicableReason(changeSet([], { mergeBase: HEAD }), 'verify')).toBe(
    'head hhhhhhh is an ancestor of base bbbbbbb, so base...head holds no change: were base and head swapped? (base is the commit before the fix, head the fix)'
  )
})

test('an empty range between different commits (a merge that changes nothing) has no change', () => {
  expect(notApplicableReason(changeSet([]), 'generate')).toBe('base...head changes no file: there is no change to prove')
})

test('not-applicable exits 0, whatever on-no-fail-to-pass or on-fix-concern say', () => {
  expect(exitCodeFor('not-applicable', 'fail')).toBe(0)
  expect(exitCodeFor('not-applicable', 'fail', { fixConcerns: 0, onFixConcern: 'fail' })).toBe(0)
})
