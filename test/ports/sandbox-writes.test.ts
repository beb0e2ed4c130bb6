/**
 * The checked walk against real links, FIFOs and files in a temp folder: each refusal is a swap a test can
 * make in a folder the tool writes later (a tree, a scratch folder), and nothing outside is ever touched.
 */
import { execFileSync } from 'node:child_process'
import { existsSync } from 'node:fs'
import { chmod, link, lstat, mkdir, mkdtemp, readdir, readFile, rm, stat, symlink, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { makeFolderInside, moveFolderInside, removeInside, SandboxPathRefused, writeInside } from '../../src/ports/sandbox-writes.js'

let dir: string
let root: string
let outside: string

beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'sandbox-writes-'))
  root = join(dir, 'root')
  // What a planted link points at: a folder with a canary, mode 0700 as root's own folders are.
  outside = join(dir, 'outside')
  await mkdir(root)
  await mkdir(outside)
  await writeFile(join(outside, 'canary'), 'CANARY')
  await chmod(outside, 0o700)
})
afterEach(() => rm(dir, { recursive: true, force: true }))

/** The outside folder as it was: the same files, content and mode. */
async function expectOutsideUntouched(): Promise<void> {
  expect((await readdir(outside)).sort()).toEqual(['canary'])
  expect(await readFile(join(outside, 'canary'), 'utf8')).toBe('CANARY')
  expect((await stat(outside)).mode & 0o7777).toBe(0o700)
}

async function refusal(attempt: Promise<unknown>): Promise<string> {
  const error = await attempt.then(
    () => null,
    (thrown: unknown) => thrown
  )
  expect(error).toBeInstanceOf(SandboxPathRefused)
  return (error as Error).message
}

describe('writeInside', () => {
  it('writes a file, making the folders on the way', async () => {
    const path = await writeInside(root, 'test/regression/deep/a.test.js', 'a')
    expect(path).toBe(join(root, 'test/regression/deep/a.test.js'))
    expect(await readFile(path, 'utf8')).toBe('a')
  })

  it('replaces a plain file with a new one: a hard link to a file outside is not written through', async () => {
    await mkdir(join(root, 'test'))
    await link(join(outside, 'canary'), join(root, 'test', 'a.test.js'))
    await writeInside(root, 'test/a.test.js', 'new')
    expect(await readFile(join(root, 'test', 'a.test.js'), 'utf8')).toBe('new')
    await expectOutsideUntouched()
  })

  it.each([
    ['the first folder', 'test', 'test/regression/a.test.js'],
    ['a deeper folder', 'test/regression', 'test/regression/a.test.js'],
    ['the file itself', 'test/regression/a.test.js', 'test/regression/a.test.js']
  ])('refuses a link at %s, and writes nothing outside', async (_where, linkAt, path) => {
    await mkdir(join(root, 'test', 'regression'), { recursive: true })
    await rm(join(root, linkAt), { recursive: true, force: true })
    await symlink(linkAt === path ? join(outside, 'canary') : outside, join(root, linkAt))
    const message = await refusal(writeInside(root, path, 'PWNED'))
    expect(message).toContain(join(root, linkAt))
    expect(message).toContain('is a symbolic link')
    await expectOutsideUntouched()
  })

  it('refuses a link to a folder inside the root too: any link may have been swapped in', async () => {
    await mkdir(join(root, 'real'))
    await symlink(join(root, 'real'), join(root, 'test'))
    expect(await refusal(writeInside(root, 'test/a.test.js', 'x'))).toContain('is a symbolic link')
    expect(await readdir(join(root, 'real'))).toEqual([])
  })

  it('refuses a dangling link, as folder or as file, without creating its target', async () => {
    await symlink(join(outside, 'made-folder'), join(root, 'test'))
    await symlink(join(outside, 'made-file'), join(root, 'b.test.js'))
    expect(await refusal(writeInside(root, 'test/a.test.js', 'x'))).toContain('is a symbolic link')
    expect(await refusal(writeInside(root, 'b.test.js', 'x'))).toContain('is a symbolic link')
    await expectOutsideUntouched()
  })

  it('refuses a FIFO where the file goes, without blocking on it', async () => {
    execFileSync('mkfifo', [join(root, 'report.json')])
    expect(await refusal(writeInside(root, 'report.json', 'x'))).toContain('it is a FIFO')
  })

  it('refuses a file where a folder should be, and a folder where the file goes', async () => {
    await writeFile(join(root, 'test'), 'a file')
    await mkdir(join(root, 'b.test.js'))
    expect(await refusal(writeInside(root, 'test/a.test.js', 'x'))).toContain(`${join(root, 'test')} is not a folder (a file)`)
    expect(await refusal(writeInside(root, 'b.test.js', 'x'))).toContain('it is a folder')
  })

  it.each(['../outside/a.test.js', 'test/../../outside/a.test.js', '/tmp/a.test.js', '', '.'])('refuses %j as not inside the root', async (path) => {
    expect(await refusal(writeInside(root, path, 'x'))).toContain('it is not a relative path inside')
    await expectOutsideUntouched()
  })

  it('refuses a name longer than the system allows, saying so', async () => {
    expect(await refusal(writeInside(root, `test/${'a'.repeat(300)}.test.js`, 'x'))).toContain('is longer than 255 bytes')
    expect(existsSync(join(root, 'test'))).toBe(false)
  })
})

