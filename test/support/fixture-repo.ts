/**
 * Fixture projects (`__fixtures__/<name>/base` and the fix's files in `fix/`) turned into real git
 * repositories in temp folders: a buggy base commit and a fix commit, with dependencies linked from this
 * project's node_modules (as if installed).
 */
import { execFile } from 'node:child_process'
import { cp, mkdir, mkdtemp, readFile, rm, symlink, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { dirname, join, relative, sep } from 'node:path'
import { fileURLToPath } from 'node:url'
import { promisify } from 'node:util'
import { classifyFile } from '../../src/diff/classify.js'

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


export async function buildFixtureRepo(name: string, options: FixtureOptions = {}): Promise<FixtureRepo> {
  const source = join(fixturesDir(), name)
  const meta = JSON.parse(await readFile(join(source, 'fixture.json'), 'utf8')) as { baseMessage: string; fixMessage: string; issue: string }
  const dir = options.dir ?? (await mkdtemp(join(tmpdir(), `fixture-${name}-`)))
  await mkdir(dir, { recursive: true })
  const git = async (...args: string[]) => (await promisify(execFile)('git', args, { cwd: dir, env: GIT_ENV })).stdout.trim()

  await git('-c', 'init.defaultBranch=main', 'init', '-q')
  const packageDir = join(dir, options.packageDir ?? '')
  await cp(join(source, 'base'), packageDir, { recursive: true })
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

  await symlink(join(projectRoot, 'node_modules'), join(packageDir, 'node_modules'), 'dir')
  return { dir, base, head, issuePath: join(source, meta.issue), cleanup: () => rm(dir, { recursive: true, force: true }) }
}
