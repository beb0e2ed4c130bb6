import { mkdir, mkdtemp, rm, symlink, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { dirname, join, resolve } from 'node:path'
import { vitestAdapter } from '../../src/frameworks/vitest.js'
import { createProcessRunner, type ProcessRequest, type ProcessRunner } from '../../src/ports/process.js'

const OUR_NODE_MODULES = resolve('node_modules')

const FILES: Record<string, string> = {
  'package.json': JSON.stringify({ name: 'tiny', version: '1.0.0', type: 'module', scripts: { test: 'vitest' }, devDependencies: { vitest: '*' } }),
  'vitest.config.ts': "import { defineConfig } from 'vitest/config'\n\nexport default defineConfig({ test: { include: ['test/**/*.test.ts'] } })\n",
  'src/add.ts': 'export const add = (a: number, b: number): number => a + b\n',
  'test/add.test.ts': `import { describe, expect, it } from 'vitest'
import { add } from '../src/add.js'

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
  it.todo('is still to write')
  describe('nested', () => {
    it('adds zero', () => {
      expect(add(2, 0)).toBe(2)
    })
  })
})
`,
  'test/broken.test.ts': "import { add } from '../src/add.js'\n\ntest('never runs', () => { expect(add(1, 1)).toBe(2)\n",
  'test/missing.test.ts': "import { it } from 'vitest'\nimport { subtract } from '../src/subtract.js'\n\nit('never runs', () => subtract(2, 1))\n",
  'test/collect.test.ts': "import { describe, it } from 'vitest'\n\ndescribe('d', () => {\n  it('a', () => {})\n  throw new Error('collection exploded')\n})\n",
  'test/hook.test.ts': `import { beforeAll, describe, expect, it } from 'vitest'

describe('with a broken setup', () => {
  beforeAll(() => {
    throw new Error('setup exploded')
  })
  it('needs the setup', () => {
    expect(1).toBe(1)
  })
})
it('runs anyway', () => {
  expect(1).toBe(1)
})
`,
  'test/teardown.test.ts': "import { afterAll, expect, it } from 'vitest'\n\nafterAll(() => {\n  throw new Error('teardown exploded')\n})\nit('passes', () => {\n  expect(1).toBe(1)\n})\n"
}

async function writeProject(dir: string, files: Record<string, string>): Promise<void> {
  for (const [path, content] of Object.entries(files)) {
    await mkdir(dirname(join(dir, path)), { recursive: true })
    await writeFile(join(dir, path), content)
  }
}

const summary = (tests: Array<{ file: string; name: string; status: string }>) => tests.map(({ file, name, status }) => ({ file, name, status }))

describe('vitestAdapter.run', () => {
  let treeDir: string
  let scratchDir: string

  beforeAll(async () => {
    treeDir = await mkdtemp(join(tmpdir(), 'vitest-adapter-tree-'))
    scratchDir = await mkdtemp(join(tmpdir(), 'vitest-adapter-scratch-'))
    await writeProject(treeDir, FILES)
    await symlink(OUR_NODE_MODULES, join(treeDir, 'node_modules'), 'dir')
  })

  afterAll(async () => {
    await rm(treeDir, { recursive: true, force: true })
    await rm(scratchDir, { recursive: true, force: true })
  })

  it('reads per-test results from the JSON report', async () => {
    const result = await vitestAdapter.run({ treeDir, files: ['test/add.test.ts'], scratchDir, timeoutMs: 60000 }, createProcessRunner())

    expect(result.timedOut).toBe(false)
    expect(result.exitCode).toBe(1)
    expect(summary(result.tests)).toEqual([
      { file: 'test/add.test.ts', name: 'add › adds two numbers', status: 'passed' },
      { file: 'test/add.test.ts', name: 'add › is wrong on purpose', status: 'failed' },
      { file: 'test/add.test.ts', name: 'add › is not run', status: 'skipped' },
      { file: 'test/add.test.ts', name: 'add › is still to write', status: 'skipped' },
      { file: 'test/add.test.ts', name: 'add › nested › adds zero', status: 'passed' }
    ])
    const [passed, failed] = result.tests
    expect(passed.message).toBe('')
    expect(Number.isInteger(passed.durationMs)).toBe(true)
    expect(failed.message).toContain('expected 3 to be 4')
    expect(failed.message).toContain('test/add.test.ts:9:')
    // vitest's own frames are noise in a repair prompt.
    expect(failed.message).not.toContain('node_modules')
    expect(failed.message).not.toMatch(/\u001b\[/)
    expect(result.fileErrors).toEqual([])
    // The human output is there too, for logs and prompts.
    expect(result.output).toContain('is wrong on purpose')
  })

  it('runs again without --includeTaskLocation where the installed vitest keeps it off the command line (2.0)', async () => {
    // vitest 2.0's own refusal, in front of the real vitest: the same words, the same exit.
    // Outside the tree: the coverage test below measures every file the tree holds.
    const refuser = join(await mkdtemp(join(tmpdir(), 'vitest-2.0-')), 'vitest.cjs')
    await writeFile(
      refuser,
      "const args = process.argv.slice(2)\nif (args.includes('--includeTaskLocation')) { console.error('CACError: Unknown option `--includeTaskLocation`'); process.exit(1) }\n" +
        `require('node:child_process').spawnSync(process.execPath, [${JSON.stringify(join(OUR_NODE_MODULES, 'vitest', 'vitest.mjs'))}, ...args], { stdio: 'inherit' })\n`
    )
    const calls: string[][] = []
    const processes = createProcessRunner()
    const recording: ProcessRunner = { run: (request: ProcessRequest) => (calls.push(request.args), processes.run(request)) }
    const command = [process.execPath, refuser, 'run', '{files}']
    const result = await vitestAdapter.run({ treeDir, files: ['test/add.test.ts'], scratchDir, timeoutMs: 60000, command }, recording)
    expect(calls.map((args) => args.includes('--includeTaskLocation'))).toEqual([true, false])
    expect(summary(result.tests)).toContainEqual({ file: 'test/add.test.ts', name: 'add › adds two numbers', status: 'passed' })
  })

  it('reports files that could not load or collect as file errors', async () => {
    const files = ['test/broken.test.ts', 'test/missing.test.ts', 'test/collect.test.ts']
    const result = await vitestAdapter.run({ treeDir, files, scratchDir, timeoutMs: 60000 }, createProcessRunner())
    expect(result.tests).toEqual([])
    const messages = Object.fromEntries(result.fileErrors.map((error) => [error.file, error.message]))
    expect(Object.keys(messages).sort()).toEqual([...files].sort())
    expect(messages['test/broken.test.ts']).toMatch(/Transform failed|Unexpected end of file/)
    expect(messages['test/missing.test.ts']).toContain('../src/subtract.js')
    expect(messages['test/collect.test.ts']).toContain('collection exploded')
  })

  it('counts tests that a failed hook kept from running as errored, and a failed teardown as a file error', async () => {
    const result = await vitestAdapter.run({ treeDir, files: ['test/hook.test.ts', 'test/teardown.test.ts'], scratchDir, timeoutMs: 60000 }, createProcessRunner())
    expect(summary(result.tests)).toEqual([
      { file: 'test/hook.test.ts', name: 'with a broken setup › needs the setup', status: 'errored' },
      { file: 'test/hook.test.ts', name: 'runs anyway', status: 'passed' },
      { file: 'test/teardown.test.ts', name: 'passes', status: 'passed' }
    ])
    expect(result.tests[0].message).toContain('hook or suite')
    expect(result.fileErrors).toEqual([{ file: 'test/teardown.test.ts', message: 'teardown exploded' }])
  })

  it('collects per-line coverage of the code the tests load, when asked', async () => {
    const result = await vitestAdapter.run({ treeDir, files: ['test/add.test.ts'], scratchDir, timeoutMs: 60000, coverage: true }, createProcessRunner())
    // Written even though a test failed: the pre-fix tree's runs fail by design.
    expect(result.coverage).toEqual([{ file: 'src/add.ts', executableLines: [1], coveredLines: [1] }])
    const without = await vitestAdapter.run({ treeDir, files: ['test/add.test.ts'], scratchDir, timeoutMs: 60000 }, createProcessRunner())
    expect(without.coverage).toBeUndefined()
  })

  it('runs without coverage, rather than failing, when the tree has no coverage provider', async () => {
    const bare = await mkdtemp(join(tmpdir(), 'vitest-adapter-nocov-'))
    try {
      await writeProject(bare, { 'package.json': FILES['package.json'], 'src/add.ts': FILES['src/add.ts'], 'test/add.test.ts': FILES['test/add.test.ts'] })
      await mkdir(join(bare, 'node_modules'))
      await symlink(join(OUR_NODE_MODULES, 'vitest'), join(bare, 'node_modules', 'vitest'), 'dir')
      const result = await vitestAdapter.run({ treeDir: bare, files: ['test/add.test.ts'], scratchDir, timeoutMs: 60000, coverage: true }, createProcessRunner())
      expect(result.coverage).toBeUndefined()
      expect(result.tests).toHaveLength(5)
    } finally {
      await rm(bare, { recursive: true, force: true })
    }
  })

  it('keeps only the requested files, though vitest matches its filters as substrings', async () => {
    await writeProject(treeDir, {
      'test/helper.ts': 'export {}\n',
      'test/other/test/add.test.ts': "import { it } from 'vitest'\n\nit('is not asked for', () => {})\n"
    })
    const result = await vitestAdapter.run({ treeDir, files: ['test/add.test.ts', 'test/helper.ts'], scratchDir, timeoutMs: 60000 }, createProcessRunner())
    expect(new Set(result.tests.map((test) => test.file))).toEqual(new Set(['test/add.test.ts']))
    expect(result.fileErrors).toEqual([{ file: 'test/helper.ts', message: expect.stringContaining('did not run') }])
    await rm(join(treeDir, 'test/other'), { recursive: true, force: true })
  })

  it("runs the repository's own test command, with its variables, adding the reporter flags", async () => {
    await writeProject(treeDir, { 'test/tz.test.ts': "import { expect, test } from 'vitest'\n\ntest('sees TZ', () => { expect(process.env.TZ).toBe('Pacific/Chatham') })\n" })
    const command = ['TZ=Pacific/Chatham', process.execPath, 'node_modules/vitest/vitest.mjs', 'run', '{files}', '--testNamePattern', 'adds']
    const result = await vitestAdapter.run({ treeDir, files: ['test/tz.test.ts', 'test/add.test.ts'], scratchDir, timeoutMs: 60000, command }, createProcessRunner())
    expect(result.tests.filter((test) => test.status === 'passed').map((test) => test.name)).toEqual(['add › adds two numbers', 'add › nested › adds zero'])
    const all = await vitestAdapter.run({ treeDir, files: ['test/tz.test.ts'], scratchDir, timeoutMs: 60000, command: command.slice(0, 5) }, createProcessRunner())
    expect(all.tests).toEqual([expect.objectContaining({ name: 'sees TZ', status: 'passed' })])
  })

  it('reads the report of vitest 0.x: an unnamed file suite, pending tests, file errors on files marked passed', async () => {
    // The shape vitest 0.33 writes for these cases (captured from a real run, trimmed).
    const assertion = (ancestorTitles: string[], title: string, status: string) => ({ ancestorTitles, title, status, failureMessages: [] })
    const report = {
      testResults: [
        { name: join(treeDir, 'test/add.test.ts'), status: 'passed', message: '', assertionResults: [assertion(['', 'add'], 'adds two numbers', 'passed'), assertion(['', 'add'], 'is not run', 'skipped')] },
        { name: join(treeDir, 'test/hook.test.ts'), status: 'passed', message: 'setup exploded', assertionResults: [assertion([''], 'needs the setup', 'pending')] },
        { name: join(treeDir, 'test/missing.test.ts'), status: 'passed', message: 'Failed to load url ../src/subtract.js', assertionResults: [] }
      ]
    }
    const requests: ProcessRequest[] = []
    const fake: ProcessRunner = {
      async run(request) {
        requests.push(request)
        const outputFile = request.args.find((arg) => arg.startsWith('--outputFile='))!.slice('--outputFile='.length)
        await writeFile(outputFile, JSON.stringify(report))
        return { exitCode: 1, signal: null, timedOut: false, output: '', stdout: '', durationMs: 5 }
      }
    }
    const files = ['test/add.test.ts', 'test/hook.test.ts', 'test/missing.test.ts']
    const result = await vitestAdapter.run({ treeDir, files, scratchDir, timeoutMs: 60000 }, fake)
    // The files before the flags: vitest 0.x would take a file after a flag it does not know as its value.
    expect(requests[0].args.slice(1, 5)).toEqual(['run', ...files])
    expect(summary(result.tests)).toEqual([
      { file: 'test/add.test.ts', name: 'add › adds two numbers', status: 'passed' },
      { file: 'test/add.test.ts', name: 'add › is not run', status: 'skipped' },
      { file: 'test/hook.test.ts', name: 'needs the setup', status: 'errored' }
    ])
    expect(result.tests[2].message).toBe('setup exploded')
    expect(result.fileErrors).toEqual([{ file: 'test/missing.test.ts', message: 'Failed to load url ../src/subtract.js' }])
  })

  it('puts every file in fileErrors when vitest is not installed', async () => {
    const bare = await mkdtemp(join(tmpdir(), 'vitest-adapter-bare-'))
    try {
      const result = await vitestAdapter.run({ treeDir: bare, files: ['a.test.ts'], scratchDir, timeoutMs: 60000 }, createProcessRunner())
      expect(result.tests).toEqual([])
      expect(result.fileErrors).toEqual([{ file: 'a.test.ts', message: expect.stringContaining('vitest is not installed') }])
    } finally {
      await rm(bare, { recursive: true, force: true })
    }
  })

  it('puts every file in fileErrors with the output tail when vitest times out', async () => {
    await writeProject(treeDir, { 'test/slow.test.ts': "import { test } from 'vitest'\n\ntest('hangs', () => new Promise(() => {}), 600000)\n" })
    const result = await vitestAdapter.run({ treeDir, files: ['test/slow.test.ts'], scratchDir, timeoutMs: 4000 }, createProcessRunner())
    expect(result.timedOut).toBe(true)
    expect(result.tests).toEqual([])
    expect(result.fileErrors).toEqual([{ file: 'test/slow.test.ts', message: expect.stringContaining('timed out') }])
  })
})

describe('vitestAdapter.detect', () => {
  const cases: Array<[string, boolean, Record<string, string>]> = [
    ['a vitest devDependency', true, { 'package.json': JSON.stringify({ devDependencies: { vitest: '^3.2.0' } }) }],
    ['a vitest dependency', true, { 'package.json': JSON.stringify({ dependencies: { vitest: '^0.33.0' } }) }],
    ['a test script running vitest', true, { 'package.json': JSON.stringify({ scripts: { test: 'vitest run --coverage' } }) }],
    ['a vitest.config.mts', true, { 'package.json': '{}', 'vitest.config.mts': 'export default {}' }],
    ['a vite.config.ts with a test section', true, { 'package.json': '{}', 'vite.config.ts': "export default defineConfig({\n  test: { environment: 'node' }\n})\n" }],
    ['a vite.config.ts without one', false, { 'package.json': '{}', 'vite.config.ts': 'export default defineConfig({ plugins: [] })\n' }],
    ['a test script running jest, with vitest installed too', false, { 'package.json': JSON.stringify({ scripts: { test: 'jest' }, devDependencies: { jest: '30', vitest: '3' } }) }],
    ['a jest project', false, { 'package.json': JSON.stringify({ devDependencies: { jest: '^30.0.0' } }) }],
    ['no package.json', false, {}]
  ]

  it.each(cases)('%s → %s', async (_label, expected, files) => {
    const dir = await mkdtemp(join(tmpdir(), 'vitest-detect-'))
    try {
      await writeProject(dir, files)
      expect(await vitestAdapter.detect(dir)).toBe(expected)
    } finally {
      await rm(dir, { recursive: true, force: true })
    }
  })
})

describe('vitestAdapter.isTestFile', () => {
  it.each(['test/add.test.ts', 'src/add.spec.tsx', 'lib/x.test.mjs', 'lib/x.spec.cts', 'a/b/c.unit.test.js', 'add.test.jsx'])('%s is a test file', (path) => {
    expect(vitestAdapter.isTestFile(path)).toBe(true)
  })

  it.each([
    'src/add.ts',
    'src/__tests__/add.ts',
    'test/add.test.py',
    'test/add.testing.ts',
    'test/fixture.test.json',
    'node_modules/pkg/a.test.js',
    'dist/add.test.js',
    'packages/a/dist/add.test.js',
    'vite.config.test.ts'
  ])('%s is not a test file', (path) => {
    expect(vitestAdapter.isTestFile(path)).toBe(false)
  })
})