describe('removeInside', () => {
  it('removes a file, and does nothing where there is none (or no folder on the way)', async () => {
    await writeFile(join(root, 'report.json'), '{}')
    await removeInside(root, 'report.json')
    await removeInside(root, 'report.json')
    await removeInside(root, 'missing/report.json')
    await removeInside(join(dir, 'no-root'), 'report.json')
    expect(await readdir(root)).toEqual([])
  })

  it('refuses to remove through a linked folder: the files outside stay', async () => {
    await mkdir(join(root, 'test'))
    await symlink(outside, join(root, 'test', 'regression'))
    expect(await refusal(removeInside(root, 'test/regression/canary'))).toContain(`${join(root, 'test', 'regression')} is a symbolic link`)
    await expectOutsideUntouched()
  })

  it('removes a link itself, never its target', async () => {
    await symlink(join(outside, 'canary'), join(root, 'report.json'))
    await symlink(outside, join(root, 'coverage'))
    await removeInside(root, 'report.json')
    await removeInside(root, 'coverage', { recursive: true })
    expect(await readdir(root)).toEqual([])
    await expectOutsideUntouched()
  })

  it('removes a folder only when asked to, and not through the links inside it', async () => {
    await mkdir(join(root, 'coverage'))
    await symlink(outside, join(root, 'coverage', 'linked'))
    expect(await refusal(removeInside(root, 'coverage'))).toContain('it is a folder')
    await removeInside(root, 'coverage', { recursive: true })
    expect(await readdir(root)).toEqual([])
    await expectOutsideUntouched()
  })

  it('removes a FIFO without opening it', async () => {
    execFileSync('mkfifo', [join(root, 'report.json')])
    await removeInside(root, 'report.json')
    expect(await readdir(root)).toEqual([])
  })
})

describe('makeFolderInside', () => {
  it('makes the folders with the mode asked for, whatever the umask', async () => {
    const path = await makeFolderInside(root, 'runs/file-1', 0o777)
    expect(path).toBe(join(root, 'runs', 'file-1'))
    expect((await stat(path)).mode & 0o7777).toBe(0o777)
    expect((await stat(join(root, 'runs'))).mode & 0o7777).toBe(0o755 & ~process.umask())
  })

  it('gives an existing folder the mode', async () => {
    await mkdir(join(root, 'file-1'), 0o700)
    await makeFolderInside(root, 'file-1', 0o777)
    expect((await stat(join(root, 'file-1'))).mode & 0o7777).toBe(0o777)
  })

  it('refuses a planted link where the folder goes: its target keeps its mode and contents', async () => {
    await symlink(outside, join(root, 'file-1'))
    expect(await refusal(makeFolderInside(root, 'file-1', 0o777))).toContain(`${join(root, 'file-1')} is a symbolic link`)
    expect((await lstat(join(root, 'file-1'))).isSymbolicLink()).toBe(true)
    await expectOutsideUntouched()
  })

  it('refuses a link above the folder, and a dangling link, creating nothing through them', async () => {
    await symlink(outside, join(root, 'runs'))
    await symlink(join(outside, 'made'), join(root, 'dangling'))
    expect(await refusal(makeFolderInside(root, 'runs/file-1', 0o777))).toContain('is a symbolic link')
    expect(await refusal(makeFolderInside(root, 'dangling', 0o777))).toContain('is a symbolic link')
    await expectOutsideUntouched()
  })

  it('refuses a file or a FIFO where the folder goes', async () => {
    await writeFile(join(root, 'file-1'), 'x')
    execFileSync('mkfifo', [join(root, 'file-2')])
    expect(await refusal(makeFolderInside(root, 'file-1', 0o777))).toContain('is not a folder (a file)')
    expect(await refusal(makeFolderInside(root, 'file-2', 0o777))).toContain('is not a folder (a FIFO)')
  })

  it('refuses a root that is itself a link', async () => {
    await symlink(outside, join(dir, 'linked-root'))
    expect(await refusal(makeFolderInside(join(dir, 'linked-root'), 'file-1', 0o777))).toContain('is a symbolic link')
    await expectOutsideUntouched()
  })
})

describe('moveFolderInside', () => {
  let folder: string
  beforeEach(async () => {
    folder = join(dir, 'staged')
    await mkdir(folder)
    await writeFile(join(folder, 'entry'), 'moved')
  })

  it('moves the folder in whole, making the folders on the way', async () => {
    expect(await moveFolderInside(root, 'packages/core/node_modules', folder)).toBe(true)
    expect(await readFile(join(root, 'packages', 'core', 'node_modules', 'entry'), 'utf8')).toBe('moved')
    expect(existsSync(folder)).toBe(false)
  })

  it('moves nothing onto what is there already: a folder, a planted link (its target untouched)', async () => {
    await mkdir(join(root, 'file-1'))
    await symlink(outside, join(root, 'file-2'))
    expect(await moveFolderInside(root, 'file-1', folder)).toBe(false)
    expect(await moveFolderInside(root, 'file-2', folder)).toBe(false)
    expect(await readdir(join(root, 'file-1'))).toEqual([])
    expect((await lstat(join(root, 'file-2'))).isSymbolicLink()).toBe(true)
    expect(existsSync(join(folder, 'entry'))).toBe(true)
    await expectOutsideUntouched()
  })

  it('refuses a link above where the folder goes', async () => {
    await symlink(outside, join(root, 'runs'))
    expect(await refusal(moveFolderInside(root, 'runs/node_modules', folder))).toContain('is a symbolic link')
    expect(existsSync(join(folder, 'entry'))).toBe(true)
    await expectOutsideUntouched()
  })
})
