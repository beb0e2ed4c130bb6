/**
 * The captured launch as a test-command template: realistic command lines per runner, read with each
 * runner's own grammar. Values stay with their options, file patterns and the options the adapters set
 * themselves (or that would change what runs) go, `{files}` lands where each adapter's command path needs it.
 */
import { expandCommand } from '../../src/frameworks/command.js'
import { userInvocation } from '../../src/frameworks/node-test.js'
import type { Launch } from '../../src/launch/launch.js'
import { launchTemplate, ownSelection, rebaseTemplate } from '../../src/launch/runner-command.js'

const NODE = '/usr/local/bin/node'
const PYTHON = '/usr/bin/python3'
const JEST_BIN = '/repo/node_modules/jest/bin/jest.js'
const VITEST_BIN = '/repo/node_modules/vitest/vitest.mjs'
const MOCHA_BIN = '/repo/node_modules/mocha/bin/mocha.js'
const AVA_BIN = '/repo/node_modules/ava/entrypoints/cli.mjs'

function launch(fields: Partial<Launch> & Pick<Launch, 'runner'>): Launch {
  return { executable: NODE, main: null, argv: [], execArgv: [], cwd: '/repo', env: {}, via: ['npm test'], beforeRunner: [], ...fields }
}

describe('jest', () => {
  test('value options keep their values; patterns, filters, coverage, reporters, watch and the adapter’s own flags go', () => {
    const argv = [
      '--config', 'config/jest.config.js', 'src/', '--coverage', '--coverageReporters', 'lcov', 'text', '-t', 'adds two', '--testPathPattern=spec/',
      '--reporters=default', '-w', '2', '--watchAll', '--json', '--outputFile', 'out.json', '--env', 'node', '--roots', 'src', 'test', '-ib',
      '--watchman', 'false', '--test-name-pattern', 'kebab', '--max-concurrency=3', '--coverage=false', '--findRelatedTests', 'src/a.js', '--ci',
      '--selectProjects', 'unit', '--', 'after-dashes'
    ]
    const template = launchTemplate(launch({ runner: 'jest', main: JEST_BIN, argv, execArgv: ['--experimental-vm-modules', '--inspect-brk'] }))
    expect(template).toEqual([
      NODE, '--experimental-vm-modules', JEST_BIN, '{files}', '--config', 'config/jest.config.js', '-w', '2', '--env', 'node', '--roots', 'src', 'test',
      '-i', '--max-concurrency=3', '--selectProjects', 'unit'
    ])
  })

  test('the files go right after the bin, before a list option could take them as its values', () => {
    const template = launchTemplate(launch({ runner: 'jest', main: JEST_BIN, argv: ['--testPathIgnorePatterns', 'fixtures', 'e2e'] }))
    const line = expandCommand(template, ['spec/a.spec.js'], ['--json'])
    expect(line).toEqual({ command: NODE, args: [JEST_BIN, 'spec/a.spec.js', '--testPathIgnorePatterns', 'fixtures', 'e2e', '--json'], env: {} })
  })

  test('a wrapper that called `require(\'jest\').run(args)`: jest’s own bin with the arguments it gave', () => {
    const template = launchTemplate(launch({ runner: 'jest', main: JEST_BIN, argv: ['--config', '/repo/scripts/jest.js', '--ci'], env: { BABEL_ENV: 'test' } }))
    expect(template).toEqual(['BABEL_ENV=test', NODE, JEST_BIN, '{files}', '--config', '/repo/scripts/jest.js'])
  })
})

describe('the environment the script set', () => {
  test('goes first as NAME=value words that expandCommand reads back, values with spaces and `=` intact', () => {
    const env = { NODE_ENV: 'test', TZ: 'Pacific/Chatham', LABEL: 'a b  c', NODE_OPTIONS: '--max-old-space-size=4096 --enable-source-maps', 'not-a-name': 'x' }
    const template = launchTemplate(launch({ runner: 'jest', main: JEST_BIN, env }))
    expect(template.slice(0, 4)).toEqual(['NODE_ENV=test', 'TZ=Pacific/Chatham', 'LABEL=a b  c', 'NODE_OPTIONS=--max-old-space-size=4096 --enable-source-maps'])
    const line = expandCommand(template, ['a.test.js'], [])
    expect(line.env).toEqual({ NODE_ENV: 'test', TZ: 'Pacific/Chatham', LABEL: 'a b  c', NODE_OPTIONS: '--max-old-space-size=4096 --enable-source-maps' })
    expect(line.command).toBe(NODE)
  })
})

