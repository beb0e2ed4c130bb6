import { unsafePathProblem } from '../../src/suite/file-path.js'

test('plain relative paths are safe, unicode letters included', () => {
  for (const path of ['test/regression/issue-1.test.ts', 'tests/regression/test_ünïcode_名前.py', './test/a.test.ts', 'test/a b.test.ts']) expect(unsafePathProblem(path)).toBeNull()
})

test.each([
  ['test/a\n.test.ts', 'U+000A'],
  ['test/a\r.test.ts', 'U+000D'],
  ['test/a\u0000.test.ts', 'U+0000'],
  ['test/a\u001b[31m.test.ts', 'U+001B'],
  ['test/a\u0085.test.ts', 'U+0085'],
  ['test/a\u2028.test.ts', 'U+2028'],
  ['test/a\u2029.test.ts', 'U+2029'],
  ['test/\u202Ests.test.ts', 'U+202E'],
  ['test/\u202Aa.test.ts', 'U+202A'],
  ['test/\u2066a.test.ts', 'U+2066'],
  ['test/\u2069a.test.ts', 'U+2069'],
  ['test/a\u200b.test.ts', 'U+200B'],
  ['test/a\u200d.test.ts', 'U+200D'],
  ['test/a\u2060.test.ts', 'U+2060'],
  ['test/\ufeffa.test.ts', 'U+FEFF']
])('a control, separator, bidirectional or invisible character is refused: %j', (path, codePoint) => {
  expect(unsafePathProblem(path)).toBe(`the path has a control, line-breaking, bidirectional or invisible character (${codePoint})`)
})

test.each([
  ['test\\regression\\a.test.ts', 'the path has a backslash'],
  ['/etc/a.test.ts', 'the path is absolute'],
  ['C:/a.test.ts', 'the path is absolute'],
  ['../a.test.ts', 'the path contains ".."'],
  ['test/regression/../../src/a.test.ts', 'the path contains ".."'],
  [' ', 'the path is empty']
])('%j: %s', (path, problem) => {
  expect(unsafePathProblem(path)).toBe(problem)
})

test('a name over 255 bytes or a path over 4096 bytes is refused, counted in bytes', () => {
  const name = (length: number) => `${'a'.repeat(length - '.test.ts'.length)}.test.ts`
  expect(unsafePathProblem(`test/regression/${name(255)}`)).toBeNull()
  expect(unsafePathProblem(`test/regression/${name(300)}`)).toBe('a name in the path is too long (300 bytes; at most 255)')
  expect(unsafePathProblem(`test/regression/${'é'.repeat(128)}.ts`)).toBe('a name in the path is too long (259 bytes; at most 255)')
  const deep = `${'d'.repeat(200)}/`.repeat(21) + name(20)
  expect(unsafePathProblem(deep)).toBe(`the path is too long (${deep.length} bytes; at most 4096)`)
})
