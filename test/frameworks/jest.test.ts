import { mkdir, mkdtemp, rm, symlink, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { dirname, join, resolve } from 'node:path'
import { jestAdapter } from '../../src/frameworks/jest.js'
import { createProcessRunner } from '../../src/ports/process.js'

const OUR_NODE_MODULES = resolve('node_modules')

const FILES: Record<string, string> = {
  'package.json': JSON.stringify({ name: 'tiny', version: '1.0.0', scripts: { test: 'jest' }, devDependencies: { jest: '*' } }),
  'src/add.js': 'exports.add = (a, b) => a + b\n',
  'test/add.test.js': `
const { add } = require('../src/add')

describe('add', () => {
  it('adds two numbers', () => {
    expect(add(1, 2)).toBe(3)
  })
  it('is wrong on purpose', () => {
    expect(add(1, 2)).toBe(4)
  })
  it.skip('is not run', () => {
    expect(true).toBe(false)
  })
})
`,
  'test/broken.test.js': "const { add } = require('../src/add')\n\ntest('never runs', () => { expect(add(1, 1)).toBe(2) \n"
}

async function writeProject(dir: string, files: Record<string, string>): Promise<void> {
  for (const [path, content] of Object.entries(files)) {
    await mkdir(dirname(join(dir, path)), { recursive: true })
    await writeFile(join(dir, path), content)
  }
}

describe('jestAdapter.run', () => {
  let treeDir: string
  let scratchDir: string

  beforeAll(async () => {
    treeDir = await mkdtemp(join(tmpdir(), 'jest-adapter-tree-'))
    scratchDir = await mkdtemp(join(tmpdir(), 'jest-adapter-scratch-'))
    await writeProject(treeDir, FILES)
    await symlink(OUR_NODE_MODULES, join(treeDir, 'node_modules'), 'dir')
  })

  afterAll(async () => {
    await rm(treeDir, { recursive: true, force: true })
    await rm(scratchDir, { recursive: true, force: true })
  })

  it('collects per-line coverage of the code the tests load, when asked', async () => {
    const result = await jestAdapter.run({ treeDir, files: ['test/add.test.js'], scratchDir, timeoutMs: 60000, coverage: true }, createProcessRunner())
    expect(result.coverage).toEqual([{ file: 'src/add.js', executableLines: [1], coveredLines: [1] }])
    const without = await jestAdapter.run({ treeDir, files: ['test/add.test.js'], scratchDir, timeoutMs: 60000 }, createProcessRunner())
    expect(without.coverage).toBeUndefined()
  })

  it("runs the repository's own test command, with its variables, adding the reporter flags", async () => {
    const command = ['TZ=Pacific/Chatham', process.execPath, 'node_modules/jest/bin/jest.js', '{files}', '--testNamePattern', 'adds']
    await writeProject(treeDir, { 'test/tz.test.js': "test('sees TZ', () => { expect(process.env.TZ).toBe('Pacific/Chatham') })\n" })
    const result = await jestAdapter.run({ treeDir, files: ['test/tz.test.js', 'test/add.test.js'], scratchDir, timeoutMs: 60000, command }, createProcessRunner())
    expect(result.tests.filter((test) => test.status === 'passed').map((test) => test.name)).toEqual(['add › adds two numbers'])
    const all = await jestAdapter.run({ treeDir, files: ['test/tz.test.js'], scratchDir, timeoutMs: 60000, command: command.slice(0, 4) }, createProcessRunner())
    expect(all.tests).toEqual([expect.objectContaining({ name: 'sees TZ', status: 'passed' })])
  })

  it('reads per-test results and file errors from the JSON report', async () => {
    const files = ['test/add.test.js', 'test/broken.test.js']
    const result = await jestAdapter.run({ treeDir, files, scratchDir, timeoutMs: 60000 }, createProcessRunner())

    expect(result.timedOut).toBe(false)
    expect(result.exitCode).toBe(1)
    expect(result.tests.map(({ file, name, status }) => ({ file, name, status }))).toEqual([
      { file: 'test/add.test.js', name: 'add › adds two numbers', status: 'passed' },
      { file: 'test/add.test.js', name: 'add › is wrong on purpose', status: 'failed' },
      { file: 'test/add.test.js', name: 'add › is not run', status: 'skipped' }
    ])
    const [passed, failed] = result.tests
    expect(passed.message).toBe('')
    expect(typeof passed.durationMs).toBe('number')
    expect(failed.message).toContain('Expected: 4')
    expect(failed.message).toContain('Received: 3')
    expect(failed.message).not.toMatch(/\u001b\[/)

    expect(result.fileErrors).toHaveLength(1)
    expect(result.fileErrors[0].file).toBe('test/broken.test.js')
    expect(result.fileErrors[0].message).toContain('SyntaxError')
    expect(result.fileErrors[0].message).not.toContain("Here's what you can do")
    expect(result.fileErrors[0].message).not.toMatch(/\u001b\[/)
    expect(result.output).toContain('add.test.js')
  })

  it('reports a requested file jest did not run', async () => {
    await writeProject(treeDir, { 'test/helper.js': 'module.exports = {}\n' })
    const result = await jestAdapter.run({ treeDir, files: ['test/add.test.js', 'test/helper.js'], scratchDir, timeoutMs: 60000 }, createProcessRunner())
    expect(result.tests).toHaveLength(3)
    expect(result.fileErrors).toEqual([{ file: 'test/helper.js', message: expect.stringContaining('did not run') }])
  })

  it('puts every file in fileErrors when jest is not installed', async () => {
    const bare = await mkdtemp(join(tmpdir(), 'jest-adapter-bare-'))
    try {
      const result = await jestAdapter.run({ treeDir: bare, files: ['a.test.js'], scratchDir, timeoutMs: 60000 }, createProcessRunner())
      expect(result.tests).toEqual([])
      expect(result.fileErrors).toEqual([{ file: 'a.test.js', message: expect.stringContaining('jest is not installed') }])
    } finally {
      await rm(bare, { recursive: true, force: true })
    }
  })

  it('puts every file in fileErrors with the output tail when jest times out', async () => {
    await writeProject(treeDir, { 'test/slow.test.js': "test('hangs', () => new Promise(() => {}), 600000)\n" })
    const result = await jestAdapter.run({ treeDir, files: ['test/slow.test.js'], scratchDir, timeoutMs: 3000 }, createProcessRunner())
    expect(result.timedOut).toBe(true)
    expect(result.tests).toEqual([])
    expect(result.fileErrors).toEqual([{ file: 'test/slow.test.js', message: expect.stringContaining('timed out') }])
  })
})

describe('jestAdapter.detect', () => {
  const cases: Array<[string, boolean, Record<string, string>]> = [
    ['a jest devDependency', true, { 'package.json': JSON.stringify({ devDependencies: { jest: '^30.0.0' } }) }],
    ['a jest dependency', true, { 'package.json': JSON.stringify({ dependencies: { jest: '^29.0.0' } }) }],
    ['a test script running jest', true, { 'package.json': JSON.stringify({ scripts: { test: 'NODE_OPTIONS=x jest --ci' } }) }],
    ['a jest.config.ts', true, { 'package.json': '{}', 'jest.config.ts': 'export default {}' }],
    ['a jest.config.json without package.json', true, { 'jest.config.json': '{}' }],
    ['a vitest project', false, { 'package.json': JSON.stringify({ devDependencies: { vitest: '1' }, scripts: { test: 'vitest' } }) }],
    ['no package.json', false, {}]
  ]

  it.each(cases)('%s → %s', async (_label, expected, files) => {
    const dir = await mkdtemp(join(tmpdir(), 'jest-detect-'))
    try {
      await writeProject(dir, files)
      expect(await jestAdapter.detect(dir)).toBe(expected)
    } finally {
      await rm(dir, { recursive: true, force: true })
    }
  })
})

describe('jestAdapter.isTestFile', () => {
  it.each([
    'src/__tests__/add.js',
    '__tests__/deep/add.tsx',
    'test/add.test.ts',
    'src/add.spec.jsx',
    'lib/x.test.mjs',
    'lib/x.spec.cjs',
    'test.js',
    'a/b/c.unit.test.ts'
  ])('%s is a test file', (path) => {
    expect(jestAdapter.isTestFile(path)).toBe(true)
  })

  it.each([
    'src/add.ts',
    'src/__tests__/fixture.json',
    'src/latest.js',
    'src/add.test.py',
    'src/add.testing.js',
    'node_modules/pkg/a.test.js',
    '__tests__.js'
  ])('%s is not a test file', (path) => {
    expect(jestAdapter.isTestFile(path)).toBe(false)
  })
})
