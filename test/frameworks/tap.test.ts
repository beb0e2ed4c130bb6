import { existsSync } from 'node:fs'
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { dirname, join } from 'node:path'
import { detectFramework } from '../../src/frameworks/detect.js'
import { tapAdapter } from '../../src/frameworks/tap.js'
import { createProcessRunner } from '../../src/ports/process.js'
import { installTapInto, TAP_VERSIONS, type TapVersion } from '../support/test-tap.js'

const runner = createProcessRunner()

const FILES: Record<string, string> = {
  'package.json': JSON.stringify({ name: 'tiny', scripts: { test: 'TZ=Pacific/Chatham tap' }, devDependencies: { tap: '*' } }),
  'lib/add.js': 'exports.add = (a, b) => a + b\nexports.unused = function () {\n  return 0\n}\n',
  'test/add.test.js': `const t = require('tap')
const { add } = require('../lib/add.js')
t.test('adds two numbers', async (t) => { t.equal(add(1, 2), 3) })
t.test('is wrong on purpose', async (t) => { t.equal(add(1, 2), 4) })
t.test('outer', async (t) => {
  t.test('inner passes', async (t) => { t.pass('fine') })
  t.test('inner fails', async (t) => { t.same({ a: 1 }, { a: 2 }) })
})
t.test('throws', async () => { throw new TypeError('boom here') })
t.test('skipped one', { skip: true }, async () => {})
t.test('sees the script variable', async (t) => { t.equal(process.env.TZ, 'Pacific/Chatham') })
t.equal(add(2, 2), 4, 'a top-level assertion')
`,
  'test/deep/more.test.mjs': "import t from 'tap'\nt.test('a › title with the separator', async (t) => { t.pass('ok') })\n",
  'test/broken.test.js': "const t = require('tap')\nrequire('./missing.js')\nt.test('never runs', async (t) => { t.pass('ok') })\n",
  'test/empty.test.js': 'module.exports = 1\n'
}

async function writeProject(dir: string, files: Record<string, string>): Promise<void> {
  for (const [path, content] of Object.entries(files)) {
    await mkdir(dirname(join(dir, path)), { recursive: true })
    await writeFile(join(dir, path), content)
  }
}

