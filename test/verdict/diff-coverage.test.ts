import type { ChangeSet, ChangedFile } from '../../src/domain.js'
import { diffCoverage, diffCoverageNote } from '../../src/verdict/diff-coverage.js'
import { codeLines } from '../../src/verdict/code-lines.js'
import { describeRanges, toRanges } from '../../src/verdict/line-ranges.js'

const file = (path: string, addedLines: number[], extra: Partial<ChangedFile> = {}): ChangedFile => ({
  path,
  basePath: path,
  status: 'modified',
  role: 'source',
  hunks: [{ header: '@@', base: { start: 1, end: 1 }, head: { start: 1, end: 1 }, text: '', addedLines, removedLines: [] }],
  ...extra
})
const changeSet = (files: ChangedFile[]): ChangeSet => ({ base: 'b', head: 'h', mergeBase: 'b', files })
const source = ['const a = 1', '// a comment', 'if (a) {', '  run()', '}', '', 'export { a }']

test('only executable changed lines of source files count; covered ones are those the suite ran', () => {
  const coverage = [{ file: 'src/a.js', executableLines: [1, 3, 4, 7], coveredLines: [1, 3, 7] }]
  const files = [file('src/a.js', [1, 2, 3, 4, 5]), file('test/a.test.js', [1], { role: 'test' }), file('src/gone.js', [1], { status: 'deleted' })]
  expect(diffCoverage(changeSet(files), coverage, () => source)).toEqual({
    covered: 2,
    total: 3,
    files: [{ file: 'src/a.js', covered: 2, total: 3, uncoveredLines: [[4, 4]] }]
  })
  expect(diffCoverageNote(changeSet(files), coverage)).toBeNull()
})

test('a re-indented comment is not a changed executable line, even where the coverage map names its lines', () => {
  // V8 and code transformed without a source map can name comment lines; the block comment's inner lines too.
  const lines = ['function f(x) {', '    /*', '     explains the fix', '     in two lines', '    */', '    // and a line comment', '  return x + 1 // code with a comment', '}']
  const coverage = [{ file: 'src/f.js', executableLines: [1, 2, 3, 4, 5, 6, 7], coveredLines: [1, 2, 3, 4, 5, 6] }]
  expect(diffCoverage(changeSet([file('src/f.js', [2, 3, 4, 5, 6, 7])]), coverage, () => lines)).toEqual({
    covered: 0,
    total: 1,
    files: [{ file: 'src/f.js', covered: 0, total: 1, uncoveredLines: [[7, 7]] }]
  })
})

test('code lines: strings that look like comments are code; Python comments are not', () => {
  expect([...codeLines('a.js', ['const url = "http://x" // c', "const s = '/* not a comment */'", '/* a', 'b */ const after = 1', '`multi', '// inside a template`'])]).toEqual([1, 2, 4, 5, 6])
  expect([...codeLines('a.py', ['# comment', 'x = 1  # trailing', '', '    # indented'])]).toEqual([2])
  expect([...codeLines('a.js', ['const re = /\\/*x/', 'next()'])]).toEqual([1, 2])
  // Brackets alone, and a JSX comment, are no statement.
  expect([...codeLines('a.jsx', ['  });', '  {/* a JSX comment */}', '  <div>{value}</div>'])]).toEqual([3])
})

test('a changed file the coverage does not hold is not guessed at: it is left out, and the note names it', () => {
  const coverage = [{ file: 'src/a.js', executableLines: [1], coveredLines: [1] }]
  const files = [file('src/a.js', [1]), file('src/b.js', [1, 2, 4])]
  expect(diffCoverage(changeSet(files), coverage, () => source)).toEqual({ covered: 1, total: 1, files: [{ file: 'src/a.js', covered: 1, total: 1, uncoveredLines: [] }] })
  expect(diffCoverageNote(changeSet(files), coverage)).toBe('leaves out src/b.js: not in the coverage (the tests did not load it)')
})

