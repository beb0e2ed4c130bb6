/** Wrapper CLIs found in the test script: which command runs the runner, with which arguments. */
import { mkdir, mkdtemp, rm, symlink, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { findRunnerWrapper, wrapperBin } from '../../src/frameworks/wrapper.js'

let dir: string

beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'rtg-wrapper-'))
})
afterEach(() => rm(dir, { recursive: true, force: true }))

async function writePackage(folder: string, manifest: Record<string, unknown>): Promise<void> {
  await mkdir(folder, { recursive: true })
  await writeFile(join(folder, 'package.json'), JSON.stringify(manifest))
}

/** A repository declaring `scriptsPackage`, installed with `jest` (and `tsdx`-like bins). */
async function repo(scripts: Record<string, string>, options: { wrapperDeps?: Record<string, string>; jestInstalled?: boolean } = {}): Promise<string> {
  await writePackage(dir, { name: 'app', scripts, devDependencies: { 'tiny-scripts': '1.0.0' } })
  await writePackage(join(dir, 'node_modules', 'tiny-scripts'), { name: 'tiny-scripts', bin: { 'tiny-scripts': 'cli.js' }, dependencies: options.wrapperDeps ?? { jest: '^29' } })
  if (options.jestInstalled ?? true) await writePackage(join(dir, 'node_modules', 'jest'), { name: 'jest', bin: './bin/jest.js' })
  return dir
}

test('the test script calling a package bin that depends on jest: jest through it, its words kept', async () => {
  const wrapper = findRunnerWrapper(await repo({ test: 'NODE_ENV=test tiny-scripts test --env=jsdom --watchAll' }), 'jest')
  expect(wrapper).toEqual({ packageName: 'tiny-scripts', binName: 'tiny-scripts', args: ['test', '--env=jsdom'], env: { NODE_ENV: 'test' } })
  expect(wrapperBin(dir, wrapper!)).toBe(join(dir, 'node_modules', 'tiny-scripts', 'cli.js'))
})

test('followed through npm run, past a lint step of the same wrapper', async () => {
  const wrapper = findRunnerWrapper(await repo({ test: 'npm run lint && npm run test:unit', lint: 'tiny-scripts lint', 'test:unit': 'cross-env CI=1 tiny-scripts test' }), 'jest')
  expect(wrapper).toMatchObject({ args: ['test'] })
})

test('no wrapper: the runner itself, a wrapper of another runner, a runner not installed, a non-test subcommand', async () => {
  expect(findRunnerWrapper(await repo({ test: 'jest --ci' }), 'jest')).toBeNull()
  await rm(dir, { recursive: true })
  expect(findRunnerWrapper(await repo({ test: 'tiny-scripts test' }, { wrapperDeps: { mocha: '^10' } }), 'jest')).toBeNull()
  await rm(dir, { recursive: true })
  expect(findRunnerWrapper(await repo({ test: 'tiny-scripts test' }, { jestInstalled: false }), 'jest')).toBeNull()
  await rm(dir, { recursive: true })
  expect(findRunnerWrapper(await repo({ test: 'tiny-scripts build' }), 'jest')).toBeNull()
})

test('a pnpm layout: the runner is found beside the wrapper in its real folder, not at the top', async () => {
  await writePackage(dir, { name: 'app', scripts: { test: 'tiny-scripts test' }, devDependencies: { 'tiny-scripts': '1.0.0' } })
  const store = join(dir, 'node_modules', '.pnpm', 'tiny-scripts@1.0.0', 'node_modules')
  await writePackage(join(store, 'tiny-scripts'), { name: 'tiny-scripts', bin: 'cli.js', dependencies: { jest: '^29' } })
  await writePackage(join(store, 'jest'), { name: 'jest' })
  await symlink(join(store, 'tiny-scripts'), join(dir, 'node_modules', 'tiny-scripts'), 'dir')
  expect(findRunnerWrapper(dir, 'jest')).toEqual({ packageName: 'tiny-scripts', binName: 'tiny-scripts', args: ['test'], env: {} })
})

test('a wrapper that depends on no runner (the project brings it): the installed runner; one that depends on another: never', async () => {
  const app = await repo({ test: 'tiny-scripts test' }, { wrapperDeps: { typescript: '^5' } })
  expect(findRunnerWrapper(app, 'jest')).toMatchObject({ packageName: 'tiny-scripts' })
  expect(findRunnerWrapper(app, 'vitest')).toBeNull()
  await rm(dir, { recursive: true })
  await repo({ test: 'tiny-scripts test' }, { wrapperDeps: { mocha: '^10' } })
  expect(findRunnerWrapper(dir, 'jest')).toBeNull()
})

test("a monorepo package calling its workspace root's wrapper: found through the installed .bin link", async () => {
  await writePackage(dir, { name: 'root', private: true, devDependencies: { 'tiny-scripts': '1.0.0' } })
  await writePackage(join(dir, 'node_modules', 'tiny-scripts'), { name: 'tiny-scripts', bin: { 'tiny-scripts': 'dist/cli.js' }, dependencies: { jest: '^29' } })
  await writePackage(join(dir, 'node_modules', 'jest'), { name: 'jest' })
  await mkdir(join(dir, 'node_modules', 'tiny-scripts', 'dist'))
  await writeFile(join(dir, 'node_modules', 'tiny-scripts', 'dist', 'cli.js'), '')
  await mkdir(join(dir, 'node_modules', '.bin'))
  await symlink('../tiny-scripts/dist/cli.js', join(dir, 'node_modules', '.bin', 'tiny-scripts'))
  const packageDir = join(dir, 'packages', 'title')
  await writePackage(packageDir, { name: 'title', scripts: { test: 'tiny-scripts test' } })
  expect(findRunnerWrapper(packageDir, 'jest')).toEqual({ packageName: 'tiny-scripts', binName: 'tiny-scripts', args: ['test'], env: {} })
  expect(wrapperBin(packageDir, findRunnerWrapper(packageDir, 'jest')!)).toBe(join(dir, 'node_modules', 'tiny-scripts', 'dist', 'cli.js'))
})
