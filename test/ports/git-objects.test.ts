/**
 * Files and sizes at a commit read through one long-lived `git cat-file` per run: the same answers as git
 * itself gives for every kind of path, in order under many questions at once, one git process for all of
 * them, a process that ends idle, and a batch killed mid-run replaced.
 */
import { execFileSync } from 'node:child_process'
import { readdirSync, readFileSync } from 'node:fs'
import { createGit } from '../../src/ports/git.js'
import { scratchRepo } from '../support/scratch-repo.js'

const repo = scratchRepo('rtg-git-objects-')

const FILES: Record<string, string> = {
  'src/a.js': 'module.exports = 1\n',
  'src/no-final-newline.js': 'export const b = 2',
  'src/empty.js': '',
  // An answer's header, inside a file: only the sizes say where an answer ends.
  'src/looks-like-a-header.txt': `${'0'.repeat(40)} blob 3\nabc\n\n\nmissing\n`,
  'docs/with space.md': '# spaced\n',
  'docs/ünïcode.md': 'é\n'
}

/** The batch processes this process started, by their command lines. */
function batchProcesses(): number[] {
  return readdirSync('/proc')
    .filter((entry) => /^\d+$/.test(entry))
    .filter((pid) => {
      try {
        const stat = readFileSync(`/proc/${pid}/stat`, 'utf8')
        const parent = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1])
        return parent === process.pid && readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0').includes('cat-file')
      } catch {
        return false
      }
    })
    .map(Number)
}

test('every kind of path reads as git itself shows it; a missing path, a folder and a submodule are none', async () => {
  repo.git('init', '-q')
  const head = await repo.commit(FILES)
  repo.git('update-index', '--add', '--cacheinfo', `160000,${head},vendor/sub`)
  repo.git('-c', 'user.name=t', '-c', 'user.email=t@t', 'commit', '-qm', 'submodule')
  const withSubmodule = repo.git('rev-parse', 'HEAD')
  const git = createGit(repo.dir)
  for (const [path, content] of Object.entries(FILES)) {
    expect(await git.fileAt(head, path)).toBe(content)
    expect(await git.blobSize(head, path)).toBe(Buffer.byteLength(content))
  }
  for (const path of ['src/missing.js', 'src', 'src/']) {
    expect(await git.fileAt(head, path)).toBeNull()
    expect(await git.blobSize(head, path)).toBeNull()
  }
  expect(await git.fileAt(withSubmodule, 'vendor/sub')).toBeNull()
  expect(await git.fileAt('0'.repeat(40), 'src/a.js')).toBeNull()
})

test('a path git cannot take on one line is read by git itself', async () => {
  repo.git('init', '-q')
  const head = await repo.commit({ 'line\nbreak.txt': 'two lines in the name\n' })
  const git = createGit(repo.dir)
  expect(await git.fileAt(head, 'line\nbreak.txt')).toBe('two lines in the name\n')
  expect(await git.blobSize(head, 'line\nbreak.txt')).toBe(22)
})

test('many questions at once each get their own answer, from one git process', async () => {
  repo.git('init', '-q')
  const files = Object.fromEntries(Array.from({ length: 60 }, (_, index) => [`f/${index}.txt`, `${index}\n`.repeat(index * 50)]))
  const head = await repo.commit(files)
  const git = createGit(repo.dir)
  const before = batchProcesses()
  const started = () => batchProcesses().filter((pid) => !before.includes(pid))
  const read = await Promise.all(Object.keys(files).map((path) => git.fileAt(head, path)))
  expect(read).toEqual(Object.values(files))
  expect(started()).toHaveLength(1)
  // A large file arrives in many pieces.
  const large = 'x'.repeat(3 * 1024 * 1024)
  const next = await repo.commit({ 'large.txt': large })
  expect(await git.fileAt(next, 'large.txt')).toBe(large)
  expect(started()).toHaveLength(1)
})

test('a batch killed between questions is started again', async () => {
  repo.git('init', '-q')
  const head = await repo.commit(FILES)
  const git = createGit(repo.dir)
  const before = batchProcesses()
  expect(await git.fileAt(head, 'src/a.js')).toBe(FILES['src/a.js'])
  const [first] = batchProcesses().filter((pid) => !before.includes(pid))
  process.kill(first, 'SIGKILL')
  while (batchProcesses().includes(first)) await new Promise((resolve) => setTimeout(resolve, 10))
  expect(await git.fileAt(head, 'docs/with space.md')).toBe(FILES['docs/with space.md'])
  expect(batchProcesses()).not.toContain(first)
})

test('an idle batch ends by itself, and keeps no process from ending', async () => {
  repo.git('init', '-q')
  const head = await repo.commit(FILES)
  const git = createGit(repo.dir)
  const before = batchProcesses()
  expect(await git.blobSize(head, 'src/a.js')).toBe(19)
  const [batch] = batchProcesses().filter((pid) => !before.includes(pid))
  expect(batch).toBeDefined()
  while (batchProcesses().includes(batch)) await new Promise((resolve) => setTimeout(resolve, 50))
  // And the next question starts one again.
  expect(await git.blobSize(head, 'src/a.js')).toBe(19)
})

test('a process whose batch is idle still ends', async () => {
  repo.git('init', '-q')
  const head = await repo.commit(FILES)
  const script = `import { createGit } from ${JSON.stringify(new URL('../../src/ports/git.ts', import.meta.url).pathname)}\nconsole.log(await createGit(${JSON.stringify(repo.dir)}).fileAt(${JSON.stringify(head)}, 'src/a.js'))`
  // It would hang (and time out) if the batch's pipes held the event loop.
  const printed = execFileSync('npx', ['tsx', '--input-type=module', '-e', script], { encoding: 'utf8', timeout: 60_000 })
  expect(printed).toBe(FILES['src/a.js'] + '\n')
})
