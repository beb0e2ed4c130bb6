/**
 * Compiled tests: real repositories in temp folders built like the real shapes (`rm -rf dist && tsc &&
 * mocha` with a `.mocharc.js` spec on dist, `pretest: npm run build` then `node --test dist/…/*.js`, a
 * babel-like `src` → `lib` copy with no tsconfig, a nested `tsconfig.build.json` with `extends`), captured
 * with the real capture (so the build really ran, with this repository's `typescript`), then read by
 * `compiledLayout`. Where it says where a new test goes, the test is written there, the build rerun, and the
 * compiled file run by the captured runner.
 */
import { execFileSync, spawnSync } from 'node:child_process'
import { existsSync, realpathSync } from 'node:fs'
import { mkdir, mkdtemp, rm, symlink, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { dirname, join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { captureLaunch } from '../../src/launch/capture.js'
import { compiledLayout, type CompiledLayout } from '../../src/launch/compiled-tests.js'
import type { Launch } from '../../src/launch/launch.js'
import { createGit } from '../../src/ports/git.js'
import { createProcessRunner } from '../../src/ports/process.js'

const projectRoot = join(dirname(fileURLToPath(import.meta.url)), '..', '..')
const tscBin = join(projectRoot, 'node_modules/typescript/bin/tsc')
const processes = createProcessRunner()

let tree = ''
let scratch = ''
/** How long each compiledLayout call took (ms), per test: printed at the end, for the notes. */
const durations: Record<string, number[]> = {}
afterAll(() => process.stdout.write(`compiledLayout durations (ms): ${JSON.stringify(durations)}\n`))

beforeEach(async () => {
  tree = realpathSync(await mkdtemp(join(tmpdir(), 'compiled-tree-')))
  scratch = await mkdtemp(join(tmpdir(), 'compiled-scratch-'))
  await symlink(join(projectRoot, 'node_modules'), join(tree, 'node_modules'), 'dir')
  git('init', '-q')
})
afterEach(async () => {
  await rm(tree, { recursive: true, force: true })
  await rm(scratch, { recursive: true, force: true })
})

const git = (...args: string[]) => execFileSync('git', args, { cwd: tree, encoding: 'utf8' }).trim()

/** Writes and commits the repository's files (node_modules and the build output ignored, as real ones do). */
async function repository(files: Record<string, string>): Promise<void> {
  for (const [path, content] of Object.entries(files)) {
    await mkdir(dirname(join(tree, path)), { recursive: true })
    await writeFile(join(tree, path), content)
  }
  git('add', '-A')
  git('-c', 'user.name=t', '-c', 'user.email=t@t', 'commit', '-qm', 'fixture')
}

const packageJson = (scripts: Record<string, string>, extra: object = {}) => JSON.stringify({ name: 'fixture', version: '1.0.0', private: true, scripts, ...extra }, null, 2)

/** The repository's own `npm test`, captured: whatever it builds before its runner is built for real. */
async function capture(folder = ''): Promise<Launch> {
  const result = await captureLaunch(join(tree, folder), 'npm test', processes, { scratchDir: scratch, timeoutMs: 120_000 })
  if (!result.launch) throw new Error(`nothing captured; output:\n${result.outputTail}`)
  return result.launch
}

async function layoutFor(launch: Launch, collected?: string[]): Promise<CompiledLayout | null> {
  const trackedFiles = git('ls-files').split('\n').filter(Boolean)
  const start = performance.now()
  const layout = await compiledLayout(tree, launch, { trackedFiles, ignored: createGit(tree).isIgnored, collected })
  const name = expect.getState().currentTestName ?? ''
  ;(durations[name] ??= []).push(Math.round(performance.now() - start))
  return layout
}

function expectLayout(layout: CompiledLayout | null): CompiledLayout {
  if (!layout) throw new Error('no compiled layout')
  return layout
}

/** The build, rerun as the pipeline reruns it after writing the suite. */
function rebuild(folder: string, ...args: string[]): void {
  execFileSync(process.execPath, [tscBin, ...args], { cwd: join(tree, folder), encoding: 'utf8' })
}

/** The captured runner on the given files (its own selection replaced), in its cwd and environment. */
function runCaptured(launch: Launch, args: string[]): { status: number | null; output: string } {
  const env: NodeJS.ProcessEnv = { ...process.env, ...launch.env }
  delete env.NODE_OPTIONS
  const run = spawnSync(launch.executable, [...launch.execArgv, ...(launch.main ? [launch.main] : []), ...args], { cwd: launch.cwd, env, encoding: 'utf8', timeout: 60_000 })
  return { status: run.status, output: `${run.stdout}${run.stderr}` }
}

/** Each builds with tsc (often twice) on a machine that may be shared: more than the default timeout. */
const BUILDS = 240_000

const declareIt = 'declare const it: (name: string, fn: () => void) => void\n'

test('mocha on tsc output (`rm -rf dist && tsc && mocha`, .mocharc.js spec dist/**/*.test.js): rootDir src → outDir dist', async () => {
  await repository({
    '.gitignore': 'node_modules\ndist/\n',
    'package.json': packageJson({ test: 'rm -rf dist && tsc && mocha' }),
    // Comments and a trailing comma, as tsconfig files are written.
    'tsconfig.json': `{
  // the library build
  "compilerOptions": { "target": "ES2020", "module": "commonjs", "strict": true, "types": ["node"], "skipLibCheck": true, "rootDir": "src", "outDir": "dist", /* emitted here */ },
  "include": ["src"],
}
`,
    '.mocharc.js': "'use strict'\nmodule.exports = {\n  spec: 'dist/**/*.test.js',\n  timeout: 5000\n}\n",
    'src/index.ts': 'export function add(a: number, b: number): number {\n  return a + b\n}\n',
    'src/test/add.test.ts': `${declareIt}import { strictEqual } from 'node:assert'\nimport { add } from '../index'\nit('adds', () => strictEqual(add(1, 2), 3))\n`,
    'src/test/helpers.ts': 'export const two = 2\n'
  })
  const launch = await capture()
  expect(launch.runner).toBe('mocha')
  expect(existsSync(join(tree, 'dist/test/add.test.js'))).toBe(true)

  const layout = expectLayout(await layoutFor(launch))
  expect(layout.outputDir).toBe('dist')
  expect(layout.how).toContain('mocha dist/**/*.test.js (.mocharc.js)')
  expect(layout.how).toContain('tsconfig.json rootDir src → outDir dist')
  // index.js and test/add.test.js are there; helpers.js too: every tracked source the rule maps onto a compiled file.
  expect(layout.how).toContain('3 existing pairs agree')
  expect(layout.compiledPath('src/test/add.test.ts')).toBe('dist/test/add.test.js')
  expect(layout.compiledPath('src/test/x.test.mts')).toBe('dist/test/x.test.mjs')
  expect(layout.compiledPath('src/test/x.test.cts')).toBe('dist/test/x.test.cjs')
  expect(layout.compiledPath('src/test/x.test.tsx')).toBe('dist/test/x.test.js')
  // Outside the tsconfig's include (and rootDir): tsc would not compile it into dist.
  expect(layout.compiledPath('test/add.test.ts')).toBeNull()
  expect(layout.compiledPath('src/types.d.ts')).toBeNull()
  expect(layout.sourcePath('dist/test/add.test.js')).toBe('src/test/add.test.ts')
  expect(layout.sourcePath('dist/test/new.test.js')).toBe('src/test/new.test.ts')
  expect(layout.collects('dist/test/add.test.js')).toBe(true)
  expect(layout.collects('dist/test/helpers.js')).toBe(false)
  expect(layout.sourceTestFolders).toEqual(['src/test'])

  // A new source test goes beside the existing ones, compiles into dist, and the captured mocha runs it.
  const source = layout.sourceTestPath('add.regression.test.ts', 'src/index.ts')
  expect(source).toBe('src/test/add.regression.test.ts')
  await writeFile(join(tree, source!), `${declareIt}import { strictEqual } from 'node:assert'\nimport { add } from '../index'\nit('adds negatives (regression)', () => strictEqual(add(-1, -2), -3))\n`)
  rebuild('')
  const compiled = layout.compiledPath(source!)!
  expect(existsSync(join(tree, compiled))).toBe(true)
  const run = runCaptured(launch, ['--no-config', compiled])
  expect(run.output).toContain('adds negatives (regression)')
  expect(run.output).toContain('1 passing')
  expect(run.status).toBe(0)
  // A name the runner's spec would not collect gets no place.
  expect(layout.sourceTestPath('add.regression.ts')).toBeNull()
}, BUILDS)

test('`pretest: npm run build` then `node --test dist/test/*.test.js`, tests under test/ with rootDir .', async () => {
  await repository({
    '.gitignore': 'node_modules\ndist/\n',
    'package.json': packageJson({ build: 'tsc', pretest: 'npm run build', test: 'node --test dist/test/*.test.js' }, { type: 'module' }),
    'tsconfig.json': JSON.stringify({
      compilerOptions: { target: 'ES2022', module: 'NodeNext', moduleResolution: 'NodeNext', strict: true, types: ['node'], skipLibCheck: true, rootDir: '.', outDir: 'dist' },
      include: ['src', 'test']
    }),
    'src/math.ts': 'export const double = (n: number): number => n * 2\n',
    'test/math.test.ts': "import { test } from 'node:test'\nimport { strictEqual } from 'node:assert'\nimport { double } from '../src/math.js'\ntest('doubles', () => strictEqual(double(2), 4))\n",
    'test/fixtures.ts': 'export const four = 4\n'
  })
  const launch = await capture()
  expect(launch.runner).toBe('node-test')
  // The shell expanded the glob: node saw the built files themselves.
  expect(launch.argv).toEqual(['dist/test/math.test.js'])

  const layout = expectLayout(await layoutFor(launch))
  expect(layout.outputDir).toBe('dist/test')
  expect(layout.how).toContain('tsconfig.json rootDir . → outDir dist')
  expect(layout.compiledPath('test/math.test.ts')).toBe('dist/test/math.test.js')
  // Compiled, but not into the folder the runner collects from.
  expect(layout.compiledPath('src/math.ts')).toBeNull()
  expect(layout.sourcePath('dist/test/math.test.js')).toBe('test/math.test.ts')
  expect(layout.collects('dist/test/fixtures.js')).toBe(false)
  expect(layout.sourceTestFolders).toEqual(['test'])

  const source = layout.sourceTestPath('math.regression.test.ts', 'src/math.ts')
  expect(source).toBe('test/math.regression.test.ts')
  await writeFile(join(tree, source!), "import { test } from 'node:test'\nimport { strictEqual } from 'node:assert'\nimport { double } from '../src/math.js'\ntest('doubles zero (regression)', () => strictEqual(double(0), 0))\n")
  rebuild('')
  const compiled = layout.compiledPath(source!)!
  expect(compiled).toBe('dist/test/math.regression.test.js')
  const run = runCaptured(launch, [compiled])
  expect(run.output).toContain('doubles zero (regression)')
  expect(run.output).toMatch(/# pass 1/)
  expect(run.status).toBe(0)
}, BUILDS)

// Where Node strips types by default (22.18+), its defaults collect the .ts sources too: no compiled layout then.
const unlessNodeStripsTypes = process.features.typescript ? test.skip : test
unlessNodeStripsTypes('`npm run build && node --test` with no patterns: node\'s defaults find the build\'s lib/test/*_test.js, not the .ts sources', async () => {
  // tinyexec's shape: tsc with outDir lib (rootDir from include src), tests named main_test.ts.
  await repository({
    '.gitignore': 'node_modules\nlib/\n',
    'package.json': packageJson({ build: 'tsc', test: 'npm run build && node --test' }, { type: 'module' }),
    'tsconfig.json': JSON.stringify({ compilerOptions: { target: 'ES2022', module: 'NodeNext', moduleResolution: 'NodeNext', strict: true, types: ['node'], skipLibCheck: true, outDir: './lib' }, include: ['src/**/*.ts'] }),
    'src/main.ts': 'export const exitCode = (code: number | null): number => code ?? 0\n',
    'src/test/main_test.ts': "import { test } from 'node:test'\nimport { strictEqual } from 'node:assert'\nimport { exitCode } from '../main.js'\ntest('keeps the code', () => strictEqual(exitCode(3), 3))\n"
  })
  const launch = await capture()
  expect(launch).toMatchObject({ runner: 'node-test', argv: [] })

  const layout = expectLayout(await layoutFor(launch))
  expect(layout.outputDir).toBe('lib/test')
  expect(layout.how).toContain('node --test (its default patterns, 1 file(s) found)')
  expect(layout.compiledPath('src/test/main_test.ts')).toBe('lib/test/main_test.js')
  expect(layout.sourcePath('lib/test/main_test.js')).toBe('src/test/main_test.ts')
  expect(layout.collects('lib/test/helpers.js')).toBe(true)
  expect(layout.collects('lib/main.js')).toBe(false)

  const source = layout.sourceTestPath('exit-code_test.ts', 'src/main.ts')
  expect(source).toBe('src/test/exit-code_test.ts')
  await writeFile(join(tree, source!), "import { test } from 'node:test'\nimport { strictEqual } from 'node:assert'\nimport { exitCode } from '../main.js'\ntest('gives 0 for no code (regression)', () => strictEqual(exitCode(null), 0))\n")
  rebuild('')
  const run = runCaptured(launch, [layout.compiledPath(source!)!])
  expect(run.output).toContain('gives 0 for no code (regression)')
  expect(run.status).toBe(0)
}, BUILDS)

test('a dual build (`node --test dist/esm/test/*.js`): the tsconfig the build output confirms, not the editor\'s', async () => {
  await repository({
    '.gitignore': 'node_modules\ndist/\n',
    'package.json': packageJson({ build: 'tsc -p tsconfig.esm.json', pretest: 'npm run build', test: 'node --test dist/esm/test/*.js' }, { type: 'module' }),
    // The editor's config would emit dist/src/… and dist/test/…; the build never runs it.
    'tsconfig.json': JSON.stringify({ compilerOptions: { target: 'ES2022', module: 'NodeNext', moduleResolution: 'NodeNext', strict: true, types: ['node'], skipLibCheck: true, rootDir: '.', outDir: 'dist' }, include: ['src', 'test-d'] }),
    'tsconfig.esm.json': JSON.stringify({ extends: './tsconfig.json', compilerOptions: { rootDir: 'src', outDir: 'dist/esm' }, include: ['src'] }),
    'tsconfig.cjs.json': JSON.stringify({ extends: './tsconfig.json', compilerOptions: { module: 'CommonJS', moduleResolution: 'Node10', rootDir: 'src', outDir: 'dist/cjs' }, include: ['src'] }),
    'src/slug.ts': "export const slug = (text: string): string => text.toLowerCase().replace(/\\s+/g, '-')\n",
    'src/test/slug.ts': "import { test } from 'node:test'\nimport { strictEqual } from 'node:assert'\nimport { slug } from '../slug.js'\ntest('slugs', () => strictEqual(slug('A b'), 'a-b'))\n"
  })
  const launch = await capture()
  expect(launch.argv).toEqual(['dist/esm/test/slug.js'])
  const layout = expectLayout(await layoutFor(launch))
  expect(layout.outputDir).toBe('dist/esm/test')
  expect(layout.how).toContain('tsconfig.esm.json (extends tsconfig.json) rootDir src → outDir dist/esm; 1 existing pair agrees')
  expect(layout.compiledPath('src/test/slug.ts')).toBe('dist/esm/test/slug.js')
  expect(layout.sourcePath('dist/esm/test/slug.js')).toBe('src/test/slug.ts')
  // The only example names no ending but `.js`: any script in that folder is collected.
  expect(layout.sourceTestPath('slug-regression.ts', 'src/slug.ts')).toBe('src/test/slug-regression.ts')
}, BUILDS)

test('no source test yet: the new one goes where the tsconfig compiles into the collected folder', async () => {
  await repository({
    '.gitignore': 'node_modules\ndist/\n',
    'package.json': packageJson({ test: 'tsc && mocha "dist/test/**/*.test.js"' }),
    'tsconfig.json': JSON.stringify({ compilerOptions: { module: 'commonjs', strict: true, types: ['node'], skipLibCheck: true, rootDir: 'src', outDir: 'dist' }, include: ['src'] }),
    'src/index.ts': 'export const greet = (name: string): string => `hi ${name}`\n'
  })
  const launch = await capture()
  const layout = expectLayout(await layoutFor(launch))
  expect(layout.outputDir).toBe('dist/test')
  expect(layout.sourceTestFolders).toEqual([])
  expect(layout.sourceTestPath('greet.regression.test.ts', 'src/index.ts')).toBe('src/test/greet.regression.test.ts')
  // The spec wants `.test.js`: a name it would skip gets no place.
  expect(layout.sourceTestPath('greet.ts')).toBeNull()
}, BUILDS)

test('a nested tsconfig.build.json with extends (a workspace package, outDir from the base via ${configDir})', async () => {
  await repository({
    '.gitignore': 'node_modules\ndist/\n',
    'package.json': packageJson({}, { workspaces: ['packages/*'] }),
    'tsconfig.base.json': JSON.stringify({ compilerOptions: { target: 'ES2022', module: 'commonjs', strict: true, types: ['node'], skipLibCheck: true, outDir: '${configDir}/dist' } }),
    'packages/core/package.json': packageJson({ build: 'tsc -p tsconfig.build.json', pretest: 'npm run build', test: 'node --test dist/test/*.test.js' }),
    // The editor's config: type-checks the tests too, emits nothing.
    'packages/core/tsconfig.json': JSON.stringify({ extends: '../../tsconfig.base.json', compilerOptions: { noEmit: true }, include: ['src', 'scripts'] }),
    'packages/core/tsconfig.build.json': JSON.stringify({ extends: './tsconfig.json', compilerOptions: { noEmit: false, rootDir: 'src' }, include: ['src'] }),
    'packages/core/src/sum.ts': 'export const sum = (values: number[]): number => values.reduce((a, b) => a + b, 0)\n',
    'packages/core/src/test/sum.test.ts': "import { test } from 'node:test'\nimport { strictEqual } from 'node:assert'\nimport { sum } from '../sum'\ntest('sums', () => strictEqual(sum([1, 2]), 3))\n",
    'packages/core/scripts/release.ts': 'export {}\n'
  })
  const launch = await capture('packages/core')
  expect(launch.cwd).toBe(join(tree, 'packages/core'))
  expect(existsSync(join(tree, 'packages/core/dist/test/sum.test.js'))).toBe(true)

  const layout = expectLayout(await layoutFor(launch))
  expect(layout.outputDir).toBe('packages/core/dist/test')
  expect(layout.how).toContain('packages/core/tsconfig.build.json (extends packages/core/tsconfig.json, tsconfig.base.json) rootDir packages/core/src → outDir packages/core/dist')
  expect(layout.compiledPath('packages/core/src/test/sum.test.ts')).toBe('packages/core/dist/test/sum.test.js')
  // In the editor's include, not the build's: never compiled into dist.
  expect(layout.compiledPath('packages/core/scripts/test/x.test.ts')).toBeNull()
  const source = layout.sourceTestPath('sum.regression.test.ts', 'packages/core/src/sum.ts')
  expect(source).toBe('packages/core/src/test/sum.regression.test.ts')
  await writeFile(join(tree, source!), "import { test } from 'node:test'\nimport { strictEqual } from 'node:assert'\nimport { sum } from '../sum'\ntest('sums nothing (regression)', () => strictEqual(sum([]), 0))\n")
  rebuild('packages/core', '-p', 'tsconfig.build.json')
  const run = runCaptured(launch, [layout.compiledPath(source!)!.slice('packages/core/'.length)])
  expect(run.output).toContain('sums nothing (regression)')
  expect(run.status).toBe(0)
}, BUILDS)

test('pairs only: no tsconfig, a babel-like build copying src → lib, mocha --recursive lib/test', async () => {
  await repository({
    '.gitignore': 'node_modules\nlib/\n',
    // What `babel src -d lib` does to files with nothing to transform: the same tree under lib.
    'scripts/build.mjs': [
      "import { cpSync, rmSync } from 'node:fs'",
      "rmSync('lib', { recursive: true, force: true })",
      "cpSync('src', 'lib', { recursive: true })"
    ].join('\n'),
    'package.json': packageJson({ build: 'node scripts/build.mjs', test: 'npm run build && mocha --recursive lib/test' }),
    'src/index.js': 'exports.upper = (text) => text.toUpperCase()\n',
    'src/test/upper.test.js': "const { strictEqual } = require('node:assert')\nconst { upper } = require('..')\nit('uppercases', () => strictEqual(upper('a'), 'A'))\n",
    'src/test/unit/trim.test.js': "it('trims', () => {})\n"
  })
  const launch = await capture()
  const layout = expectLayout(await layoutFor(launch))
  expect(layout.outputDir).toBe('lib/test')
  expect(layout.how).toContain('mocha lib/test --recursive')
  expect(layout.how).toContain('existing pairs src → lib (2 pairs)')
  expect(layout.compiledPath('src/test/new.test.js')).toBe('lib/test/new.test.js')
  expect(layout.compiledPath('src/test/new.test.ts')).toBe('lib/test/new.test.js')
  expect(layout.sourcePath('lib/test/unit/trim.test.js')).toBe('src/test/unit/trim.test.js')
  expect(layout.sourceTestFolders).toEqual(['src/test', 'src/test/unit'])
  expect(layout.sourceTestPath('upper.regression.test.js', 'src/index.js')).toBe('src/test/upper.regression.test.js')
}, BUILDS)

test('a runner collecting tracked source: null (mocha on test/, jest with its defaults)', async () => {
  await repository({
    '.gitignore': 'node_modules\ndist/\n',
    'package.json': packageJson({ build: 'tsc', test: 'npm run build && mocha "test/**/*.test.js"' }),
    'tsconfig.json': JSON.stringify({ compilerOptions: { rootDir: 'src', outDir: 'dist', types: ['node'], skipLibCheck: true }, include: ['src'] }),
    'src/index.ts': 'export const one = 1\n',
    'test/one.test.js': "it('one', () => {})\n"
  })
  const mocha = await capture()
  expect(mocha.argv).toEqual(['test/**/*.test.js'])
  expect(existsSync(join(tree, 'dist/index.js'))).toBe(true)
  expect(await layoutFor(mocha)).toBeNull()

  await repository({ 'package.json': packageJson({ test: 'jest' }) })
  const jest = await capture()
  expect(jest.runner).toBe('jest')
  // Its config cannot be read, and nothing it listed says otherwise.
  expect(await layoutFor(jest)).toBeNull()
  // What jest itself lists decides: tracked tests, no compilation.
  expect(await layoutFor(jest, ['test/one.test.js'])).toBeNull()
}, BUILDS)

test('jest whose JavaScript config roots it in dist: unknown from its arguments, decided by the files it lists', async () => {
  await repository({
    '.gitignore': 'node_modules\ndist/\n',
    'package.json': packageJson({ test: 'tsc && jest' }),
    'jest.config.js': "module.exports = { roots: ['<rootDir>/dist'], testMatch: ['**/*.spec.js'] }\n",
    'tsconfig.json': JSON.stringify({ compilerOptions: { module: 'commonjs', types: ['node'], skipLibCheck: true, outDir: 'dist' }, include: ['src'] }),
    'src/lib.ts': 'export const id = <T>(value: T): T => value\n',
    'src/__tests__/lib.spec.ts': "declare const test: (name: string, fn: () => void) => void\nimport { id } from '../lib'\ntest('id', () => { if (id(1) !== 1) throw new Error('id') })\n"
  })
  const launch = await capture()
  expect(await layoutFor(launch)).toBeNull()
  // jest's own list, as `jest --listTests` gives it (absolute paths made tree-relative).
  const listed = execFileSync(process.execPath, [join(projectRoot, 'node_modules/jest/bin/jest.js'), '--listTests'], { cwd: tree, encoding: 'utf8' })
    .split('\n')
    .filter(Boolean)
    .map((path) => path.slice(tree.length + 1))
  expect(listed).toEqual(['dist/__tests__/lib.spec.js'])
  const layout = expectLayout(await layoutFor(launch, listed))
  expect(layout.outputDir).toBe('dist/__tests__')
  // No rootDir: tsc's own, the common folder of its inputs.
  expect(layout.how).toContain('tsconfig.json rootDir src (the common folder of its inputs) → outDir dist')
  expect(layout.compiledPath('src/__tests__/lib.spec.ts')).toBe('dist/__tests__/lib.spec.js')
  expect(layout.sourceTestPath('lib.regression.spec.ts')).toBe('src/__tests__/lib.regression.spec.ts')
}, BUILDS)

test('an output folder that is a link: nothing listed through it, and no pair read from it', async () => {
  await repository({
    '.gitignore': 'node_modules\nlib/\n',
    'package.json': packageJson({ test: 'mocha lib/test' }),
    'src/test/a.test.js': "it('a', () => {})\n"
  })
  const elsewhere = await mkdtemp(join(tmpdir(), 'compiled-elsewhere-'))
  await mkdir(join(elsewhere, 'test'), { recursive: true })
  await writeFile(join(elsewhere, 'test/a.test.js'), "it('a', () => {})\n")
  await symlink(elsewhere, join(tree, 'lib'), 'dir')
  try {
    const launch = await capture()
    const layout = expectLayout(await layoutFor(launch))
    expect(layout.outputDir).toBe('lib/test')
    expect(layout.compiledPath('src/test/a.test.js')).toBeNull()
    expect(layout.sourceTestPath('a.regression.test.js')).toBeNull()
    expect(layout.how).toContain('lib is a symbolic link the build left; not followed')
  } finally {
    await rm(elsewhere, { recursive: true, force: true })
  }
}, BUILDS)
