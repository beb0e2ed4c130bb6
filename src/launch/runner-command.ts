/**
 * The captured launch as the command every test run uses (RunRequest.command, see frameworks/command.ts):
 * the same interpreter, interpreter options, runner entry and runner options, with the launch's own file
 * selection taken out, `{files}` where the runner takes the files to run, and the options the adapter sets
 * itself (reporters, coverage, shuffling, `--ci`…) or that would change what runs (watch modes, name
 * filters, shards, bail) taken out; the variables the test command set go first, as `NAME=value` words.
 *
 * The options are read with each runner's own grammar (runner-grammar.ts), from the runners' option
 * definitions: jest-cli's `options` (yargs), vitest's cac options (mri), mocha's `run-option-metadata.js`
 * (yargs, mocha-args.ts), ava's `lib/cli.js` (yargs), node's own options (node-test-args.ts), `pytest --help`
 * (argparse) with the common plugins' options.
 */
import { FILES_PLACEHOLDER } from '../frameworks/command.js'
import { ALIASES as MOCHA_ALIASES, parseMochaArgs, VALUE_FLAGS as MOCHA_VALUE_FLAGS } from '../frameworks/mocha-args.js'
import { keptNodeOptions } from '../frameworks/node-test-args.js'
import { splitWords } from '../frameworks/package-scripts.js'
import type { Launch, RunnerName } from './launch.js'
import { grammar, keptOptions } from './runner-grammar.js'

/**
 * The captured launch as a test-command template (RunRequest.command): the environment the script set as
 * NAME=value words, then the command line with its own file selection and the flags the adapter sets itself
 * taken out, and `{files}` where this runner takes the files.
 * It runs where the launch ran (`launch.cwd`; the adapters run it in the tree's root), in the tree it was
 * captured in (`rebaseTemplate` for another).
 */
export function launchTemplate(launch: Launch): string[] {
  return [...environmentWords(launch), ...commandWords(launch)]
}

/**
 * The template for another tree (the pre-fix tree): the captured tree's paths in its words (PATH's
 * `node_modules/.bin`, the runner's bin, a `--config` the wrapper gave as an absolute path, a loader's
 * `file://` URL) moved to the same place in `toTree`. Paths outside the tree stay as they are.
 */
export function rebaseTemplate(template: string[], fromTree: string, toTree: string): string[] {
  // The tree's root ends where no name character follows: `/`, `:`, the end, or a quote in a JSON word (`--config {"rootDir":"…"}`).
  const inTree = new RegExp(`${fromTree.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}(?![\\w.-])`, 'g')
  return template.map((word) => word.replace(inTree, toTree))
}

/**
 * How many files or patterns the launch names itself (`jest test/timezone.test`: 1; `jest`: 0). A script that
 * starts its runner more than once (once per time zone on one file, then on everything) is represented by
 * its broadest run.
 */
export function ownSelection(launch: Launch): number {
  const { runner, argv } = launch
  if (runner === 'node-test') return argv.length
  if (runner === 'mocha') return mochaPositionals(argv)
  const positional = argv.length - keptOptions(argv, OPTION_GRAMMARS[runner], () => false).length
  const subcommand = runner === 'vitest' && VITEST_COMMANDS.has(argv.find((word) => !word.startsWith('-')) ?? '')
  return subcommand ? positional - 1 : positional
}

const VITEST_COMMANDS = new Set(['run', 'watch', 'dev', 'related', 'bench', 'list'])

function mochaPositionals(argv: string[]): number {
  let count = 0
  for (let i = 0; i < argv.length; i++) {
    const word = argv[i]
    if (word === '--') return count + argv.length - i - 1
    if (!word.startsWith('-')) count++
    else if (!word.includes('=') && MOCHA_VALUE_FLAGS.has(MOCHA_ALIASES[word.replace(/^--?/, '')] ?? word.replace(/^--?/, ''))) i++
  }
  return count
}

/** `expandCommand` reads leading `NAME=value` words as variables; a name it would not read cannot be passed. */
const VARIABLE_NAME = /^[A-Za-z_][A-Za-z0-9_]*$/

