/** writeSuiteFiles and removeSuiteFiles against real folders and real symlinks: nothing is written, created or removed outside the tree. */
import { existsSync } from 'node:fs'
import { mkdir, mkdtemp, readFile, readdir, rm, symlink, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { UserFacingError } from '../../src/errors.js'
import { removeSuiteFiles, writeSuiteFiles } from '../../src/suite/write.js'

let scratch = ''
let tree = ''
let outside = ''
beforeEach(async () => {
  scratch = await mkdtemp(join(tmpdir(), 'rtg-write-'))
  tree = join(scratch, 'tree')
  outside = join(scratch, 'outside')
  await Promise.all([mkdir(tree), mkdir(outside)])
})
afterEach(() => rm(scratch, { recursive: true, force: true }))

const file = (path: string, content = "test('x', () => {})") => ({ path, content, tests: [] })
const listOutside = async () => (await readdir(outside, { recursive: true })).sort()

test('files go to their paths in the tree, folders created on the way', async () => {
  await writeSuiteFiles(tree, [file('test/regression/deep/a.test.ts', 'a'), file('./test/regression/b.test.ts', 'b')])
  expect(await readFile(join(tree, 'test/regression/deep/a.test.ts'), 'utf8')).toBe('a')
  expect(await readFile(join(tree, 'test/regression/b.test.ts'), 'utf8')).toBe('b')
})

test('a symlinked folder out of the tree is refused before any folder is created through it', async () => {
  await symlink(outside, join(tree, 'test'))
  await expect(writeSuiteFiles(tree, [file('test/regression/new/a.test.ts')])).rejects.toThrow(`${join(tree, 'test')} is a symbolic link`)
  expect(await listOutside()).toEqual([])
})

test('a symlink deeper down is caught too, after the real folders above it', async () => {
  await mkdir(join(tree, 'test'))
  await symlink(outside, join(tree, 'test', 'regression'))
  await expect(writeSuiteFiles(tree, [file('test/regression/new/a.test.ts')])).rejects.toThrow(`${join(tree, 'test', 'regression')} is a symbolic link`)
  expect(await listOutside()).toEqual([])
})

test('a symlink that stays inside the tree is not followed either: the tests may have swapped it in', async () => {
  await mkdir(join(tree, 'real'))
  await symlink(join(tree, 'real'), join(tree, 'test'))
  await expect(writeSuiteFiles(tree, [file('test/regression/a.test.ts', 'inside')])).rejects.toThrow('is a symbolic link')
  expect(await readdir(join(tree, 'real'))).toEqual([])
})

test('a file that is a symlink out of the tree, or to nothing, is not written through', async () => {
  await writeFile(join(outside, 'secret'), 'untouched')
  await mkdir(join(tree, 'test'))
  await symlink(join(outside, 'secret'), join(tree, 'test', 'a.test.ts'))
  await symlink(join(outside, 'created'), join(tree, 'test', 'b.test.ts'))
  await expect(writeSuiteFiles(tree, [file('test/a.test.ts')])).rejects.toThrow('test/a.test.ts: it is a symbolic link')
  await expect(writeSuiteFiles(tree, [file('test/b.test.ts')])).rejects.toThrow('test/b.test.ts: it is a symbolic link')
  expect(await readFile(join(outside, 'secret'), 'utf8')).toBe('untouched')
  expect(await listOutside()).toEqual(['secret'])
})

test.each(['../outside/a.test.ts', 'test/../../outside/a.test.ts', '/tmp/a.test.ts', '', '.'])('the path %j is refused as not inside the tree', async (path) => {
  const error = await writeSuiteFiles(tree, [file(path)]).catch((caught: unknown) => caught)
  expect(error).toBeInstanceOf(UserFacingError)
  expect((error as Error).message).toContain('it is not a relative path inside')
  expect(await listOutside()).toEqual([])
  expect(existsSync('/tmp/a.test.ts')).toBe(false)
})

test('a file where a folder should be is refused', async () => {
  await writeFile(join(tree, 'test'), 'a file')
  await expect(writeSuiteFiles(tree, [file('test/a.test.ts')])).rejects.toThrow('test is not a folder')
})

test('the old suite is removed from its folder, never through a link that replaced the folder', async () => {
  await writeSuiteFiles(tree, [file('test/regression/a.test.ts')])
  await removeSuiteFiles(tree, [file('test/regression/a.test.ts')])
  expect(await readdir(join(tree, 'test', 'regression'))).toEqual([])
  await writeFile(join(outside, 'a.test.ts'), 'canary')
  await rm(join(tree, 'test', 'regression'), { recursive: true })
  await symlink(outside, join(tree, 'test', 'regression'))
  await expect(removeSuiteFiles(tree, [file('test/regression/a.test.ts')])).rejects.toThrow(`${join(tree, 'test', 'regression')} is a symbolic link`)
  expect(await readFile(join(outside, 'a.test.ts'), 'utf8')).toBe('canary')
})
