/** Reading what the capture recorded (pure): the command texts of `via`, the environment the script set, what ran before the runner. */
import { commandText, environmentSet, launchesFrom, parseCaptureRecords, type CaptureFootprint, type CaptureRecord, type Launch } from '../../src/launch/launch.js'
import { packageLaunch } from '../../src/launch/tree-launches.js'

const footprint: CaptureFootprint = {
  command: 'npm test',
  startEnv: { PATH: '/usr/bin', TZ: 'UTC', NODE_OPTIONS: '--require "/s/capture-tools/node-preload.cjs"' },
  nodeOptions: '--require "/s/capture-tools/node-preload.cjs"',
  preloadPath: '/s/capture-tools/node-preload.cjs',
  shimDir: '/s/capture-tools/bin',
  pythonDir: '/s/capture-tools/python'
}

test('command texts as a person would write them', () => {
  expect(commandText(['/bin/sh', '-c', 'tsc && jest'])).toBe('tsc && jest')
  expect(commandText(['/usr/bin/node', '--require', '/s/capture-tools/node-preload.cjs', '/usr/bin/npm', 'run', 'build'])).toBe('npm run build')
  expect(commandText(['node', '/r/node_modules/.bin/ts-scripts', 'test'])).toBe('ts-scripts test')
  expect(commandText(['node', '/r/node_modules/typescript/bin/tsc', '-p', '.'])).toBe('tsc -p .')
  expect(commandText(['node', '/r/node_modules/ava/entrypoints/cli.mjs'])).toBe('ava')
  expect(commandText(['node', 'scripts/test.js', '--ci'])).toBe('node scripts/test.js --ci')
  expect(commandText(['/usr/bin/make', 'test'])).toBe('make test')
})

test('the environment the script set: changed and new variables, without the capture\'s own or npm\'s bookkeeping', () => {
  const runnerEnv = {
    PATH: '/r/node_modules/.bin:/s/capture-tools/bin:/usr/bin',
    TZ: 'UTC',
    NODE_ENV: 'test',
    NODE_OPTIONS: '--max-old-space-size=4096 --require "/s/capture-tools/node-preload.cjs"',
    npm_lifecycle_event: 'test',
    INIT_CWD: '/r',
    RTG_CAPTURE_FILE: '/s/capture.jsonl'
  }
  expect(environmentSet(runnerEnv, footprint)).toEqual({ NODE_ENV: 'test', NODE_OPTIONS: '--max-old-space-size=4096' })
  // Only our preload in NODE_OPTIONS, and our shim the only PATH change: nothing set.
  expect(environmentSet({ PATH: '/s/capture-tools/bin:/usr/bin', TZ: 'UTC', NODE_OPTIONS: footprint.nodeOptions }, footprint)).toEqual({})
})

test('before the runner: the outermost processes off its way, with their durations; a torn line skipped', () => {
  const root = { pid: 10, argv: ['/bin/sh', '-c', 'npm test'] }
  const npmTest = { pid: 11, argv: ['node', '/usr/bin/npm', 'test'] }
  const script = { pid: 12, argv: ['/bin/sh', '-c', 'npm run build && mocha'] }
  const records: CaptureRecord[] = [
    { kind: 'process', pid: 11, at: 1000, argv0: '/usr/bin/node', main: '/usr/lib/node_modules/npm/bin/npm-cli.js', argv: ['test'], cwd: '/r', ancestors: [root] },
    { kind: 'process', pid: 13, at: 1100, argv0: '/usr/bin/node', main: '/usr/lib/node_modules/npm/bin/npm-cli.js', argv: ['run', 'build'], cwd: '/r', ancestors: [root, npmTest, script] },
    { kind: 'process', pid: 15, at: 1200, argv0: '/usr/bin/node', main: '/r/node_modules/typescript/bin/tsc', argv: [], cwd: '/r', ancestors: [root, npmTest, script, { pid: 13, argv: [] }, { pid: 14, argv: ['/bin/sh', '-c', 'tsc'] }] },
    { kind: 'exit', pid: 15, at: 2200 },
    { kind: 'exit', pid: 13, at: 2300 },
    { kind: 'runner', pid: 16, at: 2400, runner: 'mocha', argv0: '/usr/bin/node', main: '/r/node_modules/mocha/bin/mocha.js', argv: ['--require', 'ts-node/register'], execArgv: ['--require', '/s/capture-tools/node-preload.cjs'], cwd: '/r', env: {}, ancestors: [root, npmTest, script] }
  ]
  const text = `${records.map((record) => JSON.stringify(record)).join('\n')}\n{"kind":"exit","pi`
  const [launch, ...later] = launchesFrom(parseCaptureRecords(text), footprint)
  expect(later).toEqual([])
  expect(launch).toMatchObject({ runner: 'mocha', execArgv: [], argv: ['--require', 'ts-node/register'] })
  expect(launch.beforeRunner).toEqual([{ command: 'npm run build', durationMs: 1200 }])
  expect(launch.via).toEqual(['npm test', 'npm run build && mocha', 'mocha --require ts-node/register'])
})

