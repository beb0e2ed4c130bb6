/**
 * Issue 22's test-command shapes (part a), zero-config: each fixture's own `npm test` is asked how it runs
 * its tests (the capture, once per tree, in the sandbox) and every run is that launch with its own files.
 * Verify mode through the bundled CLI (`dist/cli/index.js`: run `npm run build` first), generate mode
 * in-process with the fixture's model answers; both must end fail-to-pass.
 *
 * What main (the adapters' own detection, no capture) did with the same fixtures is said above each shape.
 */
import { existsSync } from 'node:fs'
import { join } from 'node:path'
import type { Report } from '../../src/report/report.js'
import { runBundledCliOnFixture, runCliOnFixture } from '../support/cli-run.js'
import { fixtureAnswers } from '../support/scripted-model.js'


/** Generate mode in-process: the fix without its test, the model's suite proven on both trees. */
async function generate(fixture: string) {
  return runCliOnFixture({ fixture, script: fixtureAnswers(fixture), fixtureOptions: { withFixTest: false }, args: ['--issue', join('__fixtures__', fixture, 'issue.md')] })
}

const kinds = (report: Report) => Object.fromEntries(report.tests.map((test) => [test.name, test.kind]))

/**
 * `"test": "jest --config config/jest.config.js"`, `rootDir: '..'`, ts-jest transforming TypeScript tests.
 * On main: bare jest at the root, without the script's --config, so no transform: the preflight's file failed
 * to parse ("SyntaxError: test/truncate.test.ts: Missing initializer in const declaration") → `error`, exit 2.
 */
describe('jest --config outside the root, with a TypeScript transform', () => {
  test('verify (bundled CLI): the captured launch keeps the --config, so ts-jest runs, and proves the fix', async () => {
    const run = await runBundledCliOnFixture('truncate-jest-config')
    try {
      expect(run.report.runner).toMatchObject({
        captured: true,
        command: 'npm test',
        source: 'the test script: jest --config config/jest.config.js',
        runner: 'jest',
        via: ['npm test', 'jest --config config/jest.config.js'],
        argv: ['--config', 'config/jest.config.js'],
        execArgv: [],
        cwd: '',
        beforeRunner: [],
        reason: null
      })
      expect(run.report).toMatchObject({ framework: 'jest', build: null, verdict: 'fail-to-pass' })
      expect(run.report.preflight?.command).toContain('--config config/jest.config.js')
      // The tests carry type annotations: they ran at all only because the config's transform did.
      expect(kinds(run.report)).toEqual({
        'truncate › keeps a text shorter than max': 'pass-to-pass',
        'truncate › keeps a text of exactly max': 'pass-to-pass',
        'truncate › cuts a longer text to max, the ellipsis included (#3)': 'fail-to-pass'
      })
      expect(run.report.tests.find((test) => test.kind === 'fail-to-pass')?.message).toContain('"hello…"')
      expect(run.log.join('\n')).toContain('Runner: npm test → jest --config config/jest.config.js in the root')
      expect(run.exitCode).toBe(0)
    } finally {
      await run.repo.cleanup()
    }
  })

  test('generate: the TypeScript suite runs through the same launch on both trees', async () => {
    const run = await generate('truncate-jest-config')
    try {
      expect(run.report.runner).toMatchObject({ captured: true, runner: 'jest', argv: ['--config', 'config/jest.config.js'] })
      expect(run.report.suite.files).toEqual([expect.objectContaining({ path: 'test/regression/issue-3.test.ts', collectedByRepoTests: true })])
      expect(kinds(run.report)).toEqual({
        'truncate within max (#3) › cuts a long text to max characters, the ellipsis included': 'fail-to-pass',
        'truncate within max (#3) › gives the ellipsis alone for max 1': 'fail-to-pass',
        'truncate within max (#3) › keeps a text of exactly max': 'pass-to-pass'
      })
      expect(run.report.verdict).toBe('fail-to-pass')
      expect(run.exitCode).toBe(0)
    } finally {
      await run.repo.cleanup()
    }
  })
})

/**
 * `"test": "unit-kit test"`: a wrapper (shaped like ts-scripts) that refuses any option, `--ci` included, and
 * spawns jest with `--config <unit-kit>/configs/jest.js`, whose moduleNameMapper alone resolves `~/median`.
 * On main: the wrapper was found and given the runner's flags: "unit-kit: unknown or unexpected option: --ci"
 * → `error`, exit 2 (and bare jest, without the wrapper's config, cannot resolve `~/…`).
 */