describe.each(TAP_VERSIONS.map((version) => ({ version })))('tapAdapter.run with tap $version', ({ version }: { version: TapVersion }) => {
  let treeDir: string
  let scratchDir: string
  const run = (files: string[], extra: { coverage?: boolean; command?: string[] } = {}) => tapAdapter.run({ treeDir, files, scratchDir, timeoutMs: 120000, ...extra }, runner)

  beforeAll(async () => {
    treeDir = await mkdtemp(join(tmpdir(), `tap-${version}-tree-`))
    scratchDir = join(await mkdtemp(join(tmpdir(), `tap-${version}-run-`)), 'scratch')
    await writeProject(treeDir, FILES)
    await installTapInto(treeDir, version)
  })

  afterAll(async () => {
    if (treeDir) await rm(treeDir, { recursive: true, force: true })
    if (scratchDir) await rm(dirname(scratchDir), { recursive: true, force: true })
  })

  it('reads per-test results of several files, nested tests by their titles, failures with their diff, with coverage and without tap’s own', async () => {
    const result = await run(['test/add.test.js', 'test/deep/more.test.mjs', 'test/broken.test.js', 'test/empty.test.js'], { coverage: true })
    expect(result.timedOut).toBe(false)
    expect(result.exitCode).toBe(1)
    const outcomes = result.tests.map((test) => `${test.file}: ${test.name}: ${test.status}`)
    expect(outcomes.sort()).toEqual([
      'test/add.test.js: a top-level assertion: passed',
      'test/add.test.js: adds two numbers: passed',
      'test/add.test.js: is wrong on purpose: failed',
      'test/add.test.js: outer › inner fails: failed',
      'test/add.test.js: outer › inner passes: passed',
      // The test script's variable reached the run.
      'test/add.test.js: sees the script variable: passed',
      'test/add.test.js: skipped one: skipped',
      'test/add.test.js: throws: failed',
      'test/deep/more.test.mjs: a › title with the separator: passed'
    ])
    const message = (name: string) => result.tests.find((test) => test.name === name)!.message
    expect(message('is wrong on purpose')).toMatch(/should be equal[\s\S]*-4\n\+3[\s\S]*at test\/add\.test\.js:4:/)
    expect(message('outer › inner fails')).toMatch(/-\s+"a": 2,\n\+\s+"a": 1,/)
    expect(message('throws')).toMatch(/^TypeError: boom here/)
    expect(result.tests.find((test) => test.status === 'passed')!.message).toBe('')
    // The file that could not load, with the error its process printed; the one that defines no test.
    expect(result.fileErrors).toEqual([
      { file: 'test/broken.test.js', message: expect.stringMatching(/ran no test from this file: its process exited with code 1\n[\s\S]*Cannot find module '\.\/missing\.js'/) },
      { file: 'test/empty.test.js', message: expect.stringContaining('tap ran no test from this file') }
    ])
    // node's V8 coverage of the code under test; tap's own (nyc's .nyc_output, tap 18's .tap/coverage) off.
    const [lib] = result.coverage!
    expect(result.coverage!.map((file) => file.file)).toEqual(['lib/add.js'])
    expect(lib.coveredLines).toContain(1)
    expect(lib.executableLines).toContain(3)
    expect(lib.coveredLines).not.toContain(3)
    expect(existsSync(join(treeDir, '.nyc_output'))).toBe(false)
    expect(existsSync(join(treeDir, '.tap', 'coverage'))).toBe(false)
  })

  it("runs the repository's test command, its variables set, the files where it says", async () => {
    const bin = join(treeDir, 'node_modules', 'tap', version.startsWith('16.') ? 'bin/run.js' : 'dist/esm/run.mjs')
    const result = await run(['test/add.test.js'], { command: ['TZ=Pacific/Chatham', process.execPath, bin, '{files}', '--jobs=1'] })
    expect(result.tests.find((test) => test.name === 'sees the script variable')!.status).toBe('passed')
    expect(result.tests).toHaveLength(8)
  })

  it('gives a loading test that passes exactly when its imports load', async () => {
    await writeFile(join(treeDir, 'test/loads.test.js'), tapAdapter.loadingTest!("const { add } = require('../lib/add.js')", false))
    await writeFile(join(treeDir, 'test/fails-to-load.test.mjs'), tapAdapter.loadingTest!("import { add } from '../lib/nothing.js'", true))
    const result = await run(['test/loads.test.js', 'test/fails-to-load.test.mjs'])
    expect(result.tests.map((test) => `${test.file}: ${test.name}: ${test.status}`)).toEqual(['test/loads.test.js: loads: passed'])
    expect(result.fileErrors).toEqual([{ file: 'test/fails-to-load.test.mjs', message: expect.stringContaining('tap ran no test from this file') }])
  })
})

describe('tapAdapter.detect and isTestFile', () => {
  const dirs: string[] = []
  const project = async (files: Record<string, string>) => {
    const dir = await mkdtemp(join(tmpdir(), 'tap-detect-'))
    dirs.push(dir)
    await writeProject(dir, files)
    return dir
  }
  afterAll(() => Promise.all(dirs.map((dir) => rm(dir, { recursive: true, force: true }))))

  it('finds tap by its dependency, its test script or its config file, ahead of node:test and of a runner merely installed', async () => {
    expect((await detectFramework(await project({ 'package.json': JSON.stringify({ devDependencies: { tap: '^16.3.0' } }) }))).name).toBe('tap')
    expect((await detectFramework(await project({ 'package.json': JSON.stringify({ devDependencies: { '@tapjs/run': '^4.0.0' } }) }))).name).toBe('tap')
    expect((await detectFramework(await project({ 'package.json': JSON.stringify({ scripts: { test: 'standard && tap --no-coverage' }, devDependencies: { jest: '*' } }) }))).name).toBe('tap')
    expect(await tapAdapter.detect(await project({ 'package.json': '{}', '.taprc': 'jobs: 1\n' }))).toBe(true)
    expect(await tapAdapter.detect(await project({ 'package.json': JSON.stringify({ scripts: { test: 'node --test' }, devDependencies: { 'tap-spec': '1' } }) }))).toBe(false)
  })

  it("knows tap's default test files, and not what it never runs", () => {
    for (const path of ['test/pages.js', 'tests/a/b.mjs', '__tests__/x.ts', 'lib/sum.test.cjs', 'src/a.spec.tsx', 'test.js', 'pkg/tests.mts']) expect(tapAdapter.isTestFile(path)).toBe(true)
    for (const path of ['lib/pages.js', 'test/fixtures/a.js', 'test/fixture/b.test.js', 'node_modules/x/test/a.js', 'tap-snapshots/test/a.test.js.cjs', 'dist/a.test.js', 'test/readme.md', 'test/.hidden.js', 'types/a.test.d.ts']) expect(tapAdapter.isTestFile(path)).toBe(false)
  })
})
