import { mkdir, mkdtemp, rm, symlink, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { dirname, join, resolve } from 'node:path'
import { avaAdapter } from '../../src/frameworks/ava.js'
import { detectFramework } from '../../src/frameworks/detect.js'
import { createProcessRunner } from '../../src/ports/process.js'

const OUR_NODE_MODULES = resolve('node_modules')
const runner = createProcessRunner()

const FILES: Record<string, string> = {
  'package.json': JSON.stringify({ name: 'tiny', type: 'module', scripts: { test: 'TZ=Pacific/Chatham ava' }, devDependencies: { ava: '*', c8: '*' } }),
  'lib/add.js': 'export const add = (a, b) => a + b\nexport function unused() {\n  return 0\n}\n',
  'test/add.test.js': `import test from 'ava'
import { add } from '../lib/add.js'
test('adds two numbers', (t) => { t.is(add(1, 2), 3) })
test('is wrong on purpose', (t) => { t.is(add(1, 2), 4) })
test('sees the script variable', (t) => { t.is(process.env.TZ, 'Pacific/Chatham') })
test('prints TAP-like text', (t) => { console.log('ok 99 - not a test'); t.pass() })
`,
  'test/deep/more.test.js': "import test from 'ava'\ntest('a › title with the separator', (t) => t.pass())\n",
  'test/broken.test.js': "import test from 'ava'\nimport './missing.js'\ntest('never runs', (t) => t.pass())\n",
  'test/hangs.test.js': "import test from 'ava'\ntest('waits forever', () => new Promise(() => setInterval(() => {}, 1000)))\n"
}

async function writeProject(dir: string, files: Record<string, string>): Promise<void> {
  for (const [path, content] of Object.entries(files)) {
    await mkdir(dirname(join(dir, path)), { recursive: true })
    await writeFile(join(dir, path), content)
  }
}

describe('avaAdapter.run', () => {
  let treeDir: string
  let scratchDir: string
  const run = (files: string[], extra: { coverage?: boolean; timeoutMs?: number } = {}) =>
    avaAdapter.run({ treeDir, files, scratchDir, timeoutMs: extra.timeoutMs ?? 60000, ...extra }, runner)

  beforeAll(async () => {
    treeDir = await mkdtemp(join(tmpdir(), 'ava-adapter-tree-'))
    scratchDir = await mkdtemp(join(tmpdir(), 'ava-adapter-scratch-'))
    await writeProject(treeDir, FILES)
    await symlink(OUR_NODE_MODULES, join(treeDir, 'node_modules'), 'dir')
  })

  afterAll(async () => {
    await rm(treeDir, { recursive: true, force: true })
    await rm(scratchDir, { recursive: true, force: true })
  })

  it('reads per-test results of several files from the TAP report, each under its own file, with coverage', async () => {
    const result = await run(['test/add.test.js', 'test/deep/more.test.js', 'test/broken.test.js'], { coverage: true })
    expect(result.timedOut).toBe(false)
    expect(result.exitCode).toBe(1)
    const outcomes = result.tests.map((test) => `${test.file}: ${test.name}: ${test.status}`).sort()
    expect(outcomes).toEqual([
      'test/add.test.js: adds two numbers: passed',
      'test/add.test.js: is wrong on purpose: failed',
      'test/add.test.js: prints TAP-like text: passed',
      // The test script's variable reached the run.
      'test/add.test.js: sees the script variable: passed',
      'test/deep/more.test.js: a › title with the separator: passed'
    ])
    expect(result.tests.find((test) => test.status === 'failed')!.message).toMatch(/t\.is\(\)[\s\S]*- 3\n\+ 4/)
    expect(result.fileErrors).toEqual([{ file: 'test/broken.test.js', message: expect.stringContaining('Cannot find module') }])
    // The test's own output is in the run's output, and never taken for the report.
    expect(result.output).toContain('ok 99 - not a test')
    // c8 around ava: the lines its worker threads ran, the test files left out.
    const [lib] = result.coverage!
    expect(result.coverage).toHaveLength(1)
    expect(lib.file).toBe('lib/add.js')
    expect(lib.coveredLines).toContain(1)
    expect(lib.executableLines).toContain(3)
    expect(lib.coveredLines).not.toContain(3)
  })

  it('stops at the timeout and says which files it did not finish', async () => {
    const result = await run(['test/hangs.test.js'], { timeoutMs: 3000 })
    expect(result.timedOut).toBe(true)
    expect(result.tests).toEqual([])
    expect(result.fileErrors).toEqual([{ file: 'test/hangs.test.js', message: expect.stringContaining('ava timed out after 3000 ms') }])
  })
})

describe('avaAdapter.detect and isTestFile', () => {
  const dirs: string[] = []
  const project = async (files: Record<string, string>) => {
    const dir = await mkdtemp(join(tmpdir(), 'ava-detect-'))
    dirs.push(dir)
    await writeProject(dir, files)
    return dir
  }
  afterAll(() => Promise.all(dirs.map((dir) => rm(dir, { recursive: true, force: true }))))

  it('finds ava by its dependency, its test script or its config file, ahead of node:test', async () => {
    expect((await detectFramework(await project({ 'package.json': JSON.stringify({ devDependencies: { ava: '^7.0.0' } }) }))).name).toBe('ava')
    expect((await detectFramework(await project({ 'package.json': JSON.stringify({ scripts: { test: 'c8 ava --verbose' } }) }))).name).toBe('ava')
    expect(await avaAdapter.detect(await project({ 'package.json': '{}', 'ava.config.js': 'export default {}\n' }))).toBe(true)
    expect(await avaAdapter.detect(await project({ 'package.json': JSON.stringify({ scripts: { test: 'node --test' }, devDependencies: { avaricious: '1' } }) }))).toBe(false)
  })

  it("knows ava's default test files, and not its helpers and fixtures", () => {
    for (const path of ['test.js', 'test/pages.js', 'src/a.spec.mjs', 'lib/test-sum.cjs', 'src/__tests__/x.ts']) expect(avaAdapter.isTestFile(path)).toBe(true)
    for (const path of ['lib/pages.js', 'test/helpers/db.js', 'test/fixtures/a.js', 'test/_setup.js', 'node_modules/x/test/a.js', 'test/readme.md']) expect(avaAdapter.isTestFile(path)).toBe(false)
  })
})
