import type { ContextPack } from '../../src/domain.js'
import { placeSuite, suitePathFor } from '../../src/suite/placement.js'

const context = { regressionDir: 'test/regression', testFileSuffix: '.test.ts' } as ContextPack
const file = (path: string) => ({ path, content: 'test()', tests: [] })

test('the suite is named after the issue, else the head commit', () => {
  const report = { title: 'Streaming calls never retry', body: '', source: 'issue-file' as const, truncated: false, issue: 4471 }
  expect(suitePathFor(report, 'abcdef123', context)).toBe('test/regression/issue-4471.test.ts')
  expect(suitePathFor({ ...report, issue: null }, 'abcdef123', context)).toBe('test/regression/fix-abcdef1.test.ts')
  expect(suitePathFor(report, 'abc', { regressionDir: 'tests/regression', testFileSuffix: '.py' } as ContextPack)).toBe('tests/regression/test_issue_4471.py')
})

test('paths that escape, collide or leave the regression folder are refused', () => {
  const existing = new Set(['test/regression/old.test.ts'])
  const { accepted, refused } = placeSuite(
    [
      file('test/regression/issue-1.test.ts'),
      file('../../etc/x'),
      file('test/regression/../../src/evil.test.ts'),
      file('/etc/passwd.test.ts'),
      file('test/regression/old.test.ts'),
      file('src/other.test.ts'),
      file('test/regression/notes.md'),
      file('test/regression/issue-1.test.ts'),
      file('test\\regression\\win.test.ts'),
      file('test/regression/a\u0085b.test.ts')
    ],
    context,
    existing
  )
  expect(accepted.map((f) => f.path)).toEqual(['test/regression/issue-1.test.ts'])
  expect(refused.map((f) => f.reason)).toEqual([
    'the path contains ".."',
    'the path contains ".."',
    'the path is absolute',
    'a file already exists at that path',
    'the path is outside the regression folder test/regression/',
    'the file name does not end in .test.ts',
    'the suite has two files at that path',
    'the path has a backslash',
    'the path has a control, line-breaking, bidirectional or invisible character (U+0085)'
  ])
})

test('a Python test file must be an importable module name: pytest imports it as one', () => {
  const python = { regressionDir: 'tests/regression', testFileSuffix: '.py' } as ContextPack
  const { accepted, refused } = placeSuite([file('tests/regression/test_fix_abc1234_concerns.py'), file('tests/regression/test_fix_abc1234-concerns.py'), file('tests/regression/1_test.py')], python, new Set())
  expect(accepted.map((f) => f.path)).toEqual(['tests/regression/test_fix_abc1234_concerns.py'])
  expect(refused.map((f) => f.reason)).toEqual([
    'the file name is not an importable Python module name (letters, digits and _, not starting with a digit)',
    'the file name is not an importable Python module name (letters, digits and _, not starting with a digit)'
  ])
})