describe('vitest', () => {
  test('`run` instead of its other commands, the files right after it; filters, reporters, coverage, shuffling, shards go', () => {
    const argv = [
      'watch', 'src/utils', '--config', 'vitest.ci.config.ts', '-t', 'adds', '--reporter=dot', '--reporter', 'junit', '--outputFile.junit', 'out.xml',
      '--coverage.enabled', '--coverage.reporter', 'lcov', '--project', 'unit', '--passWithNoTests', 'src/other', '--silent', '--sequence.shuffle',
      '--shard=1/3', '--coverage', 'false', '--environment', 'jsdom', '--no-color', '-r', 'packages/core', '--changed', 'HEAD~1', '-u'
    ]
    const template = launchTemplate(launch({ runner: 'vitest', main: VITEST_BIN, argv }))
    expect(template).toEqual([
      NODE, VITEST_BIN, 'run', '{files}', '--config', 'vitest.ci.config.ts', '--project', 'unit', '--passWithNoTests', '--silent', '--environment', 'jsdom',
      '--no-color', '-r', 'packages/core'
    ])
  })

  test('no command given (`vitest --config x`), or `related` with its source files: `run` with the files', () => {
    expect(launchTemplate(launch({ runner: 'vitest', main: VITEST_BIN, argv: ['--config', 'x.config.ts'] }))).toEqual([NODE, VITEST_BIN, 'run', '{files}', '--config', 'x.config.ts'])
    expect(launchTemplate(launch({ runner: 'vitest', main: VITEST_BIN, argv: ['related', 'src/a.ts', 'src/b.ts', '--run'] }))).toEqual([NODE, VITEST_BIN, 'run', '{files}'])
  })

  test('as mri reads it: a kebab-case switch is not on its boolean list, so it takes the next word as its value', () => {
    const template = launchTemplate(launch({ runner: 'vitest', main: VITEST_BIN, argv: ['run', '--pass-with-no-tests', 'true', 'spec/'] }))
    expect(template).toEqual([NODE, VITEST_BIN, 'run', '{files}', '--pass-with-no-tests', 'true'])
  })
})

describe('mocha', () => {
  test('its spec (positional or --spec), grep, reporter, watch and bail go; --require and the config sources stay, values with them', () => {
    const argv = [
      '--config', '.mocharc.ci.js', '-r', 'ts-node/register', '--spec', 'dist/**/*.test.js', 'test/unit', '--grep', 'slow', '--invert', '-R', 'dot',
      '--reporter-option', 'output=x', '--watch', '--timeout', '5000', '--bail', '--exit', '--recursive', '--ui=tdd'
    ]
    const template = launchTemplate(launch({ runner: 'mocha', main: MOCHA_BIN, argv, env: { TZ: 'UTC' } }))
    expect(template).toEqual(['TZ=UTC', NODE, MOCHA_BIN, '{files}', '-r', 'ts-node/register', '--timeout', '5000', '--exit', '--recursive', '--ui=tdd', '--config', '.mocharc.ci.js'])
  })

  test('--no-config and --no-package are kept', () => {
    expect(launchTemplate(launch({ runner: 'mocha', main: MOCHA_BIN, argv: ['--no-config', '--no-package', 'spec/*.js'] }))).toEqual([NODE, MOCHA_BIN, '{files}', '--no-config', '--no-package'])
  })
})

describe('ava', () => {
  test('patterns, --match, reporters, watch and fail-fast go; timeout, serial, node arguments, config and concurrency stay', () => {
    const argv = [
      '--verbose', '--match', 'adds*', '-m', 'other', 'test/**/*.js', '--timeout', '2m', '--serial', '--tap', '--node-arguments=--import=tsx', '--config',
      'ava.ci.config.js', '-w', '--fail-fast', '-c', '4', '-u'
    ]
    const template = launchTemplate(launch({ runner: 'ava', main: AVA_BIN, argv }))
    expect(template).toEqual([NODE, AVA_BIN, '{files}', '--timeout', '2m', '--serial', '--node-arguments=--import=tsx', '--config', 'ava.ci.config.js', '-c', '4'])
  })

  test('`ava debug` runs the tests plainly', () => {
    expect(launchTemplate(launch({ runner: 'ava', main: AVA_BIN, argv: ['debug', '--break', 'test/a.js', '--port', '9230'] }))).toEqual([NODE, AVA_BIN, '{files}'])
  })
})

