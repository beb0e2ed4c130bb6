/**
 * The captured launch, run: per runner, a real fixture whose own test command runs the runner with options
 * that matter (a config outside the root, a loader, an ini, a pattern that selects other files), captured
 * with the plain process runner, turned into a template, and run through the adapter on ONE file. Exactly
 * that file's tests run, and the configuration took effect (a test that only passes under it).
 */
import { existsSync, realpathSync } from 'node:fs'
import { mkdir, mkdtemp, rm, symlink, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { dirname, join } from 'node:path'
import { fileURLToPath } from 'node:url'
import type { RunResult } from '../../src/domain.js'
import type { FrameworkAdapter } from '../../src/frameworks/adapter.js'
import { avaAdapter } from '../../src/frameworks/ava.js'
import { jestAdapter } from '../../src/frameworks/jest.js'
import { mochaAdapter } from '../../src/frameworks/mocha.js'
import { nodeTestAdapter } from '../../src/frameworks/node-test.js'
import { pytestAdapter } from '../../src/frameworks/pytest.js'
import { vitestAdapter } from '../../src/frameworks/vitest.js'
import { captureLaunch } from '../../src/launch/capture.js'
import type { Launch } from '../../src/launch/launch.js'
import { launchTemplate } from '../../src/launch/runner-command.js'
import { createProcessRunner } from '../../src/ports/process.js'
import { TEST_PYTHON } from '../support/test-python.js'

const projectRoot = join(dirname(fileURLToPath(import.meta.url)), '..', '..')
const processes = createProcessRunner()
/** Every test file leaves a marker named after itself when it runs: which files ran, whatever the report says. */
const ranMarker = (name: string) => `require('node:fs').writeFileSync(require('node:path').join(process.env.TREE_DIR, 'ran-${name}'), '')\n`
const ranMarkerEsm = (name: string) => `import { writeFileSync } from 'node:fs'\nimport { join } from 'node:path'\nwriteFileSync(join(process.env.TREE_DIR, 'ran-${name}'), '')\n`
const durations: Record<string, { captureMs: number; runMs: number }> = {}

let tree = ''
let scratch = ''

beforeEach(async () => {
  tree = realpathSync(await mkdtemp(join(tmpdir(), 'launch-run-tree-')))
  scratch = await mkdtemp(join(tmpdir(), 'launch-run-scratch-'))
  await symlink(join(projectRoot, 'node_modules'), join(tree, 'node_modules'), 'dir')
})
afterEach(async () => {
  await rm(tree, { recursive: true, force: true })
  await rm(scratch, { recursive: true, force: true })
})
afterAll(() => {
  process.stdout.write(`launch round trips (ms): ${JSON.stringify(durations)}\n`)
})

async function files(entries: Record<string, string>): Promise<void> {
  for (const [path, content] of Object.entries(entries)) {
    await mkdir(dirname(join(tree, path)), { recursive: true })
    await writeFile(join(tree, path), content)
  }
}

const packageJson = (test: string, extra: object = {}) => JSON.stringify({ name: 'fixture', version: '1.0.0', private: true, scripts: { test }, ...extra })

/** Captures the test command, checks no test ran in the capture, then runs `file` alone through the adapter with the template. */
async function roundTrip(name: string, adapter: FrameworkAdapter, file: string, command?: string): Promise<{ launch: Launch; template: string[]; result: RunResult }> {
  for (const folder of ['capture', 'run']) await mkdir(join(scratch, folder))
  const captured = await captureLaunch(tree, command, processes, { scratchDir: join(scratch, 'capture'), timeoutMs: 60_000 })
  if (!captured.launch) throw new Error(`nothing captured:\n${captured.outputTail}`)
  expect(await ranFiles()).toEqual([])
  const template = launchTemplate(captured.launch)
  // TREE_DIR tells the marker where the tree is (the run's own environment is an allow-list).
  const result = await adapter.run({ treeDir: tree, files: [file], scratchDir: join(scratch, 'run'), timeoutMs: 60_000, command: [`TREE_DIR=${tree}`, ...template] }, processes)
  durations[name] = { captureMs: captured.durationMs, runMs: result.durationMs }
  return { launch: captured.launch, template, result }
}

async function ranFiles(): Promise<string[]> {
  const { readdir } = await import('node:fs/promises')
  return (await readdir(tree)).filter((entry) => entry.startsWith('ran-')).sort()
}

function summary(result: RunResult): Array<[string, string, string]> {
  return result.tests.map((test) => [test.file, test.name, test.status])
}

test('jest: a --config outside the root (its testMatch and setup file) and the variables the script set; one spec, not the script’s folder', async () => {
  await files({
    'package.json': packageJson('APP_MODE=ci jest --config config/jest.config.js --ci --coverage spec/'),
    'config/jest.config.js': "module.exports = { rootDir: '..', testMatch: ['<rootDir>/spec/**/*.check.js'], setupFiles: ['<rootDir>/config/setup.js'] }\n",
    'config/setup.js': 'globalThis.CONFIGURED = true\n',
    'spec/a.check.js': `${ranMarker('a')}test('a sees the config and the script variable', () => { expect(globalThis.CONFIGURED).toBe(true); expect(process.env.APP_MODE).toBe('ci') })\n`,
    'spec/b.check.js': `${ranMarker('b')}test('b', () => {})\n`
  })
  const { template, result } = await roundTrip('jest', jestAdapter, 'spec/a.check.js')
  expect(template.slice(-2)).toEqual(['--config', 'config/jest.config.js'])
  expect(summary(result)).toEqual([['spec/a.check.js', 'a sees the config and the script variable', 'passed']])
  expect(result.fileErrors).toEqual([])
  expect(await ranFiles()).toEqual(['ran-a'])
})

test('jest through a wrapper that calls `require(\'jest\').run(args)`: jest’s own bin with the wrapper’s arguments', async () => {
  await files({
    'package.json': packageJson('node scripts/test.js'),
    'scripts/test.js': "process.env.APP_MODE = 'wrapped'\nrequire('jest').run(['--config', require('node:path').join(__dirname, 'jest.js'), '--ci', 'spec/'])\n",
    'scripts/jest.js': "module.exports = { rootDir: '..', testMatch: ['<rootDir>/spec/*.check.js'] }\n",
    'spec/a.check.js': `${ranMarker('a')}test('a', () => { expect(process.env.APP_MODE).toBe('wrapped') })\n`,
    'spec/b.check.js': `${ranMarker('b')}test('b', () => {})\n`
  })
  const { launch, result } = await roundTrip('jest.run(args)', jestAdapter, 'spec/a.check.js')
  expect(launch.main).toBe(realpathSync(join(projectRoot, 'node_modules/jest/bin/jest.js')))
  expect(summary(result)).toEqual([['spec/a.check.js', 'a', 'passed']])
  expect(await ranFiles()).toEqual(['ran-a'])
})

test('vitest: a config in another folder (include, setup file, env) and the script’s filter and reporter; one file', async () => {
  await files({
    'package.json': packageJson('vitest --config config/vitest.config.mjs --reporter=dot spec/', { type: 'module' }),
    'config/vitest.config.mjs': [
      "import { fileURLToPath } from 'node:url'",
      "const root = fileURLToPath(new URL('..', import.meta.url))",
      "export default { root, test: { include: ['spec/**/*.check.mjs'], setupFiles: ['config/setup.mjs'], env: { FROM_CONFIG: 'yes' } } }",
      ''
    ].join('\n'),
    'config/setup.mjs': 'globalThis.CONFIGURED = true\n',
    'spec/a.check.mjs': `import { test, expect } from 'vitest'\n${ranMarkerEsm('a')}test('a sees the config', () => { expect(globalThis.CONFIGURED).toBe(true); expect(process.env.FROM_CONFIG).toBe('yes') })\n`,
    'spec/b.check.mjs': `import { test } from 'vitest'\n${ranMarkerEsm('b')}test('b', () => {})\n`
  })
  const { template, result } = await roundTrip('vitest', vitestAdapter, 'spec/a.check.mjs')
  expect(template.slice(-4)).toEqual(['run', '{files}', '--config', 'config/vitest.config.mjs'])
  expect(summary(result)).toEqual([['spec/a.check.mjs', 'a sees the config', 'passed']])
  expect(result.fileErrors).toEqual([])
  expect(await ranFiles()).toEqual(['ran-a'])
})

test('mocha: a config outside the root whose spec selects every file, and the script’s --require; one file', async () => {
  await files({
    'package.json': packageJson('mocha --config config/mocharc.json --require ./spec/setup.js --grep nothing-matches'),
    'config/mocharc.json': JSON.stringify({ spec: ['spec/**/*.check.js'], ui: 'tdd' }),
    'spec/setup.js': 'globalThis.CONFIGURED = true\n',
    'spec/a.check.js': `${ranMarker('a')}suite('a', () => { test('sees the setup', () => { if (!globalThis.CONFIGURED) throw new Error('no setup') }) })\n`,
    'spec/b.check.js': `${ranMarker('b')}suite('b', () => { test('b', () => {}) })\n`
  })
  const { result } = await roundTrip('mocha', mochaAdapter, 'spec/a.check.js')
  // tdd's `suite`/`test` only exist under the config's ui; the config's spec did not add b.
  expect(summary(result)).toEqual([['spec/a.check.js', 'a › sees the setup', 'passed']])
  expect(result.fileErrors).toEqual([])
  expect(await ranFiles()).toEqual(['ran-a'])
})

test('ava: its config file named by --config (files, environment) and the script’s patterns and --match; one file', async () => {
  await files({
    'package.json': packageJson("ava --config ava.ci.config.mjs --verbose --match 'nothing*' spec/", { type: 'module' }),
    'ava.ci.config.mjs': "export default { files: ['spec/**/*.check.mjs'], environmentVariables: { FROM_CONFIG: 'yes' } }\n",
    'spec/a.check.mjs': `import test from 'ava'\n${ranMarkerEsm('a')}test('a sees the config', (t) => { t.is(process.env.FROM_CONFIG, 'yes') })\n`,
    'spec/b.check.mjs': `import test from 'ava'\n${ranMarkerEsm('b')}test('b', (t) => t.pass())\n`
  })
  const { result } = await roundTrip('ava', avaAdapter, 'spec/a.check.mjs')
  expect(summary(result)).toEqual([['spec/a.check.mjs', 'a sees the config', 'passed']])
  expect(result.fileErrors).toEqual([])
  expect(await ranFiles()).toEqual(['ran-a'])
})

test('node --import tsx --test: TypeScript through the loader, the script’s folder and name filter gone; one file', async () => {
  const typed = (name: string) => `import test from 'node:test'\n${ranMarkerEsm(name)}const answer: number = 42\ntest('${name} is typed', () => { if (answer !== 42) throw new Error('no') })\n`
  await files({ 'package.json': packageJson('node --import tsx --test --test-name-pattern=nothing test/'), 'test/a.test.ts': typed('a'), 'test/b.test.ts': typed('b') })
  const { template, result } = await roundTrip('node --import tsx --test', nodeTestAdapter, 'test/a.test.ts')
  expect(template.slice(-4)).toEqual(['--import', 'tsx', '--test', '{files}'])
  expect(summary(result)).toEqual([['test/a.test.ts', 'a is typed', 'passed']])
  expect(await ranFiles()).toEqual(['ran-a'])
})

test('tsx --test: the node process tsx started, with its loader; one file', async () => {
  const typed = (name: string) => `import test from 'node:test'\n${ranMarkerEsm(name)}const answer: number = 42\ntest('${name} is typed', () => { if (answer !== 42) throw new Error('no') })\n`
  await files({ 'package.json': packageJson('tsx --test test/a.test.ts test/b.test.ts'), 'test/a.test.ts': typed('a'), 'test/b.test.ts': typed('b') })
  const { result } = await roundTrip('tsx --test', nodeTestAdapter, 'test/b.test.ts')
  expect(summary(result)).toEqual([['test/b.test.ts', 'b is typed', 'passed']])
  expect(await ranFiles()).toEqual(['ran-b'])
})

test('pytest: an ini given with -c (its python_functions), -k and the folder gone; one file', async () => {
  const checks = (name: string) => `import os, pathlib\n\ndef check_${name}():\n    pathlib.Path(os.environ['TREE_DIR'], 'ran-${name}').write_text('')\n`
  await files({ 'ci/pytest.ini': '[pytest]\npython_functions = check_*\n', 'tests/test_a.py': checks('a'), 'tests/test_b.py': checks('b') })
  const { template, result } = await roundTrip('python -m pytest -c', pytestAdapter, 'tests/test_a.py', `${TEST_PYTHON} -m pytest -c ci/pytest.ini -k 'not a' tests`)
  expect(template).toEqual([TEST_PYTHON, '-m', 'pytest', '{files}', '-c', 'ci/pytest.ini', '--rootdir=.'])
  expect(summary(result)).toEqual([['tests/test_a.py', expect.stringContaining('check_a'), 'passed']])
  expect(result.fileErrors).toEqual([])
  expect(existsSync(join(tree, 'ran-b'))).toBe(false)
  expect(await ranFiles()).toEqual(['ran-a'])
})
