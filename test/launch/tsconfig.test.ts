/**
 * The tsconfig reading compiled-tests.ts relies on, on real files in temp folders: JSONC, `extends` (paths,
 * lists, packages, cycles), `${configDir}`, include/exclude as `tsc` reads them; and mocha's literal
 * `spec` in a JavaScript config.
 */
import { mkdir, mkdtemp, rm, symlink, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { dirname, join } from 'node:path'
import { literalSettings, literalStrings } from '../../src/launch/runner-specs.js'
import { compiles, effectiveRootDir, parseJsonc, readTsconfig, readTsconfigs, type TsConfig } from '../../src/launch/tsconfig.js'
import { listSandboxFiles } from '../../src/ports/sandbox-listing.js'

let tree = ''
beforeEach(async () => (tree = await mkdtemp(join(tmpdir(), 'tsconfig-tree-'))))
afterEach(() => rm(tree, { recursive: true, force: true }))

async function files(entries: Record<string, string>): Promise<void> {
  for (const [path, content] of Object.entries(entries)) {
    await mkdir(dirname(join(tree, path)), { recursive: true })
    await writeFile(join(tree, path), content)
  }
}

const config = (overrides: Partial<TsConfig>): TsConfig => ({ file: 'tsconfig.json', extends: [], outDir: 'dist', rootDir: null, composite: false, include: null, exclude: null, files: null, allowJs: false, emits: true, ...overrides })

describe('parseJsonc', () => {
  test('comments and trailing commas out, strings untouched', () => {
    const text = '\uFEFF{\n  // a comment\n  "a": "http://x/*y*/", /* block */\n  "b": [1, 2,],\n  "c": "say \\"//\\"",\n}\n'
    expect(parseJsonc(text)).toEqual({ a: 'http://x/*y*/', b: [1, 2], c: 'say "//"' })
  })
  test('not even JSONC: null', () => {
    expect(parseJsonc('{ a: 1 }')).toBeNull()
    expect(parseJsonc('{ "a": ')).toBeNull()
  })
})

describe('readTsconfig', () => {
  test('extends: a list (later over earlier), a path without .json, a package; paths against the file that says them', async () => {
    await files({
      'node_modules/@acme/tsconfig/base.json': JSON.stringify({ compilerOptions: { rootDir: 'ignored-src', outDir: 'lib' }, include: ['src'] }),
      'configs/a.json': JSON.stringify({ compilerOptions: { outDir: '../build', allowJs: true } }),
      'configs/b.json': JSON.stringify({ compilerOptions: { rootDir: '../src' } }),
      'tsconfig.json': '{ "extends": ["@acme/tsconfig/base.json", "./configs/a", "./configs/b.json"], }'
    })
    const read = await readTsconfig(tree, 'tsconfig.json')
    expect(read).toMatchObject({ file: 'tsconfig.json', outDir: 'build', rootDir: 'src', allowJs: true, emits: true })
    // The package's include, relative to the package's own folder.
    expect(read?.include).toEqual(['node_modules/@acme/tsconfig/src'])
    expect(read?.extends).toEqual(['node_modules/@acme/tsconfig/base.json', 'configs/a.json', 'configs/b.json'])
  })

  test('${configDir} is the folder of the file tsc was given; a child include replaces its base', async () => {
    await files({
      'tsconfig.base.json': JSON.stringify({ compilerOptions: { outDir: '${configDir}/out', rootDir: '${configDir}/src' }, include: ['${configDir}/src', 'shared'] }),
      'packages/a/tsconfig.json': JSON.stringify({ extends: '../../tsconfig.base.json' }),
      'packages/b/tsconfig.json': JSON.stringify({ extends: '../../tsconfig.base', include: ['lib'] })
    })
    expect(await readTsconfig(tree, 'packages/a/tsconfig.json')).toMatchObject({ outDir: 'packages/a/out', rootDir: 'packages/a/src', include: ['packages/a/src', 'shared'] })
    expect(await readTsconfig(tree, 'packages/b/tsconfig.json')).toMatchObject({ outDir: 'packages/b/out', include: ['packages/b/lib'] })
  })

  test('noEmit and emitDeclarationOnly emit nothing; an outDir outside the tree is none; a cycle ends', async () => {
    await files({
      'a.json': JSON.stringify({ extends: './b.json', compilerOptions: { noEmit: true } }),
      'b.json': JSON.stringify({ extends: './a.json', compilerOptions: { outDir: '../../elsewhere' } }),
      'types.json': JSON.stringify({ compilerOptions: { emitDeclarationOnly: true, outDir: 'types' } })
    })
    expect(await readTsconfig(tree, 'a.json')).toMatchObject({ emits: false, outDir: null })
    expect(await readTsconfig(tree, 'types.json')).toMatchObject({ emits: false, outDir: 'types' })
  })

  test('a tsconfig that is a link is not read (the build may have put it there)', async () => {
    await files({ 'tsconfig.real.json': JSON.stringify({ compilerOptions: { outDir: 'dist' } }) })
    await symlink(join(tree, 'tsconfig.real.json'), join(tree, 'tsconfig.json'))
    expect(await readTsconfig(tree, 'tsconfig.json')).toBeNull()
    expect((await readTsconfigs(tree, ['tsconfig.json', 'tsconfig.real.json', 'src/index.ts'])).map((read) => read.file)).toEqual(['tsconfig.real.json'])
  })
})

describe('compiles and effectiveRootDir', () => {
  test('include entries as tsc reads them: a folder, a glob, a file; exclude; the outDir and node_modules by default', () => {
    const build = config({ include: ['src', 'test/**/*.spec.ts', 'scripts/one.ts'], exclude: ['src/legacy'] })
    expect(compiles(build, 'src/deep/a.ts')).toBe(true)
    expect(compiles(build, 'src/a.tsx')).toBe(true)
    expect(compiles(build, 'src/a.mts')).toBe(true)
    expect(compiles(build, 'test/x/a.spec.ts')).toBe(true)
    expect(compiles(build, 'test/a.test.ts')).toBe(false)
    expect(compiles(build, 'scripts/one.ts')).toBe(true)
    expect(compiles(build, 'src/legacy/old.ts')).toBe(false)
    expect(compiles(build, 'src/types.d.ts')).toBe(false)
    expect(compiles(build, 'src/a.js')).toBe(false)
    expect(compiles({ ...build, allowJs: true }, 'src/a.js')).toBe(true)
    const everything = config({})
    expect(compiles(everything, 'a.ts')).toBe(true)
    expect(compiles(everything, 'node_modules/x/a.ts')).toBe(false)
    expect(compiles(everything, 'dist/a.ts')).toBe(false)
    expect(compiles(config({ files: ['src/main.ts'] }), 'src/other.ts')).toBe(false)
    expect(compiles(config({ files: ['src/main.ts'] }), 'src/main.ts')).toBe(true)
  })

  test('without rootDir: the common folder of its inputs', () => {
    expect(effectiveRootDir(config({ include: ['src'] }), ['src/a/x.ts', 'src/b/y.ts', 'README.md'])).toBe('src')
    expect(effectiveRootDir(config({}), ['src/a.ts', 'test/a.test.ts', 'types/x.d.ts'])).toBe('')
    expect(effectiveRootDir(config({ rootDir: 'lib' }), [])).toBe('lib')
    expect(effectiveRootDir(config({ include: ['src'] }), ['test/a.ts'])).toBeNull()
    // composite: the config's own folder, whatever its inputs.
    expect(effectiveRootDir(config({ file: 'packages/a/tsconfig.json', composite: true, include: ['packages/a/src'] }), ['packages/a/src/x.ts'])).toBe('packages/a')
  })
})

describe("mocha's literal spec in a JavaScript config", () => {
  test('a string, a list, quoted keys; computed or said twice: null; absent: []', () => {
    expect(literalStrings("module.exports = {\n  spec: 'dist/**/*.test.js',\n  timeout: 5000\n}", 'spec')).toEqual(['dist/**/*.test.js'])
    expect(literalStrings('module.exports = { "spec": ["dist/a", `dist/b`], require: "x" }', 'spec')).toEqual(['dist/a', 'dist/b'])
    expect(literalStrings("export default { spec: 'build/test' }", 'spec')).toEqual(['build/test'])
    expect(literalStrings("module.exports = { spec: process.env.SPEC || 'dist' }", 'spec')).toBeNull()
    expect(literalStrings("const a = { spec: 'x' }\nconst b = { spec: 'y' }", 'spec')).toBeNull()
    expect(literalStrings("module.exports = { timeout: 1 }", 'spec')).toEqual([])
  })
  test('a config with no spec of its own but built from another: unknown', () => {
    expect(literalSettings("module.exports = { timeout: 1, require: [require.resolve('ts-node/register')] }")).toEqual({ spec: [], extension: [], recursive: false })
    expect(literalSettings("module.exports = { spec: 'dist', recursive: true, extension: ['js'] }")).toEqual({ spec: ['dist'], extension: ['js'], recursive: true })
    expect(literalSettings("const base = require('../../.mocharc.base')\nmodule.exports = { ...base, timeout: 1 }")).toBeNull()
    expect(literalSettings("module.exports = Object.assign({}, require('./base'), { timeout: 1 })")).toBeNull()
    expect(literalSettings("module.exports = require('../shared/mocharc')")).toBeNull()
    expect(literalSettings("const config = makeConfig()\nmodule.exports = config")).toBeNull()
    expect(literalSettings("export default defineConfig({ timeout: 1 })")).toBeNull()
  })
})

describe('listSandboxFiles', () => {
  test('regular files only, links neither followed nor listed, bounded', async () => {
    await files({ 'dist/a.js': '', 'dist/test/b.test.js': '', 'dist/node_modules/x.js': '' })
    await symlink('/etc', join(tree, 'dist/etc'))
    await symlink(join(tree, 'dist/a.js'), join(tree, 'dist/test/link.js'))
    expect(await listSandboxFiles(tree, 'dist')).toEqual({ files: ['dist/a.js', 'dist/test/b.test.js'], truncated: false })
    expect(await listSandboxFiles(tree, 'dist', { limit: 1 })).toEqual({ files: ['dist/a.js'], truncated: true })
    expect(await listSandboxFiles(tree, 'dist', { keep: (path) => path.endsWith('.test.js') })).toEqual({ files: ['dist/test/b.test.js'], truncated: false })
    expect(await listSandboxFiles(tree, 'missing')).toEqual({ files: [], truncated: false })
    await symlink(join(tree, 'dist'), join(tree, 'out'))
    expect(await listSandboxFiles(tree, 'out/test')).toEqual({ files: [], truncated: false })
  })
})