describe('node:test', () => {
  const execArgv = [
    '--import', 'tsx', '--test', '--test-reporter', 'spec', '--test-reporter-destination=stdout', '--test-name-pattern=adds', '--experimental-test-coverage',
    '--watch', '--test-concurrency', '1', '--env-file=.env.test', '--test-only'
  ]

  test('node’s options with --test, the patterns and the filters, reporters, coverage and watch gone, the file last', () => {
    const template = launchTemplate(launch({ runner: 'node-test', execArgv, argv: ['test/', 'src/**/*.test.ts'] }))
    expect(template).toEqual([NODE, '--import', 'tsx', '--test', '--test-concurrency', '1', '--env-file=.env.test', '{files}'])
  })

  test('the node:test adapter puts its reporters right after --test and the file after every option', () => {
    const template = launchTemplate(launch({ runner: 'node-test', execArgv, argv: ['test/'] }))
    const line = userInvocation(template, 'test/a.test.ts', ['--test-reporter=junit'])
    expect(line.args).toEqual(['--import', 'tsx', '--test', '--test-reporter=junit', '--test-concurrency', '1', '--env-file=.env.test', 'test/a.test.ts'])
  })

  test('tsx --test: the node process tsx started, its loader options kept', () => {
    const tsxExecArgv = ['--require', '/repo/node_modules/tsx/dist/preflight.cjs', '--import', 'file:///repo/node_modules/tsx/dist/loader.mjs', '--test']
    const template = launchTemplate(launch({ runner: 'node-test', execArgv: tsxExecArgv, argv: ['test/a.test.ts', 'test/b.test.ts'] }))
    expect(template).toEqual([NODE, ...tsxExecArgv, '{files}'])
  })
})

describe('pytest', () => {
  test('`python -m pytest`: selection, stopping early, coverage and the JUnit report go; ini, plugins, workers and warnings stay', () => {
    const argv = [
      '-c', 'ci/pytest.ini', 'tests/unit', '-k', 'not slow', '-x', '--lf', '-rA', '-n', '4', '--cov=src', '--cov-report', 'term', '--junitxml', 'out.xml',
      '-p', 'no:randomly', '--maxfail=2', '-vvx', '--tb', 'line', 'tests/test_b.py::test_x', '--import-mode=importlib', '-m', 'not integration', '--cov',
      'src', '-W', 'error', '--deselect', 'tests/test_c.py::test_y', '-nauto'
    ]
    const template = launchTemplate(launch({ runner: 'pytest', executable: PYTHON, execArgv: ['-X', 'dev', '-m', 'pytest'], argv }))
    expect(template).toEqual([
      PYTHON, '-X', 'dev', '-m', 'pytest', '{files}', '-c', 'ci/pytest.ini', '-rA', '-n', '4', '-p', 'no:randomly', '-vv', '--tb', 'line',
      '--import-mode=importlib', '-W', 'error', '-nauto', '--rootdir=.'
    ])
  })

  test('the pytest script under its interpreter; PYTEST_ADDOPTS loses the same options, or goes when nothing is left', () => {
    const env = { PYTEST_ADDOPTS: '-x --strict-markers -k "not slow" -o "markers=slow: a slow one"', PYTHONPATH: 'src' }
    const template = launchTemplate(launch({ runner: 'pytest', executable: PYTHON, main: '/usr/bin/pytest-3', argv: ['-k', 'not slow', '.'], env }))
    expect(template).toEqual(["PYTEST_ADDOPTS=--strict-markers -o 'markers=slow: a slow one'", 'PYTHONPATH=src', PYTHON, '/usr/bin/pytest-3', '{files}'])
    const only = launchTemplate(launch({ runner: 'pytest', executable: PYTHON, main: '/usr/bin/pytest-3', env: { PYTEST_ADDOPTS: '-x' } }))
    expect(only).toEqual([PYTHON, '/usr/bin/pytest-3', '{files}'])
  })

  test('an ini named with -c keeps the rootdir where the run starts, unless the command names one', () => {
    const pytest = (argv: string[]) => launchTemplate(launch({ runner: 'pytest', executable: PYTHON, execArgv: ['-m', 'pytest'], argv })).slice(4)
    expect(pytest(['-cci/pytest.ini'])).toEqual(['-cci/pytest.ini', '--rootdir=.'])
    expect(pytest(['--config-file=ci/pytest.ini', '--rootdir', 'ci'])).toEqual(['--config-file=ci/pytest.ini', '--rootdir', 'ci'])
    expect(pytest(['-q'])).toEqual(['-q'])
  })
})

