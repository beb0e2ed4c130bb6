/**
 * Capturing the runner from the repository's own test command: real package.json scripts in temp folders,
 * the runners of this project's node_modules, the plain process runner. Every test file writes a marker
 * when it runs; the capture must leave none.
 */
import { existsSync, realpathSync } from 'node:fs'
import { chmod, mkdir, mkdtemp, rm, symlink, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { dirname, join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { captureLaunch, type CaptureResult } from '../../src/launch/capture.js'
import type { Launch } from '../../src/launch/launch.js'
import { createProcessRunner } from '../../src/ports/process.js'
import { TEST_PYTHON } from '../support/test-python.js'

const projectRoot = join(dirname(fileURLToPath(import.meta.url)), '..', '..')
const processes = createProcessRunner()
const MARKER = 'TESTS-RAN'
/** A test body (CommonJS or ESM alike) that leaves the marker in the tree when it runs. */
const markerTest = (label: string) => `require('node:fs').writeFileSync(require('node:path').join(process.env.TREE_DIR || process.cwd(), '${MARKER}'), '${label}')\n`
const markerTestEsm = `import { writeFileSync } from 'node:fs'\nwriteFileSync('${MARKER}', 'ran')\n`

let tree = ''
let scratch = ''
const durations: Record<string, number> = {}

beforeEach(async () => {
  tree = realpathSync(await mkdtemp(join(tmpdir(), 'capture-tree-')))
  scratch = await mkdtemp(join(tmpdir(), 'capture-scratch-'))
  await symlink(join(projectRoot, 'node_modules'), join(tree, 'node_modules'), 'dir')
})
afterEach(async () => {
  await rm(tree, { recursive: true, force: true })
  await rm(scratch, { recursive: true, force: true })
})
afterAll(() => {
  // The measurement CAPTURE-NOTES.md quotes: how long each capture took, command start to runner stop.
  process.stdout.write(`capture durations (ms): ${JSON.stringify(durations)}\n`)
})

async function files(entries: Record<string, string>): Promise<void> {
  for (const [path, content] of Object.entries(entries)) {
    await mkdir(dirname(join(tree, path)), { recursive: true })
    await writeFile(join(tree, path), content)
  }
}

const packageJson = (scripts: Record<string, string>, extra: object = {}) => JSON.stringify({ name: 'fixture', version: '1.0.0', private: true, scripts, ...extra })

async function capture(name: string, command?: string): Promise<CaptureResult> {
  const result = await captureLaunch(tree, command, processes, { scratchDir: scratch, timeoutMs: 60_000 })
  durations[name] = result.durationMs
  return result
}

function captured(result: CaptureResult): Launch {
  if (!result.launch) throw new Error(`nothing captured; output:\n${result.outputTail}`)
  return result.launch
}

function expectNoTestRan(): void {
  expect(existsSync(join(tree, MARKER))).toBe(false)
}

test('jest with a --config outside the root: its argv, cwd and what the script set in the environment', async () => {
  await files({
    'package.json': packageJson({ test: 'NODE_ENV=test TZ=Pacific/Chatham NODE_OPTIONS=--experimental-vm-modules jest --config config/jest.config.js' }),
    'config/jest.config.js': "module.exports = { rootDir: '..', testMatch: ['<rootDir>/spec/**/*.spec.js'] }\n",
    'spec/a.spec.js': `${markerTest('jest')}test('a', () => {})\n`
  })
  const launch = captured(await capture('jest --config'))
  expect(launch.runner).toBe('jest')
  expect(launch.main).toBe(realpathSync(join(projectRoot, 'node_modules/jest/bin/jest.js')))
  expect(launch.argv).toEqual(['--config', 'config/jest.config.js'])
  expect(launch.cwd).toBe(tree)
  expect(launch.env).toMatchObject({ NODE_ENV: 'test', TZ: 'Pacific/Chatham', NODE_OPTIONS: '--experimental-vm-modules' })
  // The capture's own NODE_OPTIONS, PATH entry and variables are not the repository's.
  expect(Object.keys(launch.env).filter((name) => name.startsWith('RTG_') || name.startsWith('npm_'))).toEqual([])
  expect(launch.execArgv).toEqual([])
  expect(launch.via[0]).toBe('npm test')
  expect(launch.via[launch.via.length - 1]).toBe('jest --config config/jest.config.js')
  expectNoTestRan()
})

test('a wrapper bin that spawns jest with its own --config: the config the wrapper passed', async () => {
  await files({
    'package.json': packageJson({ test: 'node tools/run-tests.js --ci' }),
    'tools/run-tests.js': [
      "const { spawnSync } = require('node:child_process')",
      "const path = require('node:path')",
      "if (process.argv.includes('--ci')) process.argv.splice(process.argv.indexOf('--ci'), 1)",
      "const jest = path.join(path.dirname(require.resolve('jest/package.json')), 'bin/jest.js')",
      "const config = path.join(__dirname, 'wrapper-jest.config.js')",
      "const run = spawnSync(process.execPath, [jest, '--config', config, ...process.argv.slice(2)], { stdio: 'inherit' })",
      'process.exit(run.status ?? 1)'
    ].join('\n'),
    'tools/wrapper-jest.config.js': "module.exports = { rootDir: '..', testMatch: ['<rootDir>/spec/*.spec.js'] }\n",
    'spec/a.spec.js': `${markerTest('wrapper')}test('a', () => {})\n`
  })
  const launch = captured(await capture('wrapper → jest'))
  expect(launch.runner).toBe('jest')
  expect(launch.argv).toEqual(['--config', join(tree, 'tools/wrapper-jest.config.js')])
  expect(launch.via).toEqual(['npm test', 'node tools/run-tests.js --ci', `jest --config ${join(tree, 'tools/wrapper-jest.config.js')}`])
  expectNoTestRan()
})

test('`npm run build && mocha`: the build ran for real and is what ran before the runner', async () => {
  await files({
    'package.json': packageJson({ build: 'node build.js', test: 'npm run build && mocha' }),
    'build.js': "const fs = require('node:fs')\nfs.mkdirSync('dist', { recursive: true })\nfs.writeFileSync('dist/a.test.js', fs.readFileSync('src/a.test.js'))\n",
    '.mocharc.json': JSON.stringify({ spec: 'dist/**/*.test.js' }),
    'src/a.test.js': `${markerTest('mocha')}it('a', () => {})\n`
  })
  const launch = captured(await capture('npm run build && mocha'))
  expect(launch.runner).toBe('mocha')
  expect(launch.argv).toEqual([])
  expect(existsSync(join(tree, 'dist/a.test.js'))).toBe(true)
  expect(launch.beforeRunner).toHaveLength(1)
  expect(launch.beforeRunner[0].command).toBe('npm run build')
  expect(launch.beforeRunner[0].durationMs).toBeGreaterThan(0)
  expect(launch.via).toEqual(['npm test', 'npm run build && mocha', 'mocha'])
  expectNoTestRan()
})

test('`node --test` with a folder: node:test, no main, the pattern as written', async () => {
  await files({ 'package.json': packageJson({ test: 'node --test test/' }), 'test/a.test.js': `${markerTest('node-test')}require('node:test')('a', () => {})\n` })
  const launch = captured(await capture('node --test'))
  expect(launch).toMatchObject({ runner: 'node-test', main: null, argv: ['test/'], execArgv: ['--test'], cwd: tree })
  expect(launch.executable).toBe(process.execPath)
  expectNoTestRan()
})

test('`tsx --test`: the node process tsx starts, with its loader', async () => {
  await files({ 'package.json': packageJson({ test: 'tsx --test test/a.test.ts' }), 'test/a.test.ts': `import test from 'node:test'\n${markerTestEsm}test('a', () => {})\n` })
  const launch = captured(await capture('tsx --test'))
  expect(launch.runner).toBe('node-test')
  expect(launch.argv).toEqual(['test/a.test.ts'])
  expect(launch.execArgv).toContain('--test')
  expect(launch.execArgv.some((arg) => arg.includes('tsx'))).toBe(true)
  expect(launch.via).toEqual(['npm test', 'tsx --test test/a.test.ts', `node ${launch.execArgv.join(' ')} test/a.test.ts`])
  expectNoTestRan()
})

test('`node --import tsx --test`: the loader in execArgv', async () => {
  await files({ 'package.json': packageJson({ test: 'node --import tsx --test test/a.test.ts' }), 'test/a.test.ts': `import test from 'node:test'\n${markerTestEsm}test('a', () => {})\n` })
  const launch = captured(await capture('node --import tsx --test'))
  expect(launch).toMatchObject({ runner: 'node-test', main: null, argv: ['test/a.test.ts'], execArgv: ['--import', 'tsx', '--test'] })
  expectNoTestRan()
})

test('vitest run (an ESM bin): its argv, in the package folder of a script that changes directory', async () => {
  await files({
    'package.json': packageJson({ test: 'cd packages/core && vitest run --reporter=dot' }),
    'packages/core/a.test.mjs': `import { test } from 'vitest'\n${markerTestEsm}test('a', () => {})\n`
  })
  const launch = captured(await capture('vitest run'))
  expect(launch.runner).toBe('vitest')
  expect(launch.main).toBe(realpathSync(join(projectRoot, 'node_modules/vitest/vitest.mjs')))
  expect(launch.argv).toEqual(['run', '--reporter=dot'])
  expect(launch.cwd).toBe(join(tree, 'packages/core'))
  expect(existsSync(join(tree, 'packages/core', MARKER))).toBe(false)
})

test('pytest through `python3 -m pytest`: its options, none run', async () => {
  await files({ 'tests/test_a.py': `import pathlib\n\ndef test_a():\n    pathlib.Path('${MARKER}').write_text('pytest')\n` })
  const launch = captured(await capture('python -m pytest', `${TEST_PYTHON} -m pytest -q tests`))
  expect(launch).toMatchObject({ runner: 'pytest', main: null, execArgv: ['-m', 'pytest'], argv: ['-q', 'tests'], cwd: tree })
  expect(launch.executable).toBe(TEST_PYTHON)
  expectNoTestRan()
})

test('pytest through a make-like script: the pytest script it reached and how', async () => {
  await files({
    'scripts/test.sh': 'set -e\ncd tests\nexport PYTEST_ADDOPTS=-x\npytest-3 -k "not slow" .\n',
    'tests/test_a.py': `import pathlib\n\ndef test_a():\n    pathlib.Path('${MARKER}').write_text('pytest')\n`
  })
  await chmod(join(tree, 'scripts/test.sh'), 0o755)
  const launch = captured(await capture('make-like → pytest', 'sh scripts/test.sh'))
  expect(launch).toMatchObject({ runner: 'pytest', argv: ['-k', 'not slow', '.'], cwd: join(tree, 'tests') })
  expect(launch.main).toBe(realpathSync('/usr/bin/pytest-3'))
  expect(launch.env).toMatchObject({ PYTEST_ADDOPTS: '-x' })
  expect(launch.via).toEqual(['sh scripts/test.sh', 'pytest -k not slow .'])
  expect(existsSync(join(tree, 'tests', MARKER))).toBe(false)
})

test('a script that starts no runner: nothing captured, the output kept for the error', async () => {
  await files({ 'package.json': packageJson({ test: 'echo "no test specified" && exit 1' }) })
  const result = await capture('no runner')
  expect(result.launch).toBeNull()
  if (result.launch === null) {
    expect(result.outputTail).toContain('no test specified')
    expect(result.exitCode).toBe(1)
  }
})

test('a wrapper that runs jest in its own process (`require(\'jest\').run(args)`): the arguments it gave jest', async () => {
  await files({
    'package.json': packageJson({ test: 'node scripts/test.js' }),
    'scripts/test.js': "process.env.BABEL_ENV = 'test'\nrequire('jest').run(['--config', require('node:path').join(__dirname, 'jest.js'), '--ci'])\n",
    'scripts/jest.js': "module.exports = { rootDir: '..' }\n",
    'a.test.js': `${markerTest('programmatic')}test('a', () => {})\n`
  })
  const launch = captured(await capture('programmatic jest.run'))
  expect(launch.runner).toBe('jest')
  expect(launch.main).toBe(realpathSync(join(projectRoot, 'node_modules/jest/bin/jest.js')))
  expect(launch.argv).toEqual(['--config', join(tree, 'scripts/jest.js'), '--ci'])
  expect(launch.env).toMatchObject({ BABEL_ENV: 'test' })
  expect(launch.via).toEqual(['npm test', 'node scripts/test.js', `jest --config ${join(tree, 'scripts/jest.js')} --ci`])
  expectNoTestRan()
})

test('ava (an ESM entry): its bin and arguments', async () => {
  await files({
    'package.json': packageJson({ test: 'ava --verbose test/*.mjs' }, { type: 'module' }),
    'test/a.mjs': `import test from 'ava'\n${markerTestEsm}test('a', (t) => t.pass())\n`
  })
  const launch = captured(await capture('ava'))
  expect(launch.runner).toBe('ava')
  expect(launch.main).toBe(realpathSync(join(projectRoot, 'node_modules/ava/entrypoints/cli.mjs')))
  // The shell expanded the glob before ava saw it.
  expect(launch.argv).toEqual(['--verbose', 'test/a.mjs'])
  expectNoTestRan()
})

test('tap 18+ (its bin under tshy\'s nameless dist/esm/package.json): tap, stopped before any test', async () => {
  await files({
    'package.json': packageJson({ test: 'tap --allow-empty-coverage test/a.test.js' }, { type: 'module' }),
    'test/a.test.js': `import t from 'tap'\n${markerTestEsm}t.pass('a')\n`
  })
  const launch = captured(await capture('tap'))
  expect(launch.runner).toBe('tap')
  expect(launch.main).toBe(realpathSync(join(projectRoot, 'node_modules/tap/dist/esm/run.mjs')))
  expect(launch.argv).toEqual(['--allow-empty-coverage', 'test/a.test.js'])
  expectNoTestRan()
})

test('two runners in one script (`jest && mocha`): the first is the launch, the next is listed after it', async () => {
  await files({
    'package.json': packageJson({ test: 'jest --config jest.config.js && mocha spec/b.test.js' }),
    'jest.config.js': "module.exports = { testMatch: ['<rootDir>/spec/a.spec.js'] }\n",
    'spec/a.spec.js': `${markerTest('jest')}test('a', () => {})\n`,
    'spec/b.test.js': `${markerTest('mocha')}it('b', () => {})\n`
  })
  const result = await capture('jest && mocha')
  expect(captured(result).runner).toBe('jest')
  expect(result.launch && result.later.map((launch) => [launch.runner, launch.argv])).toEqual([['mocha', ['spec/b.test.js']]])
  expectNoTestRan()
})

test('pytest from a script that sets its own PYTHONPATH: the shim on PATH keeps the capture loaded', async () => {
  await files({ 'tests/test_a.py': `import pathlib\n\ndef test_a():\n    pathlib.Path('${MARKER}').write_text('pytest')\n` })
  const launch = captured(await capture('PYTHONPATH=src python3 -m pytest', 'PYTHONPATH=src python3 -m pytest -q tests'))
  expect(launch).toMatchObject({ runner: 'pytest', execArgv: ['-m', 'pytest'], argv: ['-q', 'tests'], env: { PYTHONPATH: 'src' } })
  expectNoTestRan()
})

test('a second capture in the same scratch folder reads only its own records', async () => {
  await files({ 'package.json': packageJson({ test: 'mocha spec/b.test.js' }), 'spec/b.test.js': `${markerTest('mocha')}it('b', () => {})\n` })
  expect(captured(await capture('mocha')).runner).toBe('mocha')
  await files({ 'package.json': packageJson({ test: 'echo "no runner now"' }) })
  expect((await capture('no runner, second')).launch).toBeNull()
})

test('a runner the tool has no adapter for (tape): stopped before any test, and named', async () => {
  await files({
    'package.json': packageJson({ test: 'node vendor/tape/bin/tape.js test/*.js' }),
    'vendor/tape/package.json': JSON.stringify({ name: 'tape', version: '5.0.0', bin: { tape: 'bin/tape.js' } }),
    // The "runner": runs every file it is given, as tape would.
    'vendor/tape/bin/tape.js': "for (const file of process.argv.slice(2)) require(require('node:path').resolve(file))\n",
    'test/a.js': markerTest('tape')
  })
  const result = await capture('unsupported runner')
  expect(result).toMatchObject({ launch: null, unsupported: 'tape' })
  expect(existsSync(join(tree, MARKER))).toBe(false)
})