describe('a wrapper that refuses the runner\'s flags and passes its own --config', () => {
  const wrapperConfig = expect.stringMatching(/\/unit-kit\/configs\/jest\.js$/)

  test('verify (bundled CLI): jest runs with the wrapper\'s config, the wrapper itself never gets a flag', async () => {
    const run = await runBundledCliOnFixture('median-wrapper')
    try {
      expect(run.report.runner).toMatchObject({
        captured: true,
        source: 'the test script: unit-kit test',
        runner: 'jest',
        via: ['npm test', 'unit-kit test', expect.stringMatching(/^jest --config \/.*\/unit-kit\/configs\/jest\.js$/)],
        argv: ['--config', wrapperConfig],
        cwd: '',
        beforeRunner: []
      })
      expect(run.report).toMatchObject({ framework: 'jest', runnerWrapper: null, build: null, verdict: 'fail-to-pass' })
      // Every run is jest itself with the wrapper's configuration, not `unit-kit test --ci …`.
      expect(run.report.preflight?.command).toMatch(/jest\.js src\/median\.spec\.js --config \/\S*\/unit-kit\/configs\/jest\.js --ci/)
      expect(run.report.preflight?.command).not.toContain('unit-kit.js')
      // `~/median` resolved: only the wrapper's moduleNameMapper maps it.
      expect(kinds(run.report)).toEqual({
        'median › gives the middle of an odd count': 'pass-to-pass',
        'median › gives the mean of the middle two for an even count (#9)': 'fail-to-pass',
        'median › refuses no numbers': 'pass-to-pass'
      })
      expect(run.report.tests.find((test) => test.kind === 'fail-to-pass')?.message).toMatch(/Expected: 2\.5\s+Received: 3/)
      expect(run.exitCode).toBe(0)
    } finally {
      await run.repo.cleanup()
    }
  })

  test('generate: the suite written for the wrapper\'s `~/` mapping runs and proves the fix', async () => {
    const run = await generate('median-wrapper')
    try {
      expect(run.report.runner).toMatchObject({ captured: true, runner: 'jest', via: ['npm test', 'unit-kit test', expect.any(String)], argv: ['--config', wrapperConfig] })
      expect(run.report.suite.files).toEqual([expect.objectContaining({ path: 'src/regression/issue-9.spec.js', collectedByRepoTests: true })])
      expect(kinds(run.report)).toEqual({
        'median of an even count (#9) › gives the mean of the middle two': 'fail-to-pass',
        'median of an even count (#9) › gives the mean of two numbers': 'fail-to-pass',
        'median of an even count (#9) › still gives the middle of an odd count': 'pass-to-pass'
      })
      expect(run.report.verdict).toBe('fail-to-pass')
      expect(run.exitCode).toBe(0)
    } finally {
      await run.repo.cleanup()
    }
  })
})

/**
 * `"test": "npm run build:docs && mocha"`, `build:docs` → `npm run build` → lib/kebab.esm.js (git ignores lib/),
 * the tests import `../lib/kebab.esm.js`. On main this one already reached fail-to-pass: its script reading
 * took `npm run build:docs` (a `build:` name) for the build and ran it in each tree. With the capture there is
 * no separate build: the capture pass ran the chain for real in each tree, and the report says so.
 */
