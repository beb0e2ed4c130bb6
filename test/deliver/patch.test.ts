/** suite.patch against a real checkout of the head: `git apply --check`, then `git apply`, gives exactly the files. */
import { execFileSync } from 'node:child_process'
import { readFileSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import type { SuiteFile } from '../../src/domain.js'
import { suitePatch } from '../../src/deliver/patch.js'
import { scratchRepo } from '../support/scratch-repo.js'

const repo = scratchRepo('rtg-deliver-patch-')
beforeEach(() => repo.git('init', '-q'))

const file = (path: string, content: string): SuiteFile => ({ path, content, tests: [] })

/** Applies the patch at the head's checkout (clean); returns what `git status` then shows. */
function applied(files: SuiteFile[]): string[] {
  const patchPath = join(repo.dir, '..', `${repo.dir.split('/').pop()}.patch`)
  writeFileSync(patchPath, suitePatch(files))
  execFileSync('git', ['apply', '--check', patchPath], { cwd: repo.dir, stdio: 'pipe' })
  execFileSync('git', ['apply', patchPath], { cwd: repo.dir, stdio: 'pipe' })
  return repo.git('status', '--porcelain', '--untracked-files=all', '-z').split('\0').filter(Boolean)
}

test('new files, with and without a final newline, empty, nested, CRLF, UTF-8 and spaced names', async () => {
  await repo.commit({ 'src/a.js': 'module.exports = 1\n', 'test/existing.test.js': "test('old', () => {})\n" })
  const files = [
    file('test/regression/issue-7.test.js', "const a = require('../../src/a')\n\ntest('a', () => {\n  expect(a).toBe(1)\n})\n"),
    file('test/regression/no-final-newline.test.js', "test('b', () => {})"),
    file('test/regression/one-line.test.js', "test('c', () => {})\n"),
    file('test/regression/empty.test.js', ''),
    file('test/regression/crlf.test.js', "test('d', () => {})\r\ntest('e', () => {})\r\n"),
    file('test/regression/blank-lines.test.js', '\n\n\n'),
    file('test/regression/dé jà "vu".test.js', "test('f', () => {})\n")
  ]
  const status = applied(files)
  expect(status.sort()).toEqual(files.map((f) => `?? ${f.path}`).sort())
  for (const f of files) expect(readFileSync(join(repo.dir, f.path), 'utf8')).toBe(f.content)
})

test('the index line names the blob as git hashes it', async () => {
  await repo.commit({ 'a.txt': 'a\n' })
  const content = "test('x', () => {})"
  const blob = execFileSync('git', ['hash-object', '--stdin'], { cwd: repo.dir, input: content, encoding: 'utf8' }).trim()
  expect(suitePatch([file('t/x.test.js', content)])).toContain(`\nindex 0000000..${blob.slice(0, 12)}\n`)
})

test('a patch over a file the head already has does not apply', async () => {
  await repo.commit({ 'test/regression/issue-7.test.js': 'old\n' })
  expect(() => applied([file('test/regression/issue-7.test.js', 'new\n')])).toThrow(/already exists/)
})