test("the coverage's paths map to the change's: an absolute path in another copy of the tree, a path relative to a package's rootDir", () => {
  const files = [file('packages/core/src/a.js', [1, 4]), file('lib/b.js', [3])]
  const coverage = [
    { file: 'src/a.js', executableLines: [1, 4], coveredLines: [1] },
    { file: '/home/runner/work/repo/lib/b.js', executableLines: [3], coveredLines: [3] }
  ]
  expect(diffCoverage(changeSet(files), coverage, () => source)).toEqual({
    covered: 2,
    total: 3,
    files: [
      { file: 'packages/core/src/a.js', covered: 1, total: 2, uncoveredLines: [[4, 4]] },
      { file: 'lib/b.js', covered: 1, total: 1, uncoveredLines: [] }
    ]
  })
  expect(diffCoverageNote(changeSet(files), coverage)).toBeNull()
  // Two coverage entries alike: neither is taken for the changed file.
  const twoPackages = ['packages/one/src/a.js', 'packages/other/src/a.js'].map((path) => ({ file: path, executableLines: [1], coveredLines: [1] }))
  expect(diffCoverage(changeSet([file('src/a.js', [1])]), twoPackages, () => source)).toBeNull()
})

test('coverage that holds none of the changed files: no 0 of 0, a note with what was expected and what it holds', () => {
  const coverage = [{ file: 'dist/index.js', executableLines: [1, 2], coveredLines: [1, 2] }]
  const files = [file('src/index.ts', [1, 3])]
  expect(diffCoverage(changeSet(files), coverage, () => source)).toBeNull()
  expect(diffCoverageNote(changeSet(files), coverage)).toBe(
    'not measured: the coverage holds none of the changed source files (expected src/index.ts; it holds dist/index.js): the tests did not load them, or the coverage is of other files (compiled output, another root)'
  )
  expect(diffCoverageNote(changeSet(files), [])).toContain('(expected src/index.ts; it holds no file)')
})

test('no coverage collected: no diff coverage and no note from here', () => {
  expect(diffCoverage(changeSet([file('src/a.js', [1])]), undefined, () => source)).toBeNull()
  expect(diffCoverageNote(changeSet([file('src/a.js', [1])]), undefined)).toBeNull()
})

test('a change with no source file: 0 of 0 is true there, and needs no note', () => {
  expect(diffCoverage(changeSet([file('test/a.test.js', [1], { role: 'test' })]), [], () => source)).toEqual({ covered: 0, total: 0, files: [] })
})

test('line lists as ranges: 20,000 lines in a row are one range', () => {
  expect(toRanges([12, 3, 4, 5, 6, 7, 12])).toEqual([[3, 7], [12, 12]])
  expect(describeRanges(toRanges([3, 4, 5, 6, 7, 12]))).toBe('3–7, 12')
  expect(toRanges(Array.from({ length: 20000 }, (_, index) => index + 1))).toEqual([[1, 20000]])
})

test('a changed file in the coverage without one executable line was not instrumented: no 0 of 0, a note saying so', () => {
  const coverage = [{ file: 'src/a.js', executableLines: [], coveredLines: [] }]
  expect(diffCoverage(changeSet([file('src/a.js', [1, 3])]), coverage, () => source)).toBeNull()
  expect(diffCoverageNote(changeSet([file('src/a.js', [1, 3])]), coverage)).toBe(
    'not measured: src/a.js is in the coverage without one executable line (only declarations, or a transform the coverage tool did not instrument)'
  )
  // Beside a measured file, it is left out and named.
  const both = [...coverage, { file: 'src/b.js', executableLines: [1], coveredLines: [1] }]
  expect(diffCoverageNote(changeSet([file('src/a.js', [1]), file('src/b.js', [1]), file('src/c.js', [1])]), both)).toBe(
    'leaves out src/c.js: not in the coverage (the tests did not load it); src/a.js is in the coverage without one executable line (only declarations, or a transform the coverage tool did not instrument)'
  )
})
