/** The context's reads of a real git repository: bounded per file and in total, each file read once. */
import { execFileSync } from 'node:child_process'
import { mkdtemp, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { createGit } from '../../src/ports/git.js'
import { boundedReader } from '../../src/context/read.js'

let dir = ''
let head = ''
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'rtg-read-'))
  const git = (...args: string[]) => execFileSync('git', ['-c', 'user.name=t', '-c', 'user.email=t@t', ...args], { cwd: dir, encoding: 'utf8' }).trim()
  git('init', '-q')
  await writeFile(join(dir, 'small.js'), 'a'.repeat(300))
  await writeFile(join(dir, 'other.js'), 'b'.repeat(300))
  await writeFile(join(dir, 'large.js'), 'c'.repeat(5_000))
  git('add', '-A')
  git('commit', '-qm', 'files')
  head = git('rev-parse', 'HEAD')
})
afterAll(() => rm(dir, { recursive: true, force: true }))

test('a file over the limit is left unread, with its size; a missing file has neither', async () => {
  const reader = boundedReader(createGit(dir), { file: 1_000, total: 10_000 })
  expect(await reader.read(head, 'small.js')).toEqual({ content: 'a'.repeat(300), size: 300 })
  expect(await reader.read(head, 'large.js')).toEqual({ content: null, size: 5_000 })
  expect(await reader.read(head, 'missing.js')).toEqual({ content: null, size: null })
})

test('once the total is read, later files are left unread; a file read again costs nothing more', async () => {
  const reader = boundedReader(createGit(dir), { file: 1_000, total: 500 })
  expect(await reader.text(head, 'small.js')).toBe('a'.repeat(300))
  expect(await reader.text(head, 'small.js')).toBe('a'.repeat(300))
  expect(await reader.read(head, 'other.js')).toEqual({ content: null, size: 300 })
})

test('reads started together are counted in the order they were asked for', async () => {
  const reader = boundedReader(createGit(dir), { file: 1_000, total: 500 })
  const [first, second] = await Promise.all([reader.text(head, 'other.js'), reader.text(head, 'small.js')])
  expect([first, second]).toEqual(['b'.repeat(300), null])
})
