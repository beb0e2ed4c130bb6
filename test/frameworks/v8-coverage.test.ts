/**
 * Coverage through Node itself (NODE_V8_COVERAGE), read with v8-to-istanbul: real node processes, real
 * files, and the mocha, ava and node:test adapters falling back to it where the repository has no c8.
 */
import { execFile } from 'node:child_process'
import { existsSync } from 'node:fs'
import { mkdir, mkdtemp, readdir, readFile, rm, stat, symlink, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { dirname, join, resolve } from 'node:path'
import { promisify } from 'node:util'
import ts from 'typescript'
import type { FileCoverage } from '../../src/domain.js'
import { avaAdapter } from '../../src/frameworks/ava.js'
import { mochaAdapter } from '../../src/frameworks/mocha.js'
import { nodeTestAdapter } from '../../src/frameworks/node-test.js'
import { treeRoots } from '../../src/frameworks/paths.js'
import { readV8Coverage, v8CoverageDir, v8CoverageEnv } from '../../src/frameworks/v8-coverage.js'
import { createProcessRunner, type ProcessRunner } from '../../src/ports/process.js'

const OUR_NODE_MODULES = resolve('node_modules')
const TSX = join(OUR_NODE_MODULES, 'tsx', 'dist', 'cli.mjs')
const runner = createProcessRunner()

async function writeProject(dir: string, files: Record<string, string>): Promise<void> {
  for (const [path, content] of Object.entries(files)) {
    await mkdir(dirname(join(dir, path)), { recursive: true })
    await writeFile(join(dir, path), content)
  }
}

/** This project's node_modules as the tree's, without c8: a repository with no coverage tool. */
async function linkNodeModulesWithoutC8(treeDir: string): Promise<void> {
  await mkdir(join(treeDir, 'node_modules'), { recursive: true })
  for (const entry of await readdir(OUR_NODE_MODULES)) {
    if (entry !== 'c8' && entry !== '.bin') await symlink(join(OUR_NODE_MODULES, entry), join(treeDir, 'node_modules', entry))
  }
}

const byFile = (coverage: FileCoverage[] | null | undefined, file: string) => coverage?.find((entry) => entry.file === file)

// A comment, a blank line and closing braces: lines V8 counts, and no code.
const ADD_CJS = '// Sums two numbers.\nexports.add = (a, b) => {\n  return a + b\n}\n\nexports.unused = () => {\n  return 0\n}\n'
const SUB_MJS = 'export function sub(a, b) {\n  return a - b\n}\nexport function neg(a) {\n  return -a\n}\n'
// Type-only lines first: the JavaScript that runs has its lines elsewhere, only the source map finds them here.
const MUL_TS = `interface Options {
  twice: boolean
}

export function mul(a: number, b: number, options?: Options): number {
  if (options?.twice) {
    return 2 * a * b
  }
  return a * b
}
`
const DIV_TS = `type Divisor = number

export function div(a: number, b: Divisor): number {
  if (b === 0) {
    throw new RangeError('division by zero')
  }
  return a / b
}
`

describe('readV8Coverage', () => {
  let realTree: string
  let treeLink: string
  let coverageDir: string

  /** Runs node with the tree as its working folder (through the link) and coverage into coverageDir. */
  const node = (args: string[]) => promisify(execFile)(process.execPath, args, { cwd: treeLink, env: { PATH: process.env.PATH ?? '', NODE_V8_COVERAGE: coverageDir } })

  beforeAll(async () => {
    const base = await mkdtemp(join(tmpdir(), 'v8-coverage-'))
    realTree = join(base, 'tree')
    treeLink = join(base, 'tree-link')
    coverageDir = join(base, 'scratch', 'v8-coverage')
    // dist/div.js: built from src/div.ts, with a source map file beside it that leads back there.
    const built = ts.transpileModule(DIV_TS, { fileName: 'div.ts', compilerOptions: { module: ts.ModuleKind.CommonJS, target: ts.ScriptTarget.ES2022, sourceMap: true } })
    const map = { ...JSON.parse(built.sourceMapText!), file: 'div.js', sources: ['../src/div.ts'] }
    await writeProject(realTree, {
      'lib/add.cjs': ADD_CJS,
      'lib/sub.mjs': SUB_MJS,
      'src/mul.ts': MUL_TS,
      'src/div.ts': DIV_TS,
      'dist/div.js': built.outputText.replace(/\/\/# sourceMappingURL=.*$/m, '//# sourceMappingURL=div.js.map'),
      'dist/div.js.map': JSON.stringify(map),
      // Installed in the tree itself (a folder, not a link): still no code of the repository's.
      'node_modules/dep/package.json': JSON.stringify({ name: 'dep', main: 'index.js' }),
      'node_modules/dep/index.js': 'exports.twice = (n) => 2 * n\n',
      'test/one.test.cjs': "const { add } = require('../lib/add.cjs')\nconst { twice } = require('dep')\nconst { div } = require('../dist/div.js')\nadd(1, twice(2))\ndiv(6, 3)\n",
      // Another process: the function the first one left out, through ESM.
      'test/two.test.mjs': "import { unused } from '../lib/add.cjs'\nimport { sub } from '../lib/sub.mjs'\nunused()\nsub(3, 1)\n",
      'test/mul.test.ts': "import { mul } from '../src/mul.js'\nmul(2, 3)\n"
    })
    await symlink(realTree, treeLink, 'dir')
    await mkdir(coverageDir, { recursive: true })
    await node(['test/one.test.cjs'])
    await node(['test/two.test.mjs'])
    // TypeScript transpiled at load time by tsx: Node keeps its source map for the coverage.
    await node([TSX, 'test/mul.test.ts'])
  })

  afterAll(async () => {
    await rm(dirname(realTree), { recursive: true, force: true })
  })

  it("gives per-line coverage of the repository's own files, merged over every process, code lines only", async () => {
    // Paths come as the tree's real path; the roots hold the link the tree was reached by, and its real path.
    const coverage = await readV8Coverage(coverageDir, await treeRoots(treeLink), { exclude: (file) => file.startsWith('test/') })
    expect(coverage!.map((entry) => entry.file)).toEqual(['lib/add.cjs', 'lib/sub.mjs', 'src/div.ts', 'src/mul.ts'])
    // add ran in the first process, unused in the second: both count. Line 1 is a comment, 4, 5 and 8 no code.
    expect(byFile(coverage, 'lib/add.cjs')).toEqual({ file: 'lib/add.cjs', executableLines: [2, 3, 6, 7], coveredLines: [2, 3, 6, 7] })
    expect(byFile(coverage, 'lib/sub.mjs')).toEqual({ file: 'lib/sub.mjs', executableLines: [1, 2, 4, 5], coveredLines: [1, 2, 4] })
  })

  it('honours source maps: the lines are those of the TypeScript source, not of the JavaScript that ran', async () => {
    const coverage = await readV8Coverage(coverageDir, await treeRoots(treeLink), { exclude: (file) => file.startsWith('test/') })
    // tsx at load time (the map Node cached): `return 2 * a * b` (line 7) never ran, `return a * b` (9) did.
    const mul = byFile(coverage, 'src/mul.ts')!
    expect(mul.executableLines).toEqual(expect.arrayContaining([5, 6, 7, 9]))
    expect(mul.coveredLines).toEqual(expect.arrayContaining([5, 6, 9]))
    expect(mul.coveredLines).not.toContain(7)
    // Build output with a map file: dist/div.js counts as src/div.ts, whose throw (line 5) never ran.
    const div = byFile(coverage, 'src/div.ts')!
    expect(div.executableLines).toEqual(expect.arrayContaining([3, 4, 5, 7]))
    expect(div.coveredLines).toEqual(expect.arrayContaining([3, 4, 7]))
    expect(div.coveredLines).not.toContain(5)
    expect(byFile(coverage, 'dist/div.js')).toBeUndefined()
  })

  it('leaves out node_modules and files outside the tree; test files only when excluded', async () => {
    const all = await readV8Coverage(coverageDir, await treeRoots(treeLink))
    const files = all!.map((entry) => entry.file)
    expect(files).toEqual(['lib/add.cjs', 'lib/sub.mjs', 'src/div.ts', 'src/mul.ts', 'test/mul.test.ts', 'test/one.test.cjs', 'test/two.test.mjs'])
    // tsx ran from outside the tree, dep from the tree's own node_modules: neither is there.
    expect(files.some((file) => file.includes('node_modules') || file.startsWith('/') || file.startsWith('..'))).toBe(false)
  })

  it('is null when no process wrote coverage, and skips a file a killed process left half written', async () => {
    const empty = await mkdtemp(join(tmpdir(), 'v8-coverage-empty-'))
    expect(await readV8Coverage(empty, [realTree])).toBeNull()
    expect(await readV8Coverage(join(empty, 'missing'), [realTree])).toBeNull()
    await writeFile(join(empty, 'coverage-1-1-0.json'), '{"result":[{"url":"file:///')
    expect(await readV8Coverage(empty, [realTree])).toBeNull()
    // Beside whole ones, it is left out and the rest count.
    for (const name of await readdir(coverageDir)) await writeFile(join(empty, name), await readFile(join(coverageDir, name)))
    expect(byFile(await readV8Coverage(empty, await treeRoots(treeLink)), 'lib/sub.mjs')?.coveredLines).toEqual([1, 2, 4])
    await rm(empty, { recursive: true, force: true })
  })
})

describe('v8CoverageEnv', () => {
  it("empties the scratch folder's coverage folder, makes it writable by anyone (the sandbox's user), and names it", async () => {
    const scratchDir = await mkdtemp(join(tmpdir(), 'v8-coverage-scratch-'))
    await mkdir(v8CoverageDir(scratchDir))
    await writeFile(join(v8CoverageDir(scratchDir), 'coverage-1-1-0.json'), '{"result":[]}')
    const env = await v8CoverageEnv(scratchDir)
    expect(env).toEqual({ NODE_V8_COVERAGE: join(scratchDir, 'v8-coverage') })
    expect(await readdir(env.NODE_V8_COVERAGE)).toEqual([])
    expect((await stat(env.NODE_V8_COVERAGE)).mode & 0o777).toBe(0o777)
    await rm(scratchDir, { recursive: true, force: true })
  })
})

describe('the adapters without c8: V8 coverage through node', () => {
  let treeDir: string
  let scratchDir: string

  beforeEach(async () => {
    treeDir = await mkdtemp(join(tmpdir(), 'v8-coverage-tree-'))
    scratchDir = await mkdtemp(join(tmpdir(), 'v8-coverage-scratch-'))
    await linkNodeModulesWithoutC8(treeDir)
  })

  afterEach(async () => {
    await rm(treeDir, { recursive: true, force: true })
    await rm(scratchDir, { recursive: true, force: true })
  })

  const LIB = '// Sums two numbers.\nfunction add(a, b) {\n  return a + b\n}\n\nfunction unused() {\n  return 0\n}\nmodule.exports = { add, unused }\n'

  it('mocha: the lines its run ran, the test files left out; none when not asked', async () => {
    await writeProject(treeDir, {
      'package.json': JSON.stringify({ name: 'tiny', scripts: { test: 'mocha' }, devDependencies: { mocha: '*' } }),
      'lib/add.js': LIB,
      'test/add.test.js': "const assert = require('node:assert')\nconst { add } = require('../lib/add')\nit('adds', () => assert.equal(add(1, 2), 3))\n"
    })
    const request = { treeDir, files: ['test/add.test.js'], scratchDir, timeoutMs: 60000 }
    const result = await mochaAdapter.run({ ...request, coverage: true }, runner)
    expect(result.tests.map((test) => test.status)).toEqual(['passed'])
    // unused never ran, its declaration line included (V8's range for it starts at `function`).
    expect(result.coverage).toEqual([{ file: 'lib/add.js', executableLines: [2, 3, 6, 7, 9], coveredLines: [2, 3, 9] }])
    const without = await mochaAdapter.run(request, runner)
    expect(without.coverage).toBeUndefined()
  })

  it('ava: the lines its worker threads ran, the test files left out', async () => {
    await writeProject(treeDir, {
      'package.json': JSON.stringify({ name: 'tiny', type: 'module', scripts: { test: 'ava' }, devDependencies: { ava: '*' } }),
      'lib/add.js': 'export function add(a, b) {\n  return a + b\n}\n\nexport function unused() {\n  return 0\n}\n',
      'test/add.test.js': "import test from 'ava'\nimport { add } from '../lib/add.js'\ntest('adds', (t) => { t.is(add(1, 2), 3) })\n"
    })
    const result = await avaAdapter.run({ treeDir, files: ['test/add.test.js'], scratchDir, timeoutMs: 60000, coverage: true }, runner)
    expect(result.tests.map((test) => test.status)).toEqual(['passed'])
    expect(result.coverage).toEqual([{ file: 'lib/add.js', executableLines: [1, 2, 5, 6], coveredLines: [1, 2, 5] }])
  })

  /** Real processes, except that the probe of node's test runner answers as Node 20.9 would: no lcov reporter. */
  const withoutLcov: ProcessRunner = {
    run: async (request) => {
      if (!request.args.includes('-p')) return runner.run(request)
      const answer = `${JSON.stringify({ version: 'v20.9.0', reporters: ['dot', 'junit', 'spec', 'tap'] })}\n`
      return { exitCode: 0, signal: null, timedOut: false, output: answer, stdout: answer, durationMs: 1 }
    }
  }

  it("node:test on a node without the lcov reporter: the lines each file's process ran", async () => {
    await writeProject(treeDir, {
      'package.json': JSON.stringify({ name: 'tiny', type: 'module', scripts: { test: 'node --test' } }),
      'lib/add.js': 'export function add(a, b) {\n  return a + b\n}\n\nexport function unused() {\n  return 0\n}\n',
      'test/add.test.js': "import { test } from 'node:test'\nimport assert from 'node:assert/strict'\nimport { add } from '../lib/add.js'\ntest('adds', () => assert.equal(add(1, 2), 3))\n",
      'test/unused.test.js': "import { test } from 'node:test'\nimport { unused } from '../lib/add.js'\ntest('calls unused', () => { unused() })\n"
    })
    const one = await nodeTestAdapter.run({ treeDir, files: ['test/add.test.js'], scratchDir, timeoutMs: 60000, coverage: true }, withoutLcov)
    expect(one.tests.map((test) => test.status)).toEqual(['passed'])
    expect(one.coverage).toEqual([{ file: 'lib/add.js', executableLines: [1, 2, 5, 6], coveredLines: [1, 2, 5] }])
    // One process a file: their coverage merged.
    const both = await nodeTestAdapter.run({ treeDir, files: ['test/add.test.js', 'test/unused.test.js'], scratchDir, timeoutMs: 60000, coverage: true }, withoutLcov)
    expect(both.coverage).toEqual([{ file: 'lib/add.js', executableLines: [1, 2, 5, 6], coveredLines: [1, 2, 5, 6] }])
  })

  it('node:test through tsx --test: the TypeScript source through its source map', async () => {
    await writeProject(treeDir, {
      'package.json': JSON.stringify({ name: 'tiny', type: 'module', scripts: { test: 'tsx --test' } }),
      'src/mul.ts': MUL_TS,
      'test/mul.test.ts': "import { test } from 'node:test'\nimport assert from 'node:assert/strict'\nimport { mul } from '../src/mul.js'\ntest('multiplies', () => assert.equal(mul(2, 3), 6))\n"
    })
    const result = await nodeTestAdapter.run({ treeDir, files: ['test/mul.test.ts'], scratchDir, timeoutMs: 60000, coverage: true }, withoutLcov)
    expect(result.tests.map((test) => test.status)).toEqual(['passed'])
    expect(result.coverage!.map((entry) => entry.file)).toEqual(['src/mul.ts'])
    const [mul] = result.coverage!
    expect(mul.executableLines).toEqual(expect.arrayContaining([5, 6, 7, 9]))
    expect(mul.coveredLines).toEqual(expect.arrayContaining([5, 6, 9]))
    expect(mul.coveredLines).not.toContain(7)
  })
})

describe('the adapters with their coverage tool: it stays the one used', () => {
  let treeDir: string
  let scratchDir: string

  beforeEach(async () => {
    treeDir = await mkdtemp(join(tmpdir(), 'v8-coverage-tree-'))
    scratchDir = await mkdtemp(join(tmpdir(), 'v8-coverage-scratch-'))
    // This project's node_modules, c8 in it.
    await symlink(OUR_NODE_MODULES, join(treeDir, 'node_modules'), 'dir')
  })

  afterEach(async () => {
    await rm(treeDir, { recursive: true, force: true })
    await rm(scratchDir, { recursive: true, force: true })
  })

  it("mocha with c8: c8's report, no V8 folder of ours", async () => {
    await writeProject(treeDir, {
      'package.json': JSON.stringify({ name: 'tiny', scripts: { test: 'mocha' }, devDependencies: { mocha: '*', c8: '*' } }),
      'lib/add.js': '// Sums two numbers.\nexports.add = (a, b) => a + b\n',
      'test/add.test.js': "const assert = require('node:assert')\nconst { add } = require('../lib/add')\nit('adds', () => assert.equal(add(1, 2), 3))\n"
    })
    const result = await mochaAdapter.run({ treeDir, files: ['test/add.test.js'], scratchDir, timeoutMs: 60000, coverage: true }, runner)
    // c8 counts the comment line as one that ran; the V8 path would not.
    expect(result.coverage).toEqual([{ file: 'lib/add.js', executableLines: [1, 2], coveredLines: [1, 2] }])
    expect(existsSync(v8CoverageDir(scratchDir))).toBe(false)
  })

  it("node:test on a node with the lcov reporter: node's lcov, no V8 folder of ours", async () => {
    await writeProject(treeDir, {
      'package.json': JSON.stringify({ name: 'tiny', type: 'module', scripts: { test: 'node --test' } }),
      'lib/add.js': 'export function add(a, b) {\n  return a + b\n}\n',
      'test/add.test.js': "import { test } from 'node:test'\nimport assert from 'node:assert/strict'\nimport { add } from '../lib/add.js'\ntest('adds', () => assert.equal(add(1, 2), 3))\n"
    })
    const result = await nodeTestAdapter.run({ treeDir, files: ['test/add.test.js'], scratchDir, timeoutMs: 60000, coverage: true }, runner)
    expect(result.coverage).toContainEqual({ file: 'lib/add.js', executableLines: [1, 2], coveredLines: [1, 2] })
    expect(existsSync(join(scratchDir, 'file-1', 'lcov.info'))).toBe(true)
    expect(existsSync(v8CoverageDir(join(scratchDir, 'file-1')))).toBe(false)
  })
})