function environmentWords(launch: Launch): string[] {
  const words: string[] = []
  for (const [name, value] of Object.entries(launch.env)) {
    if (!VARIABLE_NAME.test(name)) continue
    // pytest reads its options from PYTEST_ADDOPTS too (`-x`, `-k`): the same options go.
    const kept = name === 'PYTEST_ADDOPTS' && launch.runner === 'pytest' ? shellJoin(keptOptions(splitWords(value), PYTEST, droppedFrom(PYTEST_DROPPED))) : value
    if (kept !== '') words.push(`${name}=${kept}`)
  }
  return words
}

function commandWords(launch: Launch): string[] {
  const { runner } = launch
  if (runner === 'node-test') return nodeTestWords(launch)
  if (runner === 'pytest') return [launch.executable, ...launch.execArgv, ...(launch.main ? [launch.main] : []), FILES_PLACEHOLDER, ...pytestOptions(launch.argv)]
  // A Node runner: node, its options (a debugger or watch mode taken out), the runner's bin.
  const head = [launch.executable, ...keptNodeOptions(launch.execArgv), ...(launch.main ? [launch.main] : [])]
  // vitest runs its tests once under `run` (its other commands watch, or run related files); the files go right after it.
  if (runner === 'vitest') return [...head, 'run', FILES_PLACEHOLDER, ...keptOptions(launch.argv, VITEST, droppedFrom(VITEST_DROPPED))]
  return [...head, FILES_PLACEHOLDER, ...runnerOptions(runner, launch.argv)]
}

/**
 * node:test: node's own options with `--test` (the adapter puts its reporters right after it), then the
 * file: node reads its options up to the first file.
 */
function nodeTestWords(launch: Launch): string[] {
  const options = keptNodeOptions(launch.execArgv, ['test'])
  return [launch.executable, ...options, ...(options.includes('--test') ? [] : ['--test']), FILES_PLACEHOLDER]
}

function runnerOptions(runner: Exclude<RunnerName, 'node-test' | 'pytest' | 'vitest'>, argv: string[]): string[] {
  if (runner === 'jest') return keptOptions(argv, JEST, droppedFrom(JEST_DROPPED))
  if (runner === 'ava') return keptOptions(argv, AVA, droppedFrom(AVA_DROPPED))
  if (runner === 'mocha') return mochaOptions(argv)
  return keptOptions(argv, TAP, droppedFrom(TAP_DROPPED))
}

/**
 * mocha's options (mocha-args.ts drops its spec, filters, reporter, watch and bail), with the configuration
 * sources it keeps apart written back: the adapter reads them for its configuration wrapper.
 */
function mochaOptions(argv: string[]): string[] {
  const parsed = parseMochaArgs(argv)
  const sources = (['config', 'package', 'opts'] as const).flatMap((name) => {
    const value = parsed[name]
    return value === undefined ? [] : value === false ? [`--no-${name}`] : [`--${name}`, value]
  })
  return [...parsed.flags, ...sources]
}

/**
 * pytest's options; with an ini named by `-c` in another folder, pytest's rootdir becomes that folder and
 * its test ids (the JUnit report's classnames, which the adapter maps to files) leave the tree's layout:
 * `--rootdir=.` keeps them relative to where the run starts.
 */
function pytestOptions(argv: string[]): string[] {
  const options = keptOptions(argv, PYTEST, droppedFrom(PYTEST_DROPPED))
  const namesConfig = options.some((word) => /^(?:-c|--config-file(?:=|$)|--inifile(?:=|$))/.test(word))
  const namesRootdir = options.some((word) => /^--rootdir(?:=|$)/.test(word))
  return namesConfig && !namesRootdir ? [...options, '--rootdir=.'] : options
}

/** A dropped option, or one of its sub-options (vitest's `--coverage.enabled` is part of `--coverage`). */
function droppedFrom(names: Set<string>): (name: string) => boolean {
  return (name) => names.has(name) || [...names].some((dropped) => name.startsWith(`${dropped}.`))
}

