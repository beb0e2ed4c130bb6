import type { ChangeSet, ChangedFile } from '../../src/domain.js'
import { diffCoverage } from '../../src/verdict/diff-coverage.js'

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
    files: [{ file: 'src/a.js', covered: 2, total: 3, uncoveredLines: [4] }]
  })
})

test('a changed file the suite never loaded counts its code lines as uncovered', () => {
  expect(diffCoverage(changeSet([file('src/a.js', [1, 2, 4, 5, 6])]), [], () => source)).toEqual({
    covered: 0,
    total: 2,
    files: [{ file: 'src/a.js', covered: 0, total: 2, uncoveredLines: [1, 4] }]
  })
})

test('no coverage collected: no diff coverage', () => {
  expect(diffCoverage(changeSet([file('src/a.js', [1])]), undefined, () => source)).toBeNull()
})
