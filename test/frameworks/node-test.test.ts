import { mkdir, mkdtemp, rm, symlink, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { dirname, join, resolve } from 'node:path'
import { nodeTestScript } from '../../src/frameworks/node-test-args.js'
import { nodeTestAdapter, userInvocation } from '../../src/frameworks/node-test.js'
import { createProcessRunner, type ProcessRunner } from '../../src/ports/process.js'

const OUR_NODE_MODULES = resolve('node_modules')
const runner = createProcessRunner()

const FILES: Record<string, string> = {
  // The script's file pattern and reporter must not reach the run; its variable and node flags must.
  'package.json': JSON.stringify({
    name: 'tiny',
    type: 'module',
    scripts: { test: 'TZ=Pacific/Chatham node --import ./test/setup.js --test --test-concurrency=1 --test-reporter=dot' }
  }),
  'test/setup.js': 'globalThis.setupRan = true\n',
  'lib/add.js': '// Sums two numbers.\nexport function add(a, b) {\n  return a + b\n}\n\nexport function unused() {\n  return 0\n}\n',
  'test/add.test.js': `import { describe, it, test } from 'node:test'
import assert from 'node:assert/strict'
import { add } from '../lib/add.js'

describe('add', () => {
  it('adds two numbers', () => {
    assert.equal(add(1, 2), 3)
  })
  it('is wrong on purpose', () => {
    assert.equal(add(1, 2), 4)
  })
  it.skip('is not run', () => {
    assert.fail('skipped')
  })
  it.todo('handles bigints')
  describe('nested', () => {
    it('sees the script variable and setup', () => {
      assert.equal(process.env.TZ, 'Pacific/Chatham')
      assert.equal(globalThis.setupRan, true)
    })
    test('with subtests', async (t) => {
      await t.test('first', () => {})
      await t.test('second', () => {
        throw new Error('second broke')
      })
    })
  })
})
test('at the root', () => {})
`,
  'test/broken.test.js': "import { test } from 'node:test'\ntest('never runs', () => {}\n",
  'test/hook.test.js': `import { before, describe, it } from 'node:test'
describe('with a broken setup', () => {
  before(() => {
    throw new Error('setup exploded')
  })
  it('needs the setup', () => {})
})
`,
  'test/after.test.js': `import { after, describe, it } from 'node:test'
describe('with a broken teardown', () => {
  after(() => {
    throw new Error('teardown exploded')
  })
  it('passes itself', () => {})
})
`,
  'test/empty.test.js': '// no tests here\n',
  'test/quotes.test.js': "import { test } from 'node:test'\ntest('reads \"quoted\" <fields> & more', () => {})\n"
}

async function writeProject(dir: string, files: Record<string, string>): Promise<void> {
  for (const [path, content] of Object.entries(files)) {
    await mkdir(dirname(join(dir, path)), { recursive: true })
    await writeFile(join(dir, path), content)
  }
}

async function withProject<T>(files: Record<string, string>, use: (dir: string) => Promise<T>): Promise<T> {
  const dir = await mkdtemp(join(tmpdir(), 'node-test-project-'))
  try {
    await writeProject(dir, files)
    await symlink(OUR_NODE_MODULES, join(dir, 'node_modules'), 'dir')
    return await use(dir)
  } finally {
    await rm(dir, { recursive: true, force: true })
  }
}

/** Real processes, except that the probe of node's test runner answers as the given (older) node would. */
function runnerAnswering(version: string, reporters: string[]): ProcessRunner {
  return {
    run: async (request) => {
      if (!request.args.includes('-p')) return runner.run(request)
      return { exitCode: 0, signal: null, timedOut: false, output: `${JSON.stringify({ version, reporters })}\n`, stdout: `${JSON.stringify({ version, reporters })}\n`, durationMs: 1 }
    }
  }
}

describe('nodeTestAdapter.run', () => {
  let treeDir: string
  let scratchDir: string
  const run = (files: string[], extra: { coverage?: boolean; command?: string[]; timeoutMs?: number } = {}, processes = runner) =>
    nodeTestAdapter.run({ treeDir, files, scratchDir, timeoutMs: extra.timeoutMs ?? 60000, ...extra }, processes)

  beforeAll(async () => {
    treeDir = await mkdtemp(join(tmpdir(), 'node-test-adapter-tree-'))
    scratchDir = await mkdtemp(join(tmpdir(), 'node-test-adapter-scratch-'))
    await writeProject(treeDir, FILES)
    await symlink(OUR_NODE_MODULES, join(treeDir, 'node_modules'), 'dir')
  })

  afterAll(async () => {
    await rm(treeDir, { recursive: true, force: true })
    await rm(scratchDir, { recursive: true, force: true })
  })

  it("reads nested, skipped and todo tests from the JUnit report, with the test script's flags and variables", async () => {
    const result = await run(['test/add.test.js'])
    expect(result.timedOut).toBe(false)
    expect(result.exitCode).toBe(1)
    expect(result.fileErrors).toEqual([])
    expect(result.tests.map(({ file, name, status }) => ({ file, name, status }))).toEqual([
      { file: 'test/add.test.js', name: 'add › adds two numbers', status: 'passed' },
      { file: 'test/add.test.js', name: 'add › is wrong on purpose', status: 'failed' },
      { file: 'test/add.test.js', name: 'add › is not run', status: 'skipped' },
      { file: 'test/add.test.js', name: 'add › handles bigints', status: 'skipped' },
      { file: 'test/add.test.js', name: 'add › nested › sees the script variable and setup', status: 'passed' },
      { file: 'test/add.test.js', name: 'add › nested › with subtests › first', status: 'passed' },
      { file: 'test/add.test.js', name: 'add › nested › with subtests › second', status: 'failed' },
      { file: 'test/add.test.js', name: 'at the root', status: 'passed' }
    ])
    const [passed, failed, skipped, , , , subtest] = result.tests
    expect(passed).toMatchObject({ message: '', durationMs: expect.any(Number) })
    expect(skipped.durationMs).toBeNull()
    expect(failed.message).toMatch(/^AssertionError \[ERR_ASSERTION\]: Expected values to be strictly equal:\n\n3 !== 4/)
    // The test's own frame, as a path; node's frames are noise.
    expect(failed.message).toContain(`${join(treeDir, 'test/add.test.js')}:10:`)
    expect(failed.message).not.toMatch(/node:internal|node:async_hooks|file:\/\//)
    expect(subtest.message).toMatch(/^Error: second broke\n/)
    // Human output for logs and prompts: the spec reporter, not the script's dot reporter.
    expect(result.output).toContain('✖ is wrong on purpose')
  })

  it('runs each file alone: one that cannot load is a file error, the others still report', async () => {
    const result = await run(['test/broken.test.js', 'test/add.test.js'])
    expect(result.tests.filter((test) => test.file === 'test/add.test.js')).toHaveLength(8)
    expect(result.fileErrors).toEqual([{ file: 'test/broken.test.js', message: expect.stringContaining('SyntaxError: missing ) after argument list') }])
    expect(result.fileErrors[0].message).toMatch(/^The file failed to load/)
    expect(result.fileErrors[0].message).not.toMatch(/node:internal/)
    expect(result.output).toContain('── test/broken.test.js ──')
  })

  it('reports tests a failed hook kept from running as errored, and a failure outside any test as a file error', async () => {
    const hook = await run(['test/hook.test.js'])
    expect(hook.tests).toEqual([expect.objectContaining({ name: 'with a broken setup › needs the setup', status: 'errored' })])
    // The JUnit report shows a failed `after` hook nowhere: only the file's exit code does.
    const after = await run(['test/after.test.js'])
    expect(after.tests).toEqual([expect.objectContaining({ name: 'with a broken teardown › passes itself', status: 'passed' })])
    expect(after.fileErrors).toEqual([{ file: 'test/after.test.js', message: expect.stringMatching(/^A suite, a hook or the file itself failed outside its tests \(exit 1\)/) }])
    expect(after.fileErrors[0].message).toContain('teardown exploded')
  })

  it('reports a file without tests, and decodes names', async () => {
    const result = await run(['test/empty.test.js', 'test/quotes.test.js'])
    expect(result.tests.map(({ file, name, status }) => ({ file, name, status }))).toEqual([
      { file: 'test/quotes.test.js', name: 'reads "quoted" <fields> & more', status: 'passed' }
    ])
    expect(result.fileErrors).toEqual([{ file: 'test/empty.test.js', message: expect.stringContaining('ran no test') }])
  })

  it("collects per-line coverage from node's lcov reporter when asked, and none otherwise", async () => {
    const result = await run(['test/add.test.js'], { coverage: true })
    expect(result.tests).toHaveLength(8)
    // Comments, blank lines and closing braces are no code, though node counts them.
    expect(result.coverage).toContainEqual({ file: 'lib/add.js', executableLines: [2, 3, 6, 7], coveredLines: [2, 3, 6] })
    expect(result.coverage!.every((entry) => !entry.file.startsWith('/') && !entry.file.includes('node_modules'))).toBe(true)
    const without = await run(['test/add.test.js'])
    expect(without.coverage).toBeUndefined()
  })

  it('measures coverage with c8 when the node has no lcov reporter', async () => {
    const result = await run(['test/add.test.js'], { coverage: true }, runnerAnswering('v20.9.0', ['dot', 'junit', 'spec', 'tap']))
    expect(result.tests).toHaveLength(8)
    expect(result.coverage).toContainEqual({ file: 'lib/add.js', executableLines: [2, 3, 6, 7], coveredLines: [2, 3, 6] })
  })

  it("runs the repository's own test command, its reporter replaced, our flags right after --test", async () => {
    const command = ['TZ=Pacific/Chatham', process.execPath, '--import', './test/setup.js', '--test', '--test-reporter', 'tap', '{files}']
    const result = await run(['test/add.test.js'], { command })
    expect(result.fileErrors).toEqual([])
    expect(result.tests).toHaveLength(8)
    expect(result.tests.find((test) => test.name.endsWith('sees the script variable and setup'))?.status).toBe('passed')
  })

  it('gives every file a timeout error once the time limit is used up', async () => {
    await writeProject(treeDir, { 'test/slow.test.js': "import { test } from 'node:test'\ntest('hangs', async () => { setInterval(() => {}, 1000); await new Promise(() => {}) })\n" })
    const result = await run(['test/slow.test.js', 'test/add.test.js'], { timeoutMs: 3000 })
    expect(result.timedOut).toBe(true)
    expect(result.tests).toEqual([])
    expect(result.fileErrors).toEqual([
      { file: 'test/slow.test.js', message: expect.stringContaining('node --test timed out after') },
      { file: 'test/add.test.js', message: expect.stringContaining('not run: the files before it used up the 3000 ms time limit') }
    ])
  })

  it('says so when the node has no junit reporter for node:test', async () => {
    const result = await run(['test/add.test.js'], {}, runnerAnswering('v18.12.0', ['dot', 'spec', 'tap']))
    expect(result.tests).toEqual([])
    expect(result.fileErrors).toEqual([{ file: 'test/add.test.js', message: expect.stringContaining('node v18.12.0') }])
    expect(result.fileErrors[0].message).toContain('has no junit reporter')
  })

  it('runs TypeScript tests through tsx when the test script is tsx --test', async () => {
    const files = {
      'package.json': JSON.stringify({ type: 'module', scripts: { test: 'tsx --test' } }),
      'src/double.ts': 'export const double = (n: number): number => n * 2\n',
      'test/double.test.ts': "import { test } from 'node:test'\nimport assert from 'node:assert/strict'\nimport { double } from '../src/double.js'\n\ntest('doubles', () => {\n  const n: number = 21\n  assert.equal(double(n), 42)\n})\n"
    }
    const result = await withProject(files, (dir) => nodeTestAdapter.run({ treeDir: dir, files: ['test/double.test.ts'], scratchDir, timeoutMs: 60000 }, runner))
    expect(result.fileErrors).toEqual([])
    expect(result.tests).toEqual([expect.objectContaining({ file: 'test/double.test.ts', name: 'doubles', status: 'passed' })])
  })
})

describe('userInvocation', () => {
  const OURS = ['--test-reporter=junit', '--test-reporter-destination=/s/junit.xml']

  it.each([
    [['node', '--test', '--test-reporter=dot', '{files}'], ['--test', ...OURS, 'test/a.test.js']],
    [['node', '--import', 'tsx', '{files}'], ['--test', ...OURS, '--import', 'tsx', 'test/a.test.js']],
    [['node', '--test', '--test-reporter', 'tap', '--test-reporter-destination', 'out.tap'], ['--test', ...OURS, 'test/a.test.js']],
    [['npx', 'tsx', '--test', '{files}'], ['tsx', '--test', ...OURS, 'test/a.test.js']]
  ])('%j → %j', (template, args) => {
    expect(userInvocation(template, 'test/a.test.js', OURS).args).toEqual(args)
  })

  it('keeps leading variables as the environment', () => {
    expect(userInvocation(['TZ=UTC', 'node', '--test', '{files}'], 'a.test.js', OURS)).toEqual({ command: 'node', args: ['--test', ...OURS, 'a.test.js'], env: { TZ: 'UTC' } })
  })
})

describe('nodeTestScript', () => {
  it.each([
    ['TZ=UTC node --import ./setup.js --test --test-concurrency=1 --test-reporter=dot --test-name-pattern=foo', { runner: 'node', flags: ['--import', './setup.js', '--test-concurrency=1'], env: { TZ: 'UTC' } }],
    ["node -r ts-node/register --test --experimental-test-coverage --test-coverage-lines=90 'test/**/*.test.ts'", { runner: 'node', flags: ['-r', 'ts-node/register'], env: {} }],
    ['node --env-file .env.test --enable-source-maps --test --watch test/', { runner: 'node', flags: ['--env-file', '.env.test', '--enable-source-maps'], env: {} }],
    ['c8 --reporter=lcov node --test', { runner: 'node', flags: [], env: {} }],
    ['npm run build && node --test dist/test', { runner: 'node', flags: [], env: {} }],
    ['tsx --test --test-concurrency 1 src', { runner: 'tsx', flags: ['--test-concurrency', '1'], env: {} }],
    ['cross-env NODE_ENV=test node --inspect --test', { runner: 'node', flags: [], env: { NODE_ENV: 'test' } }]
  ])('%s', (script, expected) => {
    expect(nodeTestScript({ test: script })).toEqual(expected)
  })

  it('follows npm run into the script that runs the tests', () => {
    expect(nodeTestScript({ test: 'npm run lint && npm run test:unit', lint: 'eslint .', 'test:unit': 'node --test --test-timeout=5000' })).toEqual({ runner: 'node', flags: ['--test-timeout=5000'], env: {} })
  })

  it.each(['node test/run.js --test', 'mocha', 'node scripts/check.js', 'jest --ci'])('%s runs no node:test', (script) => {
    expect(nodeTestScript({ test: script })).toBeNull()
  })
})

describe('nodeTestAdapter.detect', () => {
  const usesNodeTest = "import { test } from 'node:test'\ntest('x', () => {})\n"
  const cases: Array<[string, boolean, Record<string, string>]> = [
    ['a node --test script', true, { 'package.json': JSON.stringify({ scripts: { test: 'node --test' } }) }],
    ['a script running node with flags before --test', true, { 'package.json': JSON.stringify({ scripts: { test: 'node --import tsx --test src/' } }) }],
    ['a tsx --test script', true, { 'package.json': JSON.stringify({ scripts: { test: 'tsx --test' } }) }],
    ['tests importing node:test and no runner declared', true, { 'package.json': JSON.stringify({ scripts: { test: 'node scripts/run-tests.js' } }), 'test/a.test.mjs': usesNodeTest }],
    ["a test requiring the old name 'test'", true, { 'package.json': '{}', 'lib/parse_test.js': "const test = require('test')\n" }],
    ['tests importing node:test without a package.json', true, { 'test/unit/a.js': usesNodeTest }],
    ['tests importing node:test in a jest project', false, { 'package.json': JSON.stringify({ devDependencies: { jest: '30' } }), 'test/a.test.js': usesNodeTest }],
    ['a test file that does not use node:test', false, { 'package.json': '{}', 'test/a.test.js': "import { test } from 'vitest'\n" }],
    ['node:test only inside node_modules', false, { 'package.json': '{}', 'node_modules/x/test/a.test.js': usesNodeTest }],
    ['a Python project', false, { 'pyproject.toml': '[project]\nname = "x"\n', 'tests/test_x.py': 'def test_x(): pass\n' }]
  ]

  it.each(cases)('%s → %s', async (_label, expected, files) => {
    const dir = await mkdtemp(join(tmpdir(), 'node-test-detect-'))
    try {
      await writeProject(dir, files)
      expect(await nodeTestAdapter.detect(dir)).toBe(expected)
    } finally {
      await rm(dir, { recursive: true, force: true })
    }
  })
})

describe('nodeTestAdapter.isTestFile', () => {
  it.each([
    'test/parse.test.js', 'src/parse.test.mjs', 'lib/parse-test.cjs', 'lib/parse_test.js', 'lib/test-parse.js', 'test.js',
    'test/parse.js', 'test/unit/parse.mjs', 'packages/x/test/y.cjs', 'test/regression/issue-52.test.js', 'src/a.test.ts', 'test/b.mts'
  ])('%s is a test file', (path) => {
    expect(nodeTestAdapter.isTestFile(path)).toBe(true)
  })

  it.each([
    'lib/parse.js', 'src/latest.js', 'tests/parse.js', 'test/setup.js', 'test/helpers/tmp.js', 'test/fixtures/input.js',
    'test/fixtures/sample.test.js', 'test/types.d.ts', 'test/data.json', 'node_modules/pkg/test/a.js', 'test/.eslintrc.js'
  ])('%s is not a test file', (path) => {
    expect(nodeTestAdapter.isTestFile(path)).toBe(false)
  })
})
