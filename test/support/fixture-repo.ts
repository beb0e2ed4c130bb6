/**
 * Fixture projects (`__fixtures__/<name>/base` and the fix's files in `fix/`) turned into real git
 * repositories in temp folders: a buggy base commit and a fix commit, with dependencies linked from this
 * project's node_modules (as if installed).
 */
import { execFile } from 'node:child_process'
import { cp, mkdir, mkdtemp, readdir, readFile, readlink, rm, symlink, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { dirname, join, relative, sep } from 'node:path'
import { fileURLToPath } from 'node:url'
import { promisify } from 'node:util'
import { classifyFile } from '../../src/diff/classify.js'
import { undeclaredEntries } from './declared-dependencies.js'

export interface FixtureRepo {
  dir: string
  base: string
  head: string
  issuePath: string
  cleanup(): Promise<void>
}

export interface FixtureOptions {
  /** Where to build the repository (default: a new temp folder). */
  dir?: string
  /** Include the fix's own test files in the fix commit (default true). */
  withFixTest?: boolean
  /** Put the project in this folder of the repository, as one package of a monorepo (default: the root). */
  packageDir?: string
  /** More files the fix commit writes (path in the package → content), e.g. a changed configuration. */
  headChanges?: Record<string, string>
  /** Packages of this project's node_modules the fixture goes without (as if not installed: their bins too). */
  withoutPackages?: string[]
  /** Only what installing its package.json would put in node_modules, not all of this project's (the bench). */
  onlyDeclaredDependencies?: boolean
  /** Files the base commit has instead (path in the package → content), kept by the fix commit. */
  baseChanges?: Record<string, string>
}

const projectRoot = join(dirname(fileURLToPath(import.meta.url)), '..', '..')
export const fixturesDir = () => join(projectRoot, '__fixtures__')

// Commits independent of the machine's git configuration. No identity goes into the repo's own config:
// CI checkouts have none, so the tool under test must not need one.
const GIT_ENV = {
  ...process.env,
  GIT_CONFIG_NOSYSTEM: '1',
  GIT_CONFIG_GLOBAL: '/dev/null',
  GIT_AUTHOR_NAME: 'Fixture Author',
  GIT_AUTHOR_EMAIL: 'author@fixture.invalid',
  GIT_COMMITTER_NAME: 'Fixture Author',
  GIT_COMMITTER_EMAIL: 'author@fixture.invalid'
}


interface FixtureMeta {
  baseMessage: string
  fixMessage: string
  issue: string
  /** Packages the fixture brings as if installed (name → folder in the fixture), beside this project's. */
  installed?: Record<string, string>
  /** Their `bin` entries linked in node_modules/.bin too, as `npm install` does (a script can then run them by name). */
  installedBins?: boolean
}

/** This project's node_modules as the fixture's; with packages of its own (or some left out), a folder of links. */
async function linkNodeModules(packageDir: string, source: string, installed: Record<string, string>, without: string[], installedBins: boolean): Promise<void> {
  const target = join(packageDir, 'node_modules')
  if (Object.keys(installed).length === 0 && without.length === 0) return symlink(join(projectRoot, 'node_modules'), target, 'dir')
  await mkdir(target)
  for (const entry of await readdir(join(projectRoot, 'node_modules'))) {
    if ((installedBins || without.length > 0) && entry === '.bin') continue
    if (!(entry in installed) && !without.includes(entry)) await symlink(join(projectRoot, 'node_modules', entry), join(target, entry))
  }
  for (const [name, folder] of Object.entries(installed)) await symlink(join(source, folder), join(target, name), 'dir')
  if (installedBins || without.length > 0) await linkBins(target, installedBins ? installed : {}, without)
}

/** node_modules/.bin as npm makes it: this project's bins but those of the packages left out, and each installed package's, linked by name. */
async function linkBins(target: string, installed: Record<string, string>, without: string[]): Promise<void> {
  const bins = join(target, '.bin')
  await mkdir(bins)
  for (const entry of await readdir(join(projectRoot, 'node_modules', '.bin'))) {
    // npm's links are relative, `../<package>/<path>`.
    const into = (await readlink(join(projectRoot, 'node_modules', '.bin', entry))).split('/')
    const packageName = into[1]?.startsWith('@') ? `${into[1]}/${into[2]}` : into[1]
    if (!without.includes(packageName) && !without.includes(packageName.split('/')[0])) await symlink(join(projectRoot, 'node_modules', '.bin', entry), join(bins, entry))
  }
  for (const name of Object.keys(installed)) {
    const { bin } = JSON.parse(await readFile(join(target, name, 'package.json'), 'utf8')) as { bin?: string | Record<string, string> }
    const entries = typeof bin === 'string' ? { [name]: bin } : (bin ?? {})
    for (const [command, path] of Object.entries(entries)) {
      await rm(join(bins, command), { force: true })
      await symlink(join('..', name, path), join(bins, command))
    }
  }
}

export async function buildFixtureRepo(name: string, options: FixtureOptions = {}): Promise<FixtureRepo> {
  const source = join(fixturesDir(), name)
  const meta = JSON.parse(await readFile(join(source, 'fixture.json'), 'utf8')) as FixtureMeta
  const dir = options.dir ?? (await mkdtemp(join(tmpdir(), `fixture-${name}-`)))
  await mkdir(dir, { recursive: true })
  const git = async (...args: string[]) => (await promisify(execFile)('git', args, { cwd: dir, env: GIT_ENV })).stdout.trim()

  await git('-c', 'init.defaultBranch=main', 'init', '-q')
  const packageDir = join(dir, options.packageDir ?? '')
  await cp(join(source, 'base'), packageDir, { recursive: true })
  for (const [path, content] of Object.entries(options.baseChanges ?? {})) await writeFile(join(packageDir, path), content)
  await git('add', '-A')
  await git('commit', '-q', '-m', meta.baseMessage)
  const base = await git('rev-parse', 'HEAD')

  const fix = join(source, 'fix')
  const withFixTest = options.withFixTest ?? true
  const isFixTest = (path: string) => classifyFile(relative(fix, path).split(sep).join('/')) === 'test'
  await cp(fix, packageDir, { recursive: true, filter: (path) => withFixTest || !isFixTest(path) })
  for (const [path, content] of Object.entries(options.headChanges ?? {})) await writeFile(join(packageDir, path), content)
  await git('add', '-A')
  await git('commit', '-q', '-m', meta.fixMessage)
  const head = await git('rev-parse', 'HEAD')

  const undeclared = options.onlyDeclaredDependencies ? undeclaredEntries(join(packageDir, 'package.json'), join(projectRoot, 'node_modules')) : []
  await linkNodeModules(packageDir, source, meta.installed ?? {}, [...(options.withoutPackages ?? []), ...undeclared], meta.installedBins ?? false)
  return { dir, base, head, issuePath: join(source, meta.issue), cleanup: () => rm(dir, { recursive: true, force: true }) }
}

/** One more commit on the fixture's fix, writing the files (path in the repository → content); returns its hash. */
export async function commitOnFix(repo: FixtureRepo, files: Record<string, string>, message = 'A later change'): Promise<string> {
  const git = async (...args: string[]) => (await promisify(execFile)('git', args, { cwd: repo.dir, env: GIT_ENV })).stdout.trim()
  for (const [path, content] of Object.entries(files)) {
    await mkdir(dirname(join(repo.dir, path)), { recursive: true })
    await writeFile(join(repo.dir, path), content)
  }
  await git('add', '--', ...Object.keys(files))
  await git('commit', '-q', '-m', message)
  return git('rev-parse', 'HEAD')
}
