import { execFileSync } from 'node:child_process'
import { mkdtempSync, mkdirSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { readChangeSet, withCollectedTests } from '../../src/diff/change-set.js'
import type { ChangedFile } from '../../src/domain.js'
import { createGit } from '../../src/ports/git.js'

const dir = mkdtempSync(join(tmpdir(), 'rtg-diff-'))
const git = (...args: string[]) => execFileSync('git', ['-c', 'user.name=t', '-c', 'user.email=t@t', ...args], { cwd: dir, encoding: 'utf8' }).trim()
const write = (path: string, content: string) => (mkdirSync(join(dir, path, '..'), { recursive: true }), writeFileSync(join(dir, path), content))

let base = ''
let head = ''
beforeAll(() => {
  git('init', '-q', '-b', 'main')
  write('src/a.ts', 'export const a = 1\nexport const b = 2\nexport const c = 3\n')
  write('src/old-name.ts', 'export const moved = true\n')
  write('src/gone.ts', 'export const gone = 1\n')
  git('add', '.')
  git('commit', '-q', '-m', 'base')
  base = git('rev-parse', 'HEAD')
  write('src/a.ts', 'export const a = 1\nexport const b = 20\nexport const c = 3\n')
  git('mv', 'src/old-name.ts', 'src/new-name.ts')
  git('rm', '-q', 'src/gone.ts')
  write('test/a.test.ts', "test('a', () => {})\n")
  write('README.md', '# docs\n')
  git('add', '.')
  git('commit', '-q', '-m', 'fix')
  head = git('rev-parse', 'HEAD')
})
afterAll(() => rmSync(dir, { recursive: true, force: true }))

test('the diff is parsed into classified files with hunks and line numbers', async () => {
  const changeSet = await readChangeSet(createGit(dir), base, 'HEAD')
  expect(changeSet).toMatchObject({ base, head, mergeBase: base })
  const byPath = Object.fromEntries(changeSet.files.map((file) => [file.path, file]))
  expect(byPath['src/a.ts']).toMatchObject({ status: 'modified', role: 'source', basePath: 'src/a.ts' })
  expect(byPath['src/a.ts'].hunks[0]).toMatchObject({ addedLines: [2], removedLines: [2] })
  expect(byPath['src/new-name.ts']).toMatchObject({ status: 'renamed', basePath: 'src/old-name.ts' })
  expect(byPath['src/gone.ts']).toMatchObject({ status: 'deleted', basePath: 'src/gone.ts' })
  expect(byPath['test/a.test.ts']).toMatchObject({ status: 'added', role: 'test', basePath: null })
  expect(byPath['README.md'].role).toBe('other')
})

test('an unknown commit is a clear error', async () => {
  await expect(readChangeSet(createGit(dir), 'no-such-ref', head)).rejects.toThrow('Commit "no-such-ref" is not in the repository')
})

test('a folder that is not a git repository is a clear error', async () => {
  const plain = mkdtempSync(join(tmpdir(), 'rtg-plain-'))
  await expect(createGit(plain).verifyRepository()).rejects.toThrow(`${plain} is not a git repository`)
  rmSync(plain, { recursive: true })
})

describe('withCollectedTests', () => {
  const file = (path: string, role: 'source' | 'test' | 'other'): ChangedFile => ({ path, basePath: path, status: 'modified', role, hunks: [] })
  const changeSet = { base: 'b', head: 'h', mergeBase: 'b', files: [file('src/range.js', 'source'), file('src/range.check.js', 'source'), file('README.md', 'other')] }

  test('a changed source file the rules collect becomes a test; the rest keep their roles', () => {
    const { changeSet: reclassified, moved } = withCollectedTests(changeSet, (path) => path.endsWith('.check.js'))
    expect(moved).toEqual(['src/range.check.js'])
    expect(reclassified.files.map((changed) => changed.role)).toEqual(['source', 'test', 'other'])
  })

  test('rules that would make every changed source a test, or say nothing, change nothing', () => {
    expect(withCollectedTests(changeSet, (path) => path.startsWith('src/'))).toEqual({ changeSet, moved: [] })
    expect(withCollectedTests(changeSet, () => null)).toEqual({ changeSet, moved: [] })
  })
})
