import { mkdir, mkdtemp, rm, symlink, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { dirname, join, resolve } from 'node:path'
import { mochaAdapter } from '../../src/frameworks/mocha.js'
import { createProcessRunner } from '../../src/ports/process.js'

const OUR_NODE_MODULES = resolve('node_modules')
const runner = createProcessRunner()

const FILES: Record<string, string> = {
  // The script's spec glob and the config's spec, reporter and bail must not reach the run; the rest must.
  'package.json': JSON.stringify({
    name: 'tiny',
    version: '1.0.0',
    scripts: { test: "TZ=Pacific/Chatham mocha --ui tdd --timeout 4000 'test/**/*.js'" },
    devDependencies: { mocha: '*', c8: '*' }
  }),
  '.mocharc.yml': "spec: 'test/**/*.js'\nrequire: ./test/setup.js\nreporter: dot\nbail: true\n",
  'lib/add.js': 'exports.add = (a, b) => a + b\nexports.unused = () => 0\n',
  'test/setup.js': "global.assert = require('node:assert/strict')\n",
  'test/add.js': `const { add } = require('../lib/add')

suite('add', () => {
  test('adds two numbers', () => {
    assert.equal(add(1, 2), 3)
  })
  test('is wrong on purpose', () => {
    assert.equal(add(1, 2), 4)
  })
  test.skip('is not run', () => {
    assert.fail('skipped')
  })
  suite('nested', () => {
    test('sees the script variable', () => {
      assert.equal(process.env.TZ, 'Pacific/Chatham')
    })
  })
})
test('at the root', () => {})
`,
  'test/broken.js': "suite('broken', () => { test('never runs', () => {})\n",
  'test/hook.js': `suite('with a broken setup', () => {
  setup(() => {
    throw new Error('setup exploded')
  })
  test('needs the setup', () => {})
})
`,
  'test/handle.js': "test('leaves a timer running', () => { setInterval(() => {}, 1000) })\n",
  'test/empty.js': '// no tests here\n'
}

async function writeProject(dir: string, files: Record<string, string>): Promise<void> {
  for (const [path, content] of Object.entries(files)) {
    await mkdir(dirname(join(dir, path)), { recursive: true })
    await writeFile(join(dir, path), content)
  }
}

describe('mochaAdapter.run', () => {
  let treeDir: string
  let scratchDir: string
  const run = (files: string[], extra: { coverage?: boolean; command?: string[]; timeoutMs?: number } = {}) =>
    mochaAdapter.run({ treeDir, files, scratchDir, timeoutMs: extra.timeoutMs ?? 60000, ...extra }, runner)

  beforeAll(async () => {
    treeDir = await mkdtemp(join(tmpdir(), 'mocha-adapter-tree-'))
    scratchDir = await mkdtemp(join(tmpdir(), 'mocha-adapter-scratch-'))
    await writeProject(treeDir, FILES)
    await symlink(OUR_NODE_MODULES, join(treeDir, 'node_modules'), 'dir')
  })

  afterAll(async () => {
    await rm(treeDir, { recursive: true, force: true })
    await rm(scratchDir, { recursive: true, force: true })
  })

  it("reads per-test results from the JSON report, with the script's and the config's flags but only the given files", async () => {
    const result = await run(['test/add.js'])
    expect(result.timedOut).toBe(false)
    expect(result.exitCode).not.toBe(0)
    expect(result.fileErrors).toEqual([])
    expect(result.tests.map(({ file, name, status }) => ({ file, name, status }))).toEqual([
      { file: 'test/add.js', name: 'at the root', status: 'passed' },
      { file: 'test/add.js', name: 'add › adds two numbers', status: 'passed' },
      { file: 'test/add.js', name: 'add › is wrong on purpose', status: 'failed' },
      { file: 'test/add.js', name: 'add › is not run', status: 'skipped' },
      { file: 'test/add.js', name: 'add nested › sees the script variable', status: 'passed' }
    ])
    const [, passed, failed, skipped] = result.tests
    expect(passed).toMatchObject({ message: '', durationMs: expect.any(Number) })
    expect(skipped.durationMs).toBeNull()
    expect(failed.message).toContain('Expected values to be strictly equal')
    expect(failed.message).toContain('3 !== 4')
    expect(failed.message).toContain('test/add.js:')
    // Mocha's and node's own frames are noise.
    expect(failed.message).not.toMatch(/node_modules|node:internal/)
    expect(failed.message).not.toMatch(/\u001b\[/)
  })

  it('runs the files that load, and reports the one that does not as a file error', async () => {
    const result = await run(['test/add.js', 'test/broken.js'])
    expect(result.tests.filter((test) => test.file === 'test/add.js')).toHaveLength(5)
    expect(result.fileErrors).toEqual([{ file: 'test/broken.js', message: expect.stringContaining('SyntaxError') }])
    expect(result.fileErrors[0].message).not.toMatch(/node_modules[\\/]mocha/)
  })

  it('reports the tests a failed hook kept from running as errored, and the file as failing', async () => {
    const result = await run(['test/hook.js'])
    expect(result.tests).toEqual([expect.objectContaining({ name: 'with a broken setup › needs the setup', status: 'errored', message: expect.stringContaining('setup exploded') })])
    expect(result.fileErrors).toEqual([{ file: 'test/hook.js', message: expect.stringContaining('"before each" hook') }])
  })

  it('ends a run whose test leaves a handle open, and reports a file without tests', async () => {
    const result = await run(['test/handle.js', 'test/empty.js'], { timeoutMs: 30000 })
    expect(result.timedOut).toBe(false)
    expect(result.tests).toEqual([expect.objectContaining({ file: 'test/handle.js', status: 'passed' })])
    expect(result.fileErrors).toEqual([{ file: 'test/empty.js', message: expect.stringContaining('ran no test') }])
  })

  it('collects per-line coverage through c8 when asked, and none otherwise', async () => {
    const result = await run(['test/add.js'], { coverage: true })
    expect(result.tests).toHaveLength(5)
    expect(result.coverage).toEqual([{ file: 'lib/add.js', executableLines: [1, 2], coveredLines: [1, 2] }])
    const without = await run(['test/add.js'])
    expect(without.coverage).toBeUndefined()
  })

  it("runs the repository's own test command, with its variables, adding the reporter flags", async () => {
    const command = ['TZ=Pacific/Chatham', process.execPath, 'node_modules/mocha/bin/mocha.js', '--no-config', '--ui', 'tdd', '-r', './test/setup.js', '{files}', '--grep', 'script variable']
    const result = await run(['test/add.js'], { command })
    expect(result.tests.map(({ name, status }) => ({ name, status }))).toEqual([{ name: 'add nested › sees the script variable', status: 'passed' }])
  })

  it('puts every file in fileErrors with the output tail when mocha times out', async () => {
    await writeProject(treeDir, { 'test/slow.js': "test('hangs', () => new Promise(() => {})).timeout(0)\n" })
    const result = await run(['test/slow.js', 'test/add.js'], { timeoutMs: 3000 })
    expect(result.timedOut).toBe(true)
    expect(result.tests).toEqual([])
    expect(result.fileErrors).toEqual([
      { file: 'test/slow.js', message: expect.stringContaining('timed out') },
      { file: 'test/add.js', message: expect.stringContaining('timed out') }
    ])
  })

  it("merges package.json's mocha key with the config the script names, both without their spec", async () => {
    const other = await mkdtemp(join(tmpdir(), 'mocha-adapter-pkg-'))
    try {
      await writeProject(other, {
        'package.json': JSON.stringify({ scripts: { test: 'mocha --config ci.mocharc.json' }, mocha: { require: ['./setup-a.js'], spec: 'test/**/*.js', ui: 'tdd' } }),
        'ci.mocharc.json': JSON.stringify({ require: './setup-b.js', spec: ['test/broken.js'] }),
        '.mocharc.json': JSON.stringify({ require: './not-this-one.js' }),
        'setup-a.js': 'global.A = 1\n',
        'setup-b.js': 'global.B = 2\n',
        'test/both.js': "test('sees both setups', () => { if (global.A !== 1 || global.B !== 2) throw new Error('a setup is missing') })\n",
        'test/broken.js': FILES['test/broken.js']
      })
      await symlink(OUR_NODE_MODULES, join(other, 'node_modules'), 'dir')
      const result = await mochaAdapter.run({ treeDir: other, files: ['test/both.js'], scratchDir, timeoutMs: 60000 }, runner)
      expect(result.fileErrors).toEqual([])
      expect(result.tests).toEqual([expect.objectContaining({ name: 'sees both setups', status: 'passed' })])
    } finally {
      await rm(other, { recursive: true, force: true })
    }
  })

  it('puts every file in fileErrors when mocha is not installed', async () => {
    const bare = await mkdtemp(join(tmpdir(), 'mocha-adapter-bare-'))
    try {
      const result = await mochaAdapter.run({ treeDir: bare, files: ['test/a.js'], scratchDir, timeoutMs: 60000 }, runner)
      expect(result.tests).toEqual([])
      expect(result.fileErrors).toEqual([{ file: 'test/a.js', message: expect.stringContaining('mocha is not installed') }])
    } finally {
      await rm(bare, { recursive: true, force: true })
    }
  })
})

describe('mochaAdapter.detect', () => {
  const cases: Array<[string, boolean, Record<string, string>]> = [
    ['a mocha devDependency', true, { 'package.json': JSON.stringify({ devDependencies: { mocha: '^10.0.0' } }) }],
    ['a mocha dependency', true, { 'package.json': JSON.stringify({ dependencies: { mocha: '^11.0.0' } }) }],
    ['a test script running mocha through c8', true, { 'package.json': JSON.stringify({ scripts: { test: 'c8 --reporter=text mocha test/*.cjs' } }) }],
    ['a test script running _mocha', true, { 'package.json': JSON.stringify({ scripts: { test: 'node ./node_modules/.bin/_mocha' } }) }],
    ['a mocha key in package.json', true, { 'package.json': JSON.stringify({ mocha: { require: 'x' } }) }],
    ['a .mocharc.yml', true, { 'package.json': '{}', '.mocharc.yml': 'spec: test' }],
    ['a .mocharc.cjs without package.json', true, { '.mocharc.cjs': 'module.exports = {}' }],
    ['a jest project', false, { 'package.json': JSON.stringify({ devDependencies: { jest: '30' }, scripts: { test: 'jest' } }) }],
    ['a test script naming mochawesome only', false, { 'package.json': JSON.stringify({ scripts: { test: 'mochawesome-merge' } }) }],
    ['no package.json', false, {}]
  ]

  it.each(cases)('%s → %s', async (_label, expected, files) => {
    const dir = await mkdtemp(join(tmpdir(), 'mocha-detect-'))
    try {
      await writeProject(dir, files)
      expect(await mochaAdapter.detect(dir)).toBe(expected)
    } finally {
      await rm(dir, { recursive: true, force: true })
    }
  })
})

describe('mochaAdapter.isTestFile', () => {
  it.each(['test/parse.js', 'test/unit/parse.cjs', 'tests/parse.mjs', 'test/parse.ts', 'lib/parse.spec.js', 'src/a.test.ts', 'test/regression/issue-37.test.js', 'packages/x/test/y.js', 'test/utils.js'])(
    '%s is a test file',
    (path) => {
      expect(mochaAdapter.isTestFile(path)).toBe(true)
    }
  )

  it.each([
    'lib/parse.js',
    'test/setup.js',
    'test/helpers/make-argv.js',
    'test/fixtures/input.js',
    'test/fixtures/sample.test.js',
    'test/.mocharc.js',
    'test/types.d.ts',
    'test/data.json',
    'node_modules/pkg/test/a.js',
    'testing/a.js'
  ])('%s is not a test file', (path) => {
    expect(mochaAdapter.isTestFile(path)).toBe(false)
  })
})
