/** The output folder: checked, marked, locked and cleared of only the tool's own entries, on real folders and a real repository. */
import { spawnSync } from 'node:child_process'
import { existsSync, readdirSync, readFileSync } from 'node:fs'
import { mkdir, mkdtemp, rm, symlink, writeFile } from 'node:fs/promises'
import { hostname, tmpdir } from 'node:os'
import { join } from 'node:path'
import { UserFacingError } from '../../src/errors.js'
import { createGit } from '../../src/ports/git.js'
import { claimOutFolder, ensureWritableFolder, LOCK_FILE, MARKER_FILE, type ClaimedOutFolder } from '../../src/ports/out-folder.js'
import { scratchRepo } from '../support/scratch-repo.js'

const repo = scratchRepo('rtg-out-folder-repo-')
let outside = ''
const claims: ClaimedOutFolder[] = []

beforeEach(async () => {
  outside = await mkdtemp(join(tmpdir(), 'rtg-out-folder-'))
  repo.git('init', '-q')
  await repo.commit({ '.gitignore': 'ignored-out/\n', 'src/a.js': 'a\n' })
})
afterEach(async () => {
  for (const claim of claims.splice(0)) claim.release()
  await rm(outside, { recursive: true, force: true })
})

async function claim(dir: string): Promise<ClaimedOutFolder> {
  const claimed = await claimOutFolder(dir, { input: '--out', repository: createGit(repo.dir) })
  claims.push(claimed)
  return claimed
}

async function refusal(dir: string): Promise<string> {
  const error = await claim(dir).then(() => null, (caught: unknown) => caught)
  expect(error).toBeInstanceOf(UserFacingError)
  const { message, hint } = error as UserFacingError
  return `${message} (${hint})`
}

test('a new folder is created (parents too), marked and locked; the lock goes on release', async () => {
  const dir = join(outside, 'a', 'b', 'out')
  const claimed = await claim(dir)
  expect(readdirSync(dir).sort()).toEqual([MARKER_FILE, LOCK_FILE].sort())
  expect(JSON.parse(readFileSync(join(dir, LOCK_FILE), 'utf8'))).toEqual({ pid: process.pid, host: hostname() })
  claimed.release()
  expect(readdirSync(dir)).toEqual([MARKER_FILE])
})

test("a marked folder is cleared of the last run's results only: the user's own files stay", async () => {
  const dir = join(outside, 'out')
  ;(await claim(dir)).release()
  await mkdir(join(dir, 'suite', 'test'), { recursive: true })
  await mkdir(join(dir, 'concerns'))
  await Promise.all(['report.json', 'report.md', 'run.log', 'suite.patch', 'suite/test/a.test.js', 'notes.txt'].map((file) => writeFile(join(dir, file), 'x')))
  await mkdir(join(dir, 'mine'))
  await writeFile(join(dir, 'mine', 'keep.txt'), 'keep')
  await claim(dir)
  expect(readdirSync(dir).sort()).toEqual([MARKER_FILE, LOCK_FILE, 'mine', 'notes.txt'].sort())
  expect(readFileSync(join(dir, 'mine', 'keep.txt'), 'utf8')).toBe('keep')
})

test('an entry of the tool that is a link is removed itself, never what it points to', async () => {
  const dir = join(outside, 'out')
  ;(await claim(dir)).release()
  const elsewhere = join(outside, 'precious')
  await mkdir(elsewhere)
  await writeFile(join(elsewhere, 'data.txt'), 'data')
  await symlink(elsewhere, join(dir, 'suite'))
  await claim(dir)
  expect(existsSync(join(dir, 'suite'))).toBe(false)
  expect(readFileSync(join(elsewhere, 'data.txt'), 'utf8')).toBe('data')
})

test("a folder with files and no marker is the user's: refused, and nothing in it is touched", async () => {
  const dir = join(outside, 'mine')
  await mkdir(join(dir, 'suite'), { recursive: true })
  await writeFile(join(dir, 'suite', 'my.test.js'), 'mine')
  await writeFile(join(dir, 'report.md'), 'my notes')
  expect(await refusal(dir)).toBe(`--out ${dir}: the folder holds files and was not written by regression-testgen (no ${MARKER_FILE} in it) (pass --out an empty or new folder; nothing in this one was removed)`)
  expect(readdirSync(dir).sort()).toEqual(['report.md', 'suite'])
  expect(readFileSync(join(dir, 'suite', 'my.test.js'), 'utf8')).toBe('mine')
})

