import type { ChangeSet, ChangedFile } from '../../src/domain.js'
import { classifyFile } from '../../src/diff/classify.js'
import { exitCodeFor } from '../../src/pipeline.js'
import { nothingToProve, nothingToVerify } from '../../src/verdict/applicability.js'

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

test('a fix with its test has something to prove and to verify', () => {
  const fix = changeSet(['src/transport.ts', 'test/transport.test.ts'])
  expect(nothingToProve(fix)).toBeNull()
  expect(nothingToVerify(fix)).toBeNull()
})

test('a source change without tests has something to prove: generate mode writes the tests', () => {
  expect(nothingToProve(changeSet(['src/transport.ts']))).toBeNull()
})

test('a dependency change alone has something to prove: the pre-fix tree takes the manifests back', () => {
  const bump = changeSet(['package.json', 'package-lock.json', 'test/transport.test.ts'])
  expect(nothingToProve(bump)).toBeNull()
  expect(nothingToVerify(bump)).toBeNull()
})

test('docs alone: nothing could fail before the fix', () => {
  const reason = nothingToProve(changeSet(['README.md', 'docs/usage.md']))
  expect(reason).toBe(
    'the change has no source change to prove: it changes only 2 files that are not source (documentation, configuration, tooling), so the pre-fix tree (head with the source changes taken back) would be head itself, and no test could fail before the fix'
  )
})

test('tests alone: nothing could fail before the fix', () => {
  expect(nothingToProve(changeSet(['test/transport.test.ts']))).toBe(
    'the change has no source change to prove: it changes only 1 test file, so the pre-fix tree (head with the source changes taken back) would be head itself, and no test could fail before the fix'
  )
})

test('tests and configuration together are counted both', () => {
  const reason = nothingToProve(changeSet(['test/a.test.ts', 'test/b.test.ts', 'jest.config.js']))
  expect(reason).toContain('it changes only 2 test files and 1 file that is not source (documentation, configuration, tooling)')
})

test('verify mode with source changes but no test change has nothing to verify', () => {
  const sourceOnly = changeSet(['src/transport.ts', 'src/retry.ts', 'README.md'])
  expect(nothingToProve(sourceOnly)).toBeNull()
  expect(nothingToVerify(sourceOnly)).toBe(
    "verify mode runs the change's own tests, and it changes 2 source files but adds or modifies no test file: there is nothing to verify (generate mode writes the tests)"
  )
})

test('verify mode: a deleted test is no test to run', () => {
  const reason = nothingToVerify(changeSet(['src/transport.ts', changed('test/old.test.ts', 'deleted')]))
  expect(reason).toMatch(/^verify mode runs the change's own tests, and it changes 1 source file but adds or modifies no test file/)
})

test('base == head: no change', () => {
  expect(nothingToProve(changeSet([], { base: HEAD, mergeBase: HEAD }))).toBe('base and head are the same commit (hhhhhhh): there is no change to prove')
})

test('a reversed range: head is an ancestor of base', () => {
  expect(nothingToProve(changeSet([], { mergeBase: HEAD }))).toBe(
    'head hhhhhhh is an ancestor of base bbbbbbb, so base...head holds no change: were base and head swapped? (base is the commit before the fix, head the fix)'
  )
})

test('an empty range between different commits (a merge that changes nothing) has no change', () => {
  expect(nothingToProve(changeSet([]))).toBe('base...head changes no file: there is no change to prove')
})

test('not-applicable exits 0, whatever on-no-fail-to-pass or on-fix-concern say', () => {
  expect(exitCodeFor('not-applicable', 'fail')).toBe(0)
  expect(exitCodeFor('not-applicable', 'fail', { fixConcerns: 0, onFixConcern: 'fail' })).toBe(0)
})