/** Words joined so that pytest's shlex reads them back as they were. */
function shellJoin(words: string[]): string {
  return words.map((word) => (/^[\w@%+=:,./-]+$/.test(word) ? word : `'${word.replace(/'/g, `'\\''`)}'`)).join(' ')
}

/** jest-cli's `options` (jest 30, plus options older versions had): yargs, camelCase and kebab-case alike. */
const JEST = grammar({
  values: {
    value: [
      'cacheDirectory', 'changedSince', 'collectCoverageFrom', 'config', 'coverageDirectory', 'coverageProvider', 'coverageThreshold', 'filter',
      'globalSetup', 'globalTeardown', 'globals', 'haste', 'maxConcurrency', 'maxWorkers', 'moduleNameMapper', 'notifyMode', 'openHandlesTimeout',
      'outputFile', 'preset', 'prettierPath', 'resolver', 'rootDir', 'runner', 'seed', 'shard', 'testEnvironment', 'testEnvironmentOptions',
      'testFailureExitCode', 'testNamePattern', 'testResultsProcessor', 'testRunner', 'testSequencer', 'testTimeout', 'transform',
      'workerGracefulExitTimeout', 'setupTestFrameworkScriptFile', 'testURL'
    ],
    list: [
      'coveragePathIgnorePatterns', 'coverageReporters', 'ignoreProjects', 'moduleDirectories', 'moduleFileExtensions', 'modulePathIgnorePatterns',
      'modulePaths', 'projects', 'reporters', 'roots', 'selectProjects', 'setupFiles', 'setupFilesAfterEnv', 'snapshotSerializers', 'testMatch',
      'testPathIgnorePatterns', 'testPathPatterns', 'testPathPattern', 'testRegex', 'transformIgnorePatterns', 'unmockedModulePathPatterns',
      'watchPathIgnorePatterns', 'collectCoverageOnlyFrom'
    ]
  },
  switches: [
    'all', 'automock', 'bail', 'cache', 'changedFilesWithAncestor', 'ci', 'clearCache', 'clearMocks', 'collectCoverage', 'collectTests', 'color',
    'colors', 'coverage', 'debug', 'detectLeaks', 'detectOpenHandles', 'errorOnDeprecated', 'expand', 'findRelatedTests', 'forceExit',
    'injectGlobals', 'json', 'lastCommit', 'listTests', 'logHeapUsage', 'noStackTrace', 'notify', 'onlyChanged', 'onlyFailures', 'passWithNoTests',
    'randomize', 'resetMocks', 'resetModules', 'restoreMocks', 'runInBand', 'runTestsByPath', 'showConfig', 'showSeed', 'silent', 'skipFilter',
    'testLocationInResults', 'updateSnapshot', 'useStderr', 'verbose', 'waitForUnhandledRejections', 'watch', 'watchAll', 'watchman',
    'workerThreads', 'init', 'help', 'version'
  ],
  aliases: { b: 'bail', c: 'config', e: 'expand', env: 'testEnvironment', f: 'onlyFailures', h: 'help', i: 'runInBand', o: 'onlyChanged', t: 'testNamePattern', u: 'updateSnapshot', v: 'version', w: 'maxWorkers' }
})
/** File selection, what the adapter sets itself (report, coverage, order, `--ci`), watching, and modes that run no test. */
const JEST_DROPPED = new Set([
  'testPathPatterns', 'testPathPattern', 'findRelatedTests', 'testNamePattern', 'onlyChanged', 'onlyFailures', 'changedSince', 'changedFilesWithAncestor',
  'lastCommit', 'shard', 'filter', 'all', 'bail', 'ci', 'json', 'outputFile', 'runTestsByPath', 'forceExit', 'testLocationInResults', 'randomize', 'seed',
  'showSeed', 'watchman', 'coverage', 'collectCoverage', 'coverageDirectory', 'coverageReporters', 'coverageThreshold', 'reporters',
  'testResultsProcessor', 'updateSnapshot', 'watch', 'watchAll', 'watchPathIgnorePatterns', 'notify', 'notifyMode', 'listTests', 'showConfig',
  'collectTests', 'clearCache', 'init', 'debug', 'help', 'version'
])

/**
 * vitest's cac options (vitest 3): parsed by mri, where an option not on the boolean list takes the next
 * word that is not an option, and the boolean list holds the names as declared (camelCase).
 */
const VITEST = grammar({
  switches: [
    'update', 'watch', 'ui', 'open', 'hideSkippedTests', 'coverage', 'coverage.all', 'coverage.enabled', 'coverage.clean', 'coverage.cleanOnRerun',
    'coverage.reportOnFailure', 'coverage.allowExternal', 'coverage.skipFull', 'coverage.thresholds', 'coverage.thresholds.100',
    'coverage.thresholds.perFile', 'coverage.thresholds.autoUpdate', 'coverage.watermarks', 'isolate', 'globals', 'dom', 'browser.enabled',
    'browser.headless', 'browser.isolate', 'browser.ui', 'browser.fileParallelism', 'fileParallelism', 'passWithNoTests', 'logHeapUsage', 'allowOnly',
    'dangerouslyIgnoreUnhandledErrors', 'sequence.shuffle', 'sequence.shuffle.files', 'sequence.shuffle.tests', 'sequence.concurrent', 'diff.expand',
    'diff.includeChangeCounts', 'diff.omitAnnotationLines', 'diff.printBasicPrototype', 'expandSnapshotDiff', 'disableConsoleIntercept', 'typecheck',
    'typecheck.enabled', 'typecheck.only', 'typecheck.allowJs', 'typecheck.ignoreSourceErrors', 'cache', 'expect', 'expect.requireAssertions',
    'expect.poll', 'printConsoleTrace', 'includeTaskLocation', 'run', 'clearScreen', 'standalone', 'poolOptions.threads.isolate',
    'poolOptions.threads.singleThread', 'poolOptions.threads.useAtomics', 'poolOptions.forks.isolate', 'poolOptions.forks.singleFork', 'help', 'version'
  ],
  aliases: { r: 'root', c: 'config', u: 'update', w: 'watch', t: 'testNamePattern', h: 'help', v: 'version' },
  unknown: 'optional',
  camelCase: 'names'
})
const VITEST_DROPPED = new Set([
  'testNamePattern', 'watch', 'update', 'ui', 'open', 'api', 'reporter', 'outputFile', 'coverage', 'shard', 'changed', 'related', 'bail',
  'sequence.shuffle', 'sequence.seed', 'includeTaskLocation', 'mergeReports', 'inspect', 'inspectBrk', 'standalone', 'run', 'help', 'version'
])

/** ava's `FLAGS` and `--config` (ava 7; yargs); `debug`'s own options go with it (the template runs the tests). */
const AVA = grammar({
  values: { value: ['concurrency', 'match', 'nodeArguments', 'timeout', 'config', 'host', 'port'] },
  switches: ['failFast', 'serial', 'tap', 'updateSnapshots', 'verbose', 'watch', 'color', 'break', 'workerThreads', 'resetCache', 'help', 'version'],
  aliases: { c: 'concurrency', m: 'match', s: 'serial', t: 'tap', T: 'timeout', u: 'updateSnapshots', v: 'verbose', w: 'watch' }
})
const AVA_DROPPED = new Set(['match', 'tap', 'verbose', 'updateSnapshots', 'watch', 'failFast', 'host', 'port', 'break', 'resetCache', 'help', 'version'])

/**
 * node-tap's options (16: yargs-like `tap --help`; 18+: jackspeak): those that take a value, and what the tap
 * adapter sets itself (its reporter, coverage) or that changes what runs (watch, only changed files, bail).
 */
const TAP = grammar({
  values: {
    value: [
      'reporter', 'output-file', 'output-dir', 'coverage-report', 'jobs', 'timeout', 'node-arg', 'grep', 'include', 'exclude', 'before', 'after',
      'test-env', 'test-arg', 'test-regex', 'test-ignore', 'nyc-arg', 'files', 'branches', 'functions', 'lines', 'statements', 'plugin', 'serial'
    ]
  },
  switches: ['coverage', 'no-coverage', 'disable-coverage', 'check-coverage', '100', 'watch', 'save', 'changed', 'bail', 'only', 'color', 'allow-incomplete-coverage'],
  aliases: { R: 'reporter', o: 'output-file', d: 'output-dir', j: 'jobs', t: 'timeout', w: 'watch', b: 'bail', g: 'grep', O: 'only', c: 'color', s: 'save' },
  // Its options are kebab-case as written; `--no-x` turns x off.
  camelCase: 'none'
})
const TAP_DROPPED = new Set([
  'reporter', 'output-file', 'output-dir', 'coverage-report', 'coverage', 'no-coverage', 'disable-coverage', 'check-coverage', '100', 'branches', 'functions',
  'lines', 'statements', 'watch', 'save', 'changed', 'bail', 'only', 'grep', 'allow-incomplete-coverage'
])

/**
 * `pytest --help` (pytest 9, argparse: no `true`/`false` words, no `--no-` negation), with the options of
 * the plugins repositories commonly pass on the command line (pytest-cov, xdist, timeout, rerunfailures,
 * randomly, asyncio, django, hypothesis, html, benchmark). An option it does not know is taken as a switch.
 */
const PYTEST = grammar({
  values: {
    value: [
      'k', 'm', 'maxfail', 'pdbcls', 'capture', 'last-failed-no-failures', 'durations', 'durations-min', 'verbosity', 'r', 'tb', 'show-capture', 'color',
      'code-highlight', 'pastebin', 'junit-xml', 'junit-prefix', 'pythonwarnings', 'ignore', 'ignore-glob', 'deselect', 'confcutdir', 'import-mode',
      'doctest-report', 'doctest-glob', 'config-file', 'rootdir', 'basetemp', 'p', 'override-ini', 'assert', 'log-level', 'log-format', 'log-date-format',
      'log-cli-level', 'log-cli-format', 'log-cli-date-format', 'log-file', 'log-file-mode', 'log-file-level', 'log-file-format', 'log-file-date-format',
      'log-auto-indent', 'log-disable', 'cov-report', 'cov-config', 'cov-fail-under', 'cov-context', 'numprocesses', 'maxprocesses', 'dist', 'tx',
      'rsyncdir', 'rsyncignore', 'timeout', 'timeout-method', 'session-timeout', 'reruns', 'reruns-delay', 'only-rerun', 'randomly-seed', 'asyncio-mode',
      'asyncio-default-fixture-loop-scope', 'ds', 'dc', 'hypothesis-profile', 'hypothesis-verbosity', 'hypothesis-seed', 'html', 'css', 'json-report-file',
      'report-log', 'benchmark-min-time', 'benchmark-max-time', 'benchmark-min-rounds', 'benchmark-timer', 'benchmark-calibration-precision',
      'benchmark-warmup-iterations', 'benchmark-save', 'benchmark-json', 'benchmark-cprofile', 'benchmark-cprofile-loops', 'benchmark-cprofile-top',
      'benchmark-storage', 'benchmark-sort', 'benchmark-group-by', 'benchmark-columns', 'benchmark-name', 'benchmark-time-unit'
    ],
    optional: ['cache-show', 'debug', 'cov', 'benchmark-warmup', 'benchmark-compare', 'benchmark-cprofile-dump', 'benchmark-histogram', 'benchmark-netrc'],
    list: ['benchmark-compare-fail']
  },
  aliases: {
    x: 'exitfirst', V: 'version', h: 'help', v: 'verbose', q: 'quiet', l: 'showlocals', c: 'config-file', o: 'override-ini', W: 'pythonwarnings',
    n: 'numprocesses', f: 'looponfail', lf: 'last-failed', ff: 'failed-first', nf: 'new-first', sw: 'stepwise', 'sw-skip': 'stepwise-skip',
    'sw-reset': 'stepwise-reset', lfnf: 'last-failed-no-failures', co: 'collect-only', funcargs: 'fixtures', junitxml: 'junit-xml',
    junitprefix: 'junit-prefix', 'disable-pytest-warnings': 'disable-warnings'
  },
  negation: false,
  camelCase: 'none',
  booleanWords: false
})
/** File and test selection, stopping early, what the adapter sets itself (JUnit report, coverage), debuggers, modes that run no test. */
const PYTEST_DROPPED = new Set([
  'k', 'm', 'last-failed', 'failed-first', 'new-first', 'stepwise', 'stepwise-skip', 'stepwise-reset', 'last-failed-no-failures', 'deselect', 'pyargs',
  'exitfirst', 'maxfail', 'looponfail', 'pdb', 'pdbcls', 'trace', 'collect-only', 'fixtures', 'fixtures-per-test', 'markers', 'setup-only', 'setup-plan',
  'cache-show', 'junit-xml', 'junit-prefix', 'cov', 'cov-report', 'cov-config', 'cov-fail-under', 'cov-context', 'cov-append', 'cov-branch', 'no-cov',
  'pastebin', 'debug', 'benchmark-only', 'version', 'help'
])

/** The option grammars of the runners read by `keptOptions` (mocha and node have their own readers). */
const OPTION_GRAMMARS = { jest: JEST, vitest: VITEST, ava: AVA, tap: TAP, pytest: PYTEST }