test('an empty existing folder is taken', async () => {
  const dir = join(outside, 'empty')
  await mkdir(dir)
  await claim(dir)
  expect(existsSync(join(dir, MARKER_FILE))).toBe(true)
})

test('inside the repository: refused (and not created) unless git ignores the folder', async () => {
  const inside = join(repo.dir, 'results')
  expect(await refusal(inside)).toContain(`--out ${inside}: is inside the repository under test, and git does not ignore it`)
  expect(existsSync(inside)).toBe(false)
  expect(await refusal(repo.dir)).toContain('is inside the repository under test')
  expect(await refusal(join(repo.dir, 'src'))).toContain('is inside the repository under test')
  // `ignored-out/` names a folder: it matches before the folder exists too.
  const ignored = join(repo.dir, 'ignored-out')
  await claim(ignored)
  expect(existsSync(join(ignored, MARKER_FILE))).toBe(true)
  expect(repo.git('status', '--porcelain')).toBe('')
})

test('inside the repository through a link: still inside', async () => {
  const link = join(outside, 'link-to-repo')
  await symlink(repo.dir, link)
  expect(await refusal(join(link, 'results'))).toContain('is inside the repository under test')
})

test('a second claim of a locked folder is refused, naming the run that holds it; after release it is taken', async () => {
  const dir = join(outside, 'out')
  const first = await claim(dir)
  expect(await refusal(dir)).toBe(`--out ${dir}: another run (pid ${process.pid} on ${hostname()}) is writing to this folder (pass --out another folder, or wait for that run to end (if no run is going, delete ${join(dir, LOCK_FILE)}))`)
  first.release()
  await claim(dir)
})

test("a stale lock (its process is gone) is taken over; one from another host is not", async () => {
  const dir = join(outside, 'out')
  ;(await claim(dir)).release()
  const gone = spawnSync(process.execPath, ['-e', '0']).pid!
  await writeFile(join(dir, LOCK_FILE), JSON.stringify({ pid: gone, host: hostname() }))
  const claimed = await claim(dir)
  expect(JSON.parse(readFileSync(join(dir, LOCK_FILE), 'utf8')).pid).toBe(process.pid)
  claimed.release()
  await writeFile(join(dir, LOCK_FILE), JSON.stringify({ pid: gone, host: `not-${hostname()}` }))
  expect(await refusal(dir)).toContain(`another run (pid ${gone} on not-${hostname()}) is writing to this folder`)
})

test('a release never removes a lock another run took over', async () => {
  const dir = join(outside, 'out')
  const claimed = await claim(dir)
  await writeFile(join(dir, LOCK_FILE), JSON.stringify({ pid: 1, host: hostname() }))
  claimed.release()
  expect(existsSync(join(dir, LOCK_FILE))).toBe(true)
})

test('odd paths fail at once with what is wrong: /proc (where a recursive mkdir spins), a file in the way, a special file', async () => {
  // Node's recursive mkdir loops for ever here; one level at a time fails with ENOENT.
  expect(await refusal('/proc/x/y')).toBe('--out /proc/x/y: cannot create /proc/x (ENOENT) (pass --out a folder you can create and write)')
  const file = join(outside, 'a-file')
  await writeFile(file, 'x')
  expect(await refusal(file)).toBe(`--out ${file}: ${file} is in the way and is not a folder (pass --out a folder, not a file or a special path)`)
  expect(await refusal(join(file, 'out'))).toBe(`--out ${join(file, 'out')}: ${file} is in the way and is not a folder (pass --out a folder, not a file or a special path)`)
  expect(await refusal('/dev/null')).toContain('/dev/null is in the way and is not a folder')
  expect(readFileSync(file, 'utf8')).toBe('x')
})

test('a folder that cannot be made there is refused, naming --out and the reason', async () => {
  // sysfs takes no new folder from anyone, root included.
  expect(await refusal('/sys/regression-testgen-out')).toBe('--out /sys/regression-testgen-out: cannot create /sys/regression-testgen-out (EPERM) (pass --out a folder you can create and write)')
})

test('another folder the run writes (the response cache) is made a level at a time, or refused naming its flag', async () => {
  const dir = join(outside, 'cache', 'replies')
  ensureWritableFolder(dir, '--response-cache')
  expect(existsSync(dir)).toBe(true)
  expect(() => ensureWritableFolder('/proc/x/y', '--response-cache')).toThrow('--response-cache /proc/x/y: cannot create /proc/x (ENOENT)')
})
