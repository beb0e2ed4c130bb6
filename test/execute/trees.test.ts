/** The two trees, on a real repository: what the pre-fix tree reverts, keeps, links and installs. */
import { execFileSync } from 'node:child_process'
import { cpSync, existsSync, lstatSync, mkdtempSync, mkdirSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { dirname, join } from 'node:path'
import { readChangeSet } from '../../src/diff/change-set.js'
import type { DependencyCache } from '../../src/execute/dependencies.js'
import { preFixSources, prepareTrees, type TreeOptions } from '../../src/execute/trees.js'
import { createGit } from '../../src/ports/git.js'
import { createSandboxProvider } from '../../src/ports/sandbox.js'
import { linesLogger } from '../support/cli-run.js'
import { machineCanSandbox } from '../support/sandbox-probe.js'

const dirs: string[] = []
const isLink = (path: string) => {
  try {
    return lstatSync(path).isSymbolicLink()
  } catch {
    return false
  }
}
afterAll(() => dirs.forEach((dir) => rmSync(dir, { recursive: true, force: true })))

function repoWithFix(fix: (write: (path: string, content: string) => void, git: (...args: string[]) => string) => void) {
  const dir = mkdtempSync(join(tmpdir(), 'rtg-trees-'))
  dirs.push(dir)
  const git = (...args: string[]) => execFileSync('git', ['-c', 'user.name=t', '-c', 'user.email=t@t', ...args], { cwd: dir, encoding: 'utf8' }).trim()
  const write = (path: string, content: string) => (mkdirSync(dirname(join(dir, path)), { recursive: true }), writeFileSync(join(dir, path), content))
  git('init', '-q', '-b', 'main')
  write('.gitignore', 'node_modules\n')
  write('package.json', JSON.stringify({ name: 'trees', version: '1.0.0' }))
  write('package-lock.json', JSON.stringify({ name: 'trees', version: '1.0.0', lockfileVersion: 3, requires: true, packages: { '': { name: 'trees', version: '1.0.0' } } }))
  write('src/changed.js', 'module.exports = 1\n')
  write('src/renamed-from.js', 'module.exports = "r"\n')
  write('src/deleted.js', 'module.exports = "d"\n')
  write('test/changed.test.js', "test('old', () => {})\n")
  git('add', '-A')
  git('commit', '-q', '-m', 'base')
  const base = git('rev-parse', 'HEAD')
  fix(write, git)
  git('add', '-A')
  git('commit', '-q', '-m', 'fix')
  mkdirSync(join(dir, 'node_modules', 'dep'), { recursive: true })
  mkdirSync(join(dir, 'node_modules', '.cache', 'babel'), { recursive: true })
  return { dir, base, head: git('rev-parse', 'HEAD'), git }
}

type Repo = { dir: string; base: string; head: string }

/** A fresh folder for a run's trees, removed after the tests. */
function workFolder(): string {
  const work = mkdtempSync(join(tmpdir(), 'rtg-trees-work-'))
  dirs.push(work)
  return work
}

/** The trees of the repository's fix in `work`, with `sandbox` (which may still be opening). */
async function prepareIn(repo: Repo, work: string, sandbox: TreeOptions['sandbox'], options: { cache?: DependencyCache | null; installCommand?: string[] | null; log?: string[] } = {}) {
  const git = createGit(repo.dir)
  const { cache = null, installCommand = null, log = [] } = options
  return prepareTrees(git, await readChangeSet(git, repo.base, repo.head), join(work, 'trees'), { sandbox, timeoutMs: 120_000, installCommand, packageDir: '', cache, log: linesLogger(log) })
}

async function trees(repo: Repo, cache: DependencyCache | null = null, installCommand: string[] | null = null, log: string[] = []) {
  const work = workFolder()
  // The real sandbox where this machine has one: the pre-fix tree's install runs in it.
  const sandbox = await createSandboxProvider().open(work, [repo.dir])
  return { ...(await prepareIn(repo, work, sandbox, { cache, installCommand, log })), sandbox }
}

/** A dependency cache in a folder: entries are copies of the saved node_modules. */
function folderCache() {
  const root = mkdtempSync(join(tmpdir(), 'rtg-dep-cache-'))
  dirs.push(root)
  const keys: string[] = []
  const cache: DependencyCache = {
    restore: async (dir, key) => existsSync(join(root, key)) && (cpSync(join(root, key), dir, { recursive: true }), true),
    save: async (dir, key) => (keys.push(key), cpSync(dir, join(root, key), { recursive: true }))
  }
  return { cache, keys, root }
}

test('the pre-fix tree takes the fix out of every kind of source change and keeps the tests at head', async () => {
  const repo = repoWithFix((write, git) => {
    write('src/changed.js', 'module.exports = 2\n')
    write('src/added.js', 'module.exports = "a"\n')
    git('mv', 'src/renamed-from.js', 'src/renamed-to.js')
    git('rm', '-q', 'src/deleted.js')
    write('test/changed.test.js', "test('new', () => {})\n")
  })
  const { head, preFix, reverted, preFixDependencies, dispose } = await trees(repo)
  const read = (tree: string, path: string) => readFileSync(join(tree, path), 'utf8')

  expect(reverted.sort()).toEqual(['src/added.js', 'src/changed.js', 'src/deleted.js', 'src/renamed-to.js'])
  expect(read(head, 'src/changed.js')).toBe('module.exports = 2\n')
  expect(read(preFix, 'src/changed.js')).toBe('module.exports = 1\n')
  expect(existsSync(join(preFix, 'src/added.js'))).toBe(false)
  expect(existsSync(join(preFix, 'src/renamed-to.js'))).toBe(false)
  expect(read(preFix, 'src/renamed-from.js')).toBe('module.exports = "r"\n')
  expect(read(preFix, 'src/deleted.js')).toBe('module.exports = "d"\n')
  expect(read(preFix, 'test/changed.test.js')).toBe("test('new', () => {})\n")

  // Both trees use the repository's installed dependencies through links, not a copy or an install, in a
  // node_modules of their own: what tools write there (caches) stays in the tree.
  expect(preFixDependencies).toBe('reused')
  for (const tree of [head, preFix]) {
    expect(isLink(join(tree, 'node_modules'))).toBe(false)
    // Shared with the run's group (the sandbox's own), links and all, like the rest of the tree; closed to others.
    if (machineCanSandbox()) expect(statSync(join(tree, 'node_modules')).mode & 0o777).toBe(0o770)
    if (machineCanSandbox()) expect(statSync(join(tree, 'node_modules')).gid).toBe(statSync(join(tree, '..', '..')).gid)
    expect(isLink(join(tree, 'node_modules', 'dep'))).toBe(true)
    expect(existsSync(join(tree, 'node_modules', '.cache'))).toBe(false)
  }

  // The same revert, said without a tree (the model's read_file at: pre-fix): each path differing from head.
  const git = createGit(repo.dir)
  const sources = preFixSources(await readChangeSet(git, repo.base, repo.head))
  expect([...sources.keys()].sort()).toEqual(['src/added.js', 'src/changed.js', 'src/deleted.js', 'src/renamed-from.js', 'src/renamed-to.js'])
  for (const [path, source] of sources) {
    const inTree = existsSync(join(preFix, path)) ? read(preFix, path) : null
    expect(source === null ? null : await git.fileAt(source.commit, source.path)).toBe(inTree)
  }
  expect(sources.get('src/added.js')).toBeNull()
  expect(sources.get('src/renamed-to.js')).toBeNull()

  await dispose()
  expect(existsSync(head) || existsSync(preFix)).toBe(false)
  expect(repo.git('worktree', 'list').split('\n')).toHaveLength(1)
  expect(repo.git('status', '--porcelain')).toBe('')
})

// What vite and babel write at the top of node_modules, in the folder the test runs in.
const TOOL_WRITES = `
const fs = require('fs')
fs.mkdirSync('node_modules/.vite-temp')
fs.writeFileSync('node_modules/.vite-temp/vite.config.ts.timestamp.mjs', process.cwd())
fs.mkdirSync('node_modules/.cache/babel', { recursive: true })
fs.writeFileSync('node_modules/.cache/babel/entry.json', process.cwd())
`

test('what a tool writes at the top of node_modules stays in each tree: the checkout\'s node_modules is not written', async () => {
  const repo = repoWithFix((write) => write('src/changed.js', 'module.exports = 2\n'))
  const { head, preFix, addVariant, sandbox, dispose } = await trees(repo)
  const variant = await addVariant('hunk-1', async () => undefined)
  for (const tree of [head, preFix, variant]) {
    const run = await sandbox.processes.run({ command: process.execPath, args: ['-e', TOOL_WRITES], cwd: tree, timeoutMs: 60_000 })
    expect(run.output).toBe('')
    expect(run.exitCode).toBe(0)
    expect(readFileSync(join(tree, 'node_modules', '.vite-temp', 'vite.config.ts.timestamp.mjs'), 'utf8')).toBe(tree)
    expect(readFileSync(join(tree, 'node_modules', '.cache', 'babel', 'entry.json'), 'utf8')).toBe(tree)
  }
  expect(existsSync(join(repo.dir, 'node_modules', '.vite-temp'))).toBe(false)
  expect(readdirSync(join(repo.dir, 'node_modules', '.cache', 'babel'))).toEqual([])
  // The links were made once beside the trees, and each tree's are new names for them (hard links): one
  // file per installed entry for the whole run, not one per tree. Nothing else is left beside the trees.
  const [made, ...others] = readdirSync(dirname(head)).filter((entry) => !['head', 'hunk-1', 'pre-fix'].includes(entry))
  expect(others).toEqual([])
  expect(made).toMatch(/^\.dependencies-/)
  const link = lstatSync(join(preFix, 'node_modules', 'dep'))
  expect(link.isSymbolicLink() && link.nlink).toBe(4)
  for (const tree of [head, variant]) expect(lstatSync(join(tree, 'node_modules', 'dep')).ino).toBe(link.ino)
  await dispose()
})

// A change an install reads (the engines it checks), that needs nothing from the registry.
const withEngines = JSON.stringify({ name: 'trees', version: '1.0.1', engines: { node: '>=18' } })

test('a fix that changes manifests gets them reverted and a fresh install in the pre-fix tree', async () => {
  const repo = repoWithFix((write) => {
    write('src/changed.js', 'module.exports = 2\n')
    write('package.json', withEngines)
    write('package-lock.json', JSON.stringify({ name: 'trees', version: '1.0.1', lockfileVersion: 3, requires: true, packages: { '': { name: 'trees', version: '1.0.1' } } }))
  })
  const log: string[] = []
  const { preFix, reverted, preFixDependencies, dispose } = await trees(repo, null, null, log)
  expect(reverted.sort()).toEqual(['package-lock.json', 'package.json', 'src/changed.js'])
  expect(JSON.parse(readFileSync(join(preFix, 'package.json'), 'utf8')).version).toBe('1.0.0')
  expect(preFixDependencies).toBe('installed')
  // The install says when it starts: it can take minutes.
  expect(log).toEqual(['Installing dependencies in the pre-fix tree: npm ci…'])
  expect(existsSync(join(preFix, 'node_modules', 'dep'))).toBe(false)
  await dispose()
})

test('manifests changed in nothing an install reads (a release bump) are reverted, the dependencies reused', async () => {
  const repo = repoWithFix((write) => {
    write('src/changed.js', 'module.exports = 2\n')
    write('package.json', JSON.stringify({ name: 'trees', version: '1.0.1' }))
    write('package-lock.json', JSON.stringify({ name: 'trees', version: '1.0.1', lockfileVersion: 3, requires: true, packages: { '': { name: 'trees', version: '1.0.1' } } }))
  })
  const { preFix, reverted, preFixDependencies, dispose } = await trees(repo)
  expect(reverted.sort()).toEqual(['package-lock.json', 'package.json', 'src/changed.js'])
  expect(preFixDependencies).toBe('reused')
  expect(existsSync(join(preFix, 'node_modules', 'dep'))).toBe(true)
  await dispose()
})

test('a pre-fix install that fails falls back to the head\'s dependencies, saying why', async () => {
  const repo = repoWithFix((write) => {
    write('src/changed.js', 'module.exports = 2\n')
    write('package.json', withEngines)
  })
  const install = ['node', '-e', "console.error('npm error lockfile too old for this npm'); process.exit(3)"]
  const { preFix, preFixDependencies, preFixInstallError, dispose } = await trees(repo, null, install)
  expect(preFixDependencies).toBe('reused-after-failed-install')
  expect(preFixInstallError).toContain('npm error lockfile too old for this npm')
  expect(existsSync(join(preFix, 'node_modules', 'dep'))).toBe(true)
  await dispose()
})

test('with a dependency cache, the pre-fix install is saved once and restored on the next run', async () => {
  const repo = repoWithFix((write) => {
    write('src/changed.js', 'module.exports = 2\n')
    write('package.json', withEngines)
  })
  const { cache, keys, root } = folderCache()
  const install = ['node', '-e', "require('fs').mkdirSync('node_modules/dep', { recursive: true })"]
  const first = await trees(repo, cache, install)
  expect(first.preFixDependencies).toBe('installed')
  expect(keys).toEqual([expect.stringMatching(/^regression-testgen-pre-fix-deps-v1-\w+-\w+-node\d+-[0-9a-f]{32}$/)])
  await first.dispose()

  writeFileSync(join(root, keys[0], 'from-the-cache'), '')
  const second = await trees(repo, cache, install)
  expect(second.preFixDependencies).toBe('cached')
  expect(existsSync(join(second.preFix, 'node_modules', 'from-the-cache'))).toBe(true)
  expect(keys).toHaveLength(1)
  await second.dispose()
})

test('a repository whose dependencies are not installed is a clear error, and nothing is left behind', async () => {
  const repo = repoWithFix((write) => write('src/changed.js', 'module.exports = 2\n'))
  rmSync(join(repo.dir, 'node_modules'), { recursive: true })
  await expect(trees(repo)).rejects.toThrow(`Dependencies are not installed in ${repo.dir}`)
  expect(repo.git('worktree', 'list').split('\n')).toHaveLength(1)
})

test('git checks the trees out while the sandbox opens; they are shared with it once it has', async () => {
  const repo = repoWithFix((write) => write('src/changed.js', 'module.exports = 2\n'))
  const work = workFolder()
  const sandbox = await createSandboxProvider().open(work, [repo.dir])
  let open: () => void = () => undefined
  const opening = new Promise<typeof sandbox>((resolve) => (open = () => resolve(sandbox)))
  const shared: string[] = []
  const watched = opening.then((opened) => ({ ...opened, share: async (dir: string) => (shared.push(dir), opened.share(dir)) }))
  const preparing = prepareIn(repo, work, watched)
  // Both trees checked out (git's worktree entries), none shared yet: the sandbox has not opened.
  while (repo.git('worktree', 'list').split('\n').length < 3) await new Promise((resolve) => setTimeout(resolve, 10))
  expect(shared).toEqual([])
  open()
  const prepared = await preparing
  expect(shared.sort()).toEqual([prepared.head, prepared.preFix].sort())
  expect(readFileSync(join(prepared.preFix, 'src/changed.js'), 'utf8')).toBe('module.exports = 1\n')
  await prepared.dispose()
  expect(repo.git('worktree', 'list').split('\n')).toHaveLength(1)
})

test('a sandbox that does not open fails the trees, and they leave nothing behind', async () => {
  const repo = repoWithFix((write) => write('src/changed.js', 'module.exports = 2\n'))
  const work = workFolder()
  const failing = new Promise<never>((_, reject) => setTimeout(() => reject(new Error('the sandbox could not start')), 50))
  const preparing = prepareIn(repo, work, failing)
  await expect(preparing).rejects.toThrow('the sandbox could not start')
  expect(existsSync(join(work, 'trees'))).toBe(false)
  expect(repo.git('worktree', 'list').split('\n')).toHaveLength(1)
})