describe('rebaseTemplate', () => {
  test('moves the captured tree’s paths (PATH entries, the bin, absolute options, file URLs) to another tree, and nothing else', () => {
    const template = [
      'PATH=/work/head/node_modules/.bin:/work/node_modules/.bin:/usr/bin', NODE, '--import', 'file:///work/head/node_modules/tsx/dist/loader.mjs',
      '/work/head/node_modules/jest/bin/jest.js', '{files}', '--config', '/work/head/tools/jest.config.js', '--rootDir=/work/head', '--roots', '/work/headless'
    ]
    expect(rebaseTemplate(template, '/work/head', '/tmp/pre-fix')).toEqual([
      'PATH=/tmp/pre-fix/node_modules/.bin:/work/node_modules/.bin:/usr/bin', NODE, '--import', 'file:///tmp/pre-fix/node_modules/tsx/dist/loader.mjs',
      '/tmp/pre-fix/node_modules/jest/bin/jest.js', '{files}', '--config', '/tmp/pre-fix/tools/jest.config.js', '--rootDir=/tmp/pre-fix', '--roots', '/work/headless'
    ])
  })

  test('moves a path inside a JSON word (a wrapper’s `--config {json}` with its rootDir), not a sibling folder whose name starts the same', () => {
    const template = [NODE, '/work/head/node_modules/jest/bin/jest.js', '{files}', '--config', '{"rootDir":"/work/head","roots":["<rootDir>/src"]}', '--roots', '/work/head-old', '/work/head.bak']
    expect(rebaseTemplate(template, '/work/head', '/tmp/pre-fix')).toEqual([
      NODE, '/tmp/pre-fix/node_modules/jest/bin/jest.js', '{files}', '--config', '{"rootDir":"/tmp/pre-fix","roots":["<rootDir>/src"]}', '--roots', '/work/head-old', '/work/head.bak'
    ])
  })
})

test('tap: its reporter, coverage, watch and filters go (the adapter sets its own), its other options and their values stay', () => {
  const launch: Launch = {
    runner: 'tap', executable: '/usr/bin/node', main: '/repo/node_modules/tap/bin/run.js', execArgv: [], cwd: '/repo', env: {}, via: [], beforeRunner: [],
    argv: ['-R', 'spec', '--coverage-report=lcov', '--no-coverage', '-j', '4', '--timeout', '60', '--node-arg=--expose-gc', '-w', '--grep', 'slow', 'test/*.js']
  }
  expect(launchTemplate(launch)).toEqual(['/usr/bin/node', '/repo/node_modules/tap/bin/run.js', '{files}', '-j', '4', '--timeout', '60', '--node-arg=--expose-gc'])
})

describe('ownSelection: how many files a launch names itself', () => {
  const launch = (runner: Launch['runner'], argv: string[]): Launch => ({ runner, argv, executable: '/usr/bin/node', main: null, execArgv: [], cwd: '/r', env: {}, via: [], beforeRunner: [] })
  test.each([
    ['jest', ['test/timezone.test', '--coverage=false'], 1],
    ['jest', ['--config', 'config/jest.config.js', '--forceExit'], 0],
    ['jest', ['--roots', 'src', 'lib', '--ci'], 0],
    ['vitest', ['run', '--config', 'vitest.unit.ts'], 0],
    ['vitest', ['run', 'packages/core'], 1],
    ['mocha', ['--require', 'ts-node/register', 'test/a.js', 'test/b.js'], 2],
    ['mocha', ['--timeout', '5000'], 0],
    ['node-test', ['dist/test/'], 1],
    ['pytest', ['-q', '-k', 'not slow', 'tests'], 1]
  ] as const)('%s %j: %i', (runner, argv, count) => {
    expect(ownSelection(launch(runner, [...argv]))).toBe(count)
  })
})