describe('a test → build chain two scripts deep, tests importing the build output by a relative path', () => {
  test('verify (bundled CLI): the capture pass is each tree\'s build; the pre-fix tree\'s lib/ is its own, buggy one', async () => {
    const run = await runBundledCliOnFixture('kebab-build-chain')
    try {
      expect(run.report.runner).toMatchObject({
        captured: true,
        source: 'the test script: npm run build:docs && mocha',
        runner: 'mocha',
        via: ['npm test', 'npm run build:docs && mocha', 'mocha'],
        argv: [],
        cwd: '',
        beforeRunner: [{ command: 'npm run build:docs', durationMs: expect.any(Number) }]
      })
      expect(run.report).toMatchObject({ framework: 'mocha', build: null, verdict: 'fail-to-pass' })
      expect(run.log.join('\n')).toMatch(/Runner: npm test → npm run build:docs && mocha → mocha in the root, asked in .*; before it ran: npm run build:docs \(/)
      // Built in the trees only, never in the checkout.
      expect(existsSync(join(run.repo.dir, 'lib'))).toBe(false)
      expect(kinds(run.report)).toEqual({
        'kebabCase › splits camelCase': 'pass-to-pass',
        'kebabCase › joins words split by spaces and underscores': 'pass-to-pass',
        'kebabCase › keeps an acronym one word (#5)': 'fail-to-pass'
      })
      // The pre-fix tree imported lib/ built from its own (buggy) src/.
      expect(run.report.tests.find((test) => test.kind === 'fail-to-pass')?.message).toContain('parse-j-s-o-n-data')
      expect(run.exitCode).toBe(0)
    } finally {
      await run.repo.cleanup()
    }
  })

  test('generate: the suite imports each tree\'s own build and proves the fix', async () => {
    const run = await generate('kebab-build-chain')
    try {
      expect(run.report.runner).toMatchObject({ captured: true, runner: 'mocha', beforeRunner: [{ command: 'npm run build:docs' }] })
      expect(run.report.build).toBeNull()
      expect(run.report.suite.files).toEqual([expect.objectContaining({ path: 'test/regression/issue-5.test.js', collectedByRepoTests: true })])
      expect(kinds(run.report)).toEqual({
        'kebabCase keeps acronyms whole (#5) › keeps an acronym inside a name one word': 'fail-to-pass',
        'kebabCase keeps acronyms whole (#5) › keeps a leading acronym one word': 'fail-to-pass',
        'kebabCase keeps acronyms whole (#5) › keeps a trailing acronym one word': 'fail-to-pass',
        'kebabCase keeps acronyms whole (#5) › leaves plain camelCase as it was': 'pass-to-pass'
      })
      expect(run.report.verdict).toBe('fail-to-pass')
      expect(run.exitCode).toBe(0)
    } finally {
      await run.repo.cleanup()
    }
  })
})

/**
 * `"test": "tsx --test test/*.test.ts"`: node:test on TypeScript through tsx. On main this one already reached
 * fail-to-pass: the node-test adapter ran tsx's cli as its launcher. With the capture, the runs are node with
 * the options tsx gave its child (its loader through --import), as the script ran them.
 */
describe('node --test through tsx', () => {
  test('verify (bundled CLI): node with tsx\'s loader, as the script started it, runs the TypeScript tests', async () => {
    const run = await runBundledCliOnFixture('chunk-tsx-test')
    try {
      expect(run.report.runner).toMatchObject({
        captured: true,
        source: 'the test script: tsx --test test/*.test.ts',
        runner: 'node-test',
        // The shell expanded the glob before tsx started; tsx then started node with its loader.
        via: ['npm test', 'tsx --test test/*.test.ts', 'tsx --test test/chunk.test.ts', expect.stringMatching(/^node .*--import file:\/\/\S*\/tsx\/dist\/loader\.mjs .*--test test\/chunk\.test\.ts$/)],
        argv: ['test/chunk.test.ts'],
        execArgv: expect.arrayContaining(['--import', expect.stringMatching(/\/tsx\/dist\/loader\.mjs$/), '--test']),
        cwd: '',
        beforeRunner: []
      })
      expect(run.report).toMatchObject({ framework: 'node-test', build: null, verdict: 'fail-to-pass' })
      expect(run.report.preflight?.command).toMatch(/--import file:\/\/\S*\/tsx\/dist\/loader\.mjs .*--test\b/)
      expect(kinds(run.report)).toEqual({
        'chunk › splits evenly': 'pass-to-pass',
        'chunk › keeps the last, shorter chunk (#14)': 'fail-to-pass',
        'chunk › refuses a size of 0': 'pass-to-pass'
      })
      expect(run.exitCode).toBe(0)
    } finally {
      await run.repo.cleanup()
    }
  })

  test('generate: the TypeScript suite runs through tsx\'s loader on both trees', async () => {
    const run = await generate('chunk-tsx-test')
    try {
      expect(run.report.runner).toMatchObject({ captured: true, runner: 'node-test', execArgv: expect.arrayContaining(['--test']) })
      expect(run.report.suite.files).toEqual([expect.objectContaining({ path: 'test/regression-issue-14.test.ts', collectedByRepoTests: true })])
      expect(kinds(run.report)).toEqual({
        'chunk keeps the remainder (#14) › puts the remainder in a last, shorter chunk': 'fail-to-pass',
        'chunk keeps the remainder (#14) › gives one chunk when the size is larger than the list': 'fail-to-pass',
        'chunk keeps the remainder (#14) › adds no empty chunk to an even split': 'pass-to-pass'
      })
      expect(run.report.verdict).toBe('fail-to-pass')
      expect(run.exitCode).toBe(0)
    } finally {
      await run.repo.cleanup()
    }
  })
})