test('a command line the process rewrote (npm sets its title over its arguments)', () => {
  expect(commandText(['npm test', '', '', ''])).toBe('npm test')
})

test('of the runners one script started, the package\'s own and broadest: the run on everything, not a time zone\'s run on one file', () => {
  const launch = (argv: string[], cwd = '/r'): Launch => ({ runner: 'jest', argv, executable: '/usr/bin/node', main: '/r/node_modules/jest/bin/jest.js', execArgv: [], cwd, env: {}, via: [], beforeRunner: [] })
  // dayjs: `TZ=Pacific/Auckland npm run test-tz && … && jest`.
  const perZone = { launch: launch(['test/timezone.test', '--coverage=false']), runDir: '' }
  const everything = { launch: launch([]), runDir: '' }
  expect(packageLaunch([perZone, perZone, everything], '')).toBe(everything)
  // `pnpm -r test` from the root: the package's own, even when another names fewer files.
  const other = { launch: launch([], '/r/packages/b'), runDir: 'packages/b' }
  const own = { launch: launch(['test/unit'], '/r/packages/a'), runDir: 'packages/a' }
  expect(packageLaunch([other, own], 'packages/a')).toBe(own)
  // A root config that collects the package's tests.
  expect(packageLaunch([other, everything], 'packages/a')).toBe(everything)
})

test('before the runner: the steps that ended before it started, not what ran beside it (c8\'s watchdog)', () => {
  const footprint2: CaptureFootprint = { ...footprint, command: 'npm test' }
  const records: CaptureRecord[] = [
    { kind: 'process', pid: 10, at: 100, argv0: '/usr/bin/node', main: '/r/node_modules/typescript/bin/tsc', argv: [], execArgv: [], cwd: '/r', ancestors: [{ pid: 1, argv: ['sh', '-c', 'tsc && c8 mocha'] }] },
    { kind: 'exit', pid: 10, at: 900 },
    { kind: 'process', pid: 20, at: 950, argv0: '/usr/bin/node', main: null, argv: [], execArgv: ['-e', 'watchdog'], cwd: '/r', ancestors: [{ pid: 1, argv: ['sh', '-c', 'tsc && c8 mocha'] }, { pid: 15, argv: ['node', '/r/node_modules/c8/bin/c8.js', 'mocha'] }] },
    { kind: 'runner', runner: 'mocha', pid: 30, at: 1000, argv0: '/usr/bin/node', main: '/r/node_modules/mocha/bin/mocha.js', argv: [], execArgv: [], cwd: '/r', env: {}, ancestors: [{ pid: 1, argv: ['sh', '-c', 'tsc && c8 mocha'] }, { pid: 15, argv: ['node', '/r/node_modules/c8/bin/c8.js', 'mocha'] }] },
    { kind: 'exit', pid: 20, at: 5000 }
  ]
  expect(launchesFrom(records, footprint2)[0].beforeRunner).toEqual([{ command: 'tsc', durationMs: 800 }])
})
