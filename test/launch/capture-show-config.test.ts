/**
 * jest's resolved configuration, printed by the capture's own jest start (the preload's showJestConfig):
 * real jest projects in temp folders, this project's jest, the plain process runner. Every jest.config.js
 * here appends a line to `config-loads` each time jest loads it, so the count is the number of jest starts
 * that read it; every test file writes a marker when it runs, and none may.
 */
import { existsSync, readFileSync, realpathSync } from 'node:fs'
import { mkdir, mkdtemp, rm, symlink, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { dirname, join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { readCollection, type HeadTree } from '../../src/context/collection.js'
import { TestBench } from '../../src/execute/test-bench.js'
import type { Trees } from '../../src/execute/trees.js'
import type { ResolvedConfig } from '../../src/frameworks/adapter.js'
import { jestAdapter } from '../../src/frameworks/jest.js'
import { captureLaunch } from '../../src/launch/capture.js'
import { captureTrees, type CapturedRunner, type TreeLaunch } from '../../src/launch/tree-launches.js'
import type { Logger } from '../../src/ports/logger.js'
import { createProcessRunner, type ProcessRunner } from '../../src/ports/process.js'
import type { Sandbox } from '../../src/ports/sandbox.js'

const projectRoot = join(dirname(fileURLToPath(import.meta.url)), '..', '..')
const MARKER = 'TESTS-RAN'
const markerTest = "require('node:fs').writeFileSync(require('node:path').join(process.cwd(), 'TESTS-RAN'), 'ran')\ntest('a', () => {})\n"
/** A jest config that counts its loads and collects only `checks/**\/*.check.js` (no default would). */
const countingConfig = (config: string) => `require('node:fs').appendFileSync(require('node:path').join(__dirname, 'config-loads'), 'loaded\\n')\nmodule.exports = ${config}\n`
const CHECKS_CONFIG = "{ roots: ['<rootDir>/checks'], testMatch: ['<rootDir>/checks/**/*.check.js'] }"
const silent: Logger = { info: () => {}, warn: () => {}, error: () => {}, debug: () => {} }
const choice = { command: 'npm test', dir: '', source: 'the test script' }

let work = ''
let head = ''
let preFix = ''
let starts: string[] = []
/** The real process runner, counting what it starts. */
const processes: ProcessRunner = {
  run: (request) => {
    starts.push([request.command, ...request.args].join(' '))
    return createProcessRunner().run(request)
  }
}

beforeEach(async () => {
  work = realpathSync(await mkdtemp(join(tmpdir(), 'capture-show-config-')))
  head = join(work, 'head')
  preFix = join(work, 'pre-fix')
  starts = []
  await mkdir(join(work, 'scratch'))
})
afterEach(() => rm(work, { recursive: true, force: true }))

async function tree(root: string, entries: Record<string, string>): Promise<void> {
  for (const [path, content] of Object.entries(entries)) {
    await mkdir(dirname(join(root, path)), { recursive: true })
    await writeFile(join(root, path), content)
  }
  await symlink(join(projectRoot, 'node_modules'), join(root, 'node_modules'), 'dir')
}

const packageJson = (test: string) => JSON.stringify({ name: 'fixture', version: '1.0.0', private: true, scripts: { test } })

function configLoads(root: string): number {
  return existsSync(join(root, 'config-loads')) ? readFileSync(join(root, 'config-loads'), 'utf8').split('\n').filter(Boolean).length : 0
}

/** Both trees captured as the pipeline does (a reverted package.json: the pre-fix tree is asked again). */
async function captured(showConfig: boolean): Promise<CapturedRunner> {
  const runner = await captureTrees({ head, preFix, reverted: ['package.json'] }, choice, processes, { packageDir: '', scratchDir: join(work, 'runs'), timeoutMs: 60_000, log: silent, showConfig })
  if ('reason' in runner) throw new Error(`nothing captured: ${runner.reason}`)
  return runner
}

/** The collection's question, as the pipeline asks it: the test bench over the captured launches. */
async function benchConfig(launches: { head: TreeLaunch; preFix: TreeLaunch }): Promise<ResolvedConfig | null> {
  const trees = { head, preFix, reverted: [] } as unknown as Trees
  const sandbox = { processes } as unknown as Sandbox
  const bench = new TestBench(trees, jestAdapter, sandbox, { scratchDir: join(work, 'runs'), timeoutMs: 60_000, packageDir: '', command: null, wrapper: null, launches, log: silent })
  return bench.resolveConfig()
}

/** jest asked on its own, as before: the captured launch's command with `--showConfig`. */
async function separateRun(launch: TreeLaunch): Promise<ResolvedConfig | null> {
  return jestAdapter.resolveConfig!({ treeDir: head, timeoutMs: 60_000, command: launch.command, label: launch.launch.via.at(-1) }, processes)
}

function headTree(root: string, files: string[]): HeadTree {
  return { read: async (path) => (existsSync(join(root, path)) ? readFileSync(join(root, path), 'utf8') : null), files }
}

test('the head capture carries the configuration jest printed: the collection reads it, with no second jest start, and equals the separate run', async () => {
  const files = { 'package.json': packageJson('jest'), 'jest.config.js': countingConfig(CHECKS_CONFIG), 'checks/a.check.js': markerTest }
  await tree(head, files)
  await tree(preFix, files)
  const runner = await captured(true)
  expect(runner.head.launch.shownConfig?.stdout).toContain('"testMatch"')
  // The pre-fix tree's capture is not the collection's: it stops as before, its config never loaded.
  expect(runner.preFix.launch.shownConfig).toBeUndefined()
  expect([configLoads(head), configLoads(preFix)]).toEqual([1, 0])
  expect(starts).toHaveLength(2)

  const resolved = await benchConfig(runner)
  // Read from the capture: no process started, the config file loaded once in all.
  expect(starts).toHaveLength(2)
  expect(configLoads(head)).toBe(1)
  expect(resolved?.source).toBe("jest's resolved configuration, from jest --showConfig, printed during the capture")
  expect(resolved?.values).toMatchObject({ rootDir: '', roots: ['<rootDir>/checks'], testMatch: ['<rootDir>/checks/**/*.check.js'] })
  const collection = await readCollection('jest', headTree(head, Object.keys(files)), { resolved })
  expect(collection.collects('checks/regression/issue-1.check.js')).toBe(true)
  expect(collection.collects('test/regression/issue-1.test.js')).toBe(false)

  // jest started again on its own says the same.
  const again = await separateRun(runner.head)
  expect(configLoads(head)).toBe(2)
  expect(again?.source).toBe("jest's resolved configuration, from jest --showConfig")
  expect(resolved?.values).toEqual(again?.values)
  expect(existsSync(join(head, MARKER))).toBe(false)
})

test('a programmatic jest (`require(\'jest\').run`) prints nothing in the capture: the collection asks jest on its own', async () => {
  const files = {
    'package.json': packageJson('node scripts/test.js'),
    'scripts/test.js': "require('jest').run(['--config', require('node:path').join(__dirname, '..', 'jest.config.js')])\n",
    'jest.config.js': countingConfig(CHECKS_CONFIG),
    'checks/a.check.js': markerTest
  }
  await tree(head, files)
  await tree(preFix, files)
  const runner = await captured(true)
  expect(runner.head.launch).toMatchObject({ runner: 'jest', argv: ['--config', join(head, 'jest.config.js')] })
  expect(runner.head.launch.shownConfig).toBeUndefined()
  expect(configLoads(head)).toBe(0)
  const startsBefore = starts.length

  const resolved = await benchConfig(runner)
  expect(starts).toHaveLength(startsBefore + 1)
  expect(configLoads(head)).toBe(1)
  expect(resolved?.source).toBe(`jest's resolved configuration, from jest --config ${join(head, 'jest.config.js')} --showConfig`)
  expect(resolved?.values).toMatchObject({ roots: ['<rootDir>/checks'], testMatch: ['<rootDir>/checks/**/*.check.js'] })
  expect(existsSync(join(head, MARKER))).toBe(false)
})

test('not asked: jest stops before loading its config, as before', async () => {
  await tree(head, { 'package.json': packageJson('jest'), 'jest.config.js': countingConfig(CHECKS_CONFIG), 'checks/a.check.js': markerTest })
  const result = await captureLaunch(head, undefined, processes, { scratchDir: join(work, 'scratch'), timeoutMs: 60_000 })
  expect(result.launch?.runner).toBe('jest')
  expect(result.launch?.shownConfig).toBeUndefined()
  expect(configLoads(head)).toBe(0)
})

test('a jest whose config throws: the launch and the runner after it are still captured, the command goes on; the collection asks jest on its own', async () => {
  await tree(head, {
    'package.json': packageJson('jest --ci -- checks && mocha spec/b.test.js'),
    'jest.config.js': `${countingConfig(CHECKS_CONFIG)}throw new Error('broken config')\n`,
    'checks/a.check.js': markerTest,
    'spec/b.test.js': "require('node:fs').writeFileSync('TESTS-RAN', 'mocha')\nit('b', () => {})\n"
  })
  const result = await captureLaunch(head, undefined, processes, { scratchDir: join(work, 'scratch'), timeoutMs: 60_000, showConfig: true })
  if (!result.launch) throw new Error(`nothing captured:\n${result.outputTail}`)
  expect(result.launch).toMatchObject({ runner: 'jest', argv: ['--ci', '--', 'checks'] })
  // What jest printed is kept (its error), not shown in the command's output; jest exited 0, so mocha started.
  expect(result.launch.shownConfig?.stderr).toContain('broken config')
  expect(result.later.map((launch) => [launch.runner, launch.argv])).toEqual([['mocha', ['spec/b.test.js']]])
  const command = [process.execPath, join(head, 'node_modules/jest/bin/jest.js')]
  const resolved = await jestAdapter.resolveConfig!({ treeDir: head, timeoutMs: 60_000, command, shown: result.launch.shownConfig }, processes)
  // Nothing usable was printed: jest was asked again (and fails again), the config loaded a second time.
  expect(resolved).toBeNull()
  expect(configLoads(head)).toBe(2)
  expect(existsSync(join(head, MARKER))).toBe(false)
})

test('a jest that never finishes reading its config: the capture times out with its launch still captured', async () => {
  // An async config that never settles, with a live handle: jest neither prints nor exits.
  await tree(head, { 'package.json': packageJson('jest'), 'jest.config.js': countingConfig('() => new Promise(() => setInterval(() => {}, 1000))'), 'checks/a.check.js': markerTest })
  const result = await captureLaunch(head, undefined, processes, { scratchDir: join(work, 'scratch'), timeoutMs: 3_000, showConfig: true })
  expect(result.launch).toMatchObject({ runner: 'jest', argv: [] })
  // Killed before it exited: nothing printed is kept, and the collection will ask jest on its own.
  expect(result.launch?.shownConfig).toBeUndefined()
  expect(configLoads(head)).toBe(1)
  expect(existsSync(join(head, MARKER))).toBe(false)
})
