/**
 * Which files the repository's own test command collects, read statically from its configuration at head
 * (package.json, `.mocharc.*`, `pytest.ini`, …), never by running its code. A suite proven here by naming
 * its files can still be skipped by the project's CI once copied in: a non-recursive `mocha test/*.js`, a
 * jest `testMatch`, pytest `testpaths`. `collects` answers null when the rules cannot be read (a JavaScript
 * config file, an unknown test command).
 */
import { minimatch } from 'minimatch'
import picomatch from 'picomatch'
import { parse as parseYaml } from 'yaml'
import { appendAll } from '../arrays.js'
import type { ResolvedConfig } from '../frameworks/adapter.js'
import { scriptCommands, scriptTarget } from '../frameworks/package-scripts.js'

export interface Collection {
  /** Where the rules were read from, for the log; null when they could not be read. */
  source: string | null
  /** True when the repository's own test command runs this repository path; null: unknown. */
  collects(path: string): boolean | null
  /** Where the runner runs compiled tests: the compiled file a source test runs as (null: none). */
  compiledPath?(path: string): string | null
}

/** The head tree as the rules are read: a file's text (null when absent) and every path. */
export interface HeadTree {
  read(path: string): Promise<string | null>
  files: readonly string[]
}

type Rules = { source: string; collects: (path: string) => boolean } | null
type PackageJson = { scripts?: Record<string, string>; [key: string]: unknown }

export const UNKNOWN_COLLECTION: Collection = { source: null, collects: () => null }

export interface CollectionOptions {
  /** The package whose tests these are ('' or absent: the root): its own configuration, its own paths. */
  packageDir?: string
  /** The runner's own account of its configuration, for one that cannot be read from files (jest only). */
  resolved?: ResolvedConfig | null
}

const READERS: Record<string, (tree: HeadTree, pkg: PackageJson, resolved: ResolvedConfig | null) => Promise<Rules>> = {
  mocha: mochaRules,
  'node-test': nodeTestRules,
  jest: jestRules,
  vitest: vitestRules,
  ava: avaRules,
  pytest: pytestRules
}

export async function readCollection(framework: string, repoTree: HeadTree, options: CollectionOptions = {}): Promise<Collection> {
  const reader = READERS[framework]
  const packageDir = clean(options.packageDir ?? '')
  const tree = packageDir ? packageTree(repoTree, packageDir) : repoTree
  const pkg = parseJson(await tree.read('package.json')) ?? {}
  const rules = reader ? await reader(tree, pkg as PackageJson, options.resolved ?? null).catch(() => null) : null
  if (!rules) return UNKNOWN_COLLECTION
  // Repository paths in, package paths to the rules: a file outside the package is not its tests'.
  return { source: rules.source, collects: (path) => (within(path, packageDir) ? rules.collects(packageDir ? path.slice(packageDir.length + 1) : path) : false) }
}

/** A monorepo package's folder as a tree of its own. */
function packageTree(tree: HeadTree, packageDir: string): HeadTree {
  const prefix = `${packageDir}/`
  return { read: (path) => tree.read(prefix + path), files: tree.files.filter((path) => path.startsWith(prefix)).map((path) => path.slice(prefix.length)) }
}

// ---------------------------------------------------------------------------------------------- scripts

/**
 * The words after the runner in the `test` script (following `npm run x`). A script may run it more than
 * once (`npm run test-tz && jest`, `vitest --run typecheck && vitest run`): the suite is collected if any
 * run collects it, so the least narrowed run counts — the one with the fewest path filters.
 */
export function runnerArgs(scripts: Record<string, string> | undefined, runner: RegExp): string[] | null {
  const runs = runnerInvocations(scripts, runner, 'test', 0).filter((words) => !words.some((word) => NOT_A_TEST_RUN.has(word)))
  if (runs.length === 0) return null
  return runs.reduce((widest, words) => (pathFilters(words) < pathFilters(widest) ? words : widest))
}

// Subcommands that run something else than the tests (type tests, benchmarks).
const NOT_A_TEST_RUN = new Set(['typecheck', 'bench'])
// Subcommands that run the tests, narrowing nothing.
const PLAIN_RUN = new Set(['run', 'watch', 'dev', 'test'])
const pathFilters = (words: string[]) => words.filter((word) => !word.startsWith('-') && !PLAIN_RUN.has(word)).length

function runnerInvocations(scripts: Record<string, string> | undefined, runner: RegExp, name: string, depth: number): string[][] {
  const script = scripts?.[name]
  if (!script || depth > 3) return []
  return scriptCommands(script).flatMap((words) => {
    const at = words.findIndex((word) => runner.test(word))
    if (at >= 0) return [words.slice(at + 1)]
    const target = scriptTarget(words)
    return target && target !== name ? runnerInvocations(scripts, runner, target, depth + 1) : []
  })
}

interface ParsedArgs {
  positionals: string[]
  options: Map<string, string[]>
}

/** Flags and positionals; `valueFlags` are the options whose value is the next word. */
export function parseArgs(words: string[], valueFlags: ReadonlySet<string>, aliases: Record<string, string> = {}): ParsedArgs {
  const parsed: ParsedArgs = { positionals: [], options: new Map() }
  for (let i = 0; i < words.length; i++) {
    const word = words[i]
    if (word === '--') break
    if (!word.startsWith('-') || word === '-') {
      parsed.positionals.push(word)
      continue
    }
    const [raw, ...inline] = word.replace(/^--?/, '').split('=')
    const name = aliases[raw] ?? raw
    const value = inline.length ? inline.join('=') : valueFlags.has(name) ? (words[++i] ?? '') : 'true'
    parsed.options.set(name, [...(parsed.options.get(name) ?? []), value])
  }
  return parsed
}

// ------------------------------------------------------------------------------------------------ mocha

const MOCHA_WORD = /(?:^|[\\/])_?mocha(?:\.js)?$/
// The same value-taking flags mocha-args.ts knows: their values are not spec paths.
const MOCHA_VALUE_FLAGS = new Set([
  'config', 'extension', 'fgrep', 'file', 'global', 'grep', 'ignore', 'jobs', 'node-option', 'package', 'reporter',
  'reporter-option', 'require', 'retries', 'slow', 'spec', 'timeout', 'ui', 'watch-files', 'watch-ignore', 'opts', 'compilers'
])
const MOCHA_ALIASES: Record<string, string> = { exclude: 'ignore', r: 'require', R: 'reporter', t: 'timeout', u: 'ui', g: 'grep', f: 'fgrep', j: 'jobs', n: 'node-option', s: 'slow', O: 'reporter-option' }
const MOCHA_CONFIGS = ['.mocharc.js', '.mocharc.cjs', '.mocharc.mjs', '.mocharc.yaml', '.mocharc.yml', '.mocharc.jsonc', '.mocharc.json']

async function mochaRules(tree: HeadTree, pkg: PackageJson): Promise<Rules> {
  const words = runnerArgs(pkg.scripts, MOCHA_WORD)
  // A test script that never calls mocha (make, a custom runner): the command is unknown.
  if (!words && pkg.scripts?.test) return null
  const args = parseArgs(words ?? [], MOCHA_VALUE_FLAGS, MOCHA_ALIASES)
  const config = await mochaConfig(tree, args.options.get('config')?.[0])
  if (config === null) return null
  const fromPackage = (pkg.mocha ?? {}) as Record<string, unknown>
  const sources = [config.values, fromPackage]
  const spec = [...args.positionals, ...(args.options.get('spec') ?? []), ...sources.flatMap((values) => list(values.spec))]
  const recursive = args.options.has('recursive') || sources.some((values) => values.recursive === true)
  const extensions = ['js', 'cjs', 'mjs', ...(args.options.get('extension') ?? []), ...sources.flatMap((values) => list(values.extension))].map((ext) => ext.replace(/^\./, ''))
  const ignore = [...(args.options.get('ignore') ?? []), ...sources.flatMap((values) => list(values.ignore))]
  // mocha's own default: the files directly in ./test.
  const specs = spec.length ? spec : ['./test']
  const inSpec = (path: string) => specs.some((entry) => mochaSpecMatches(entry, path, { recursive, extensions, files: tree.files }))
  const source = `mocha ${[...specs, recursive ? '--recursive' : ''].join(' ').trim()}${config.file ? ` (${config.file})` : ''}`
  return { source, collects: (path) => inSpec(path) && !ignore.some((pattern) => glob(path, pattern)) }
}

interface MochaConfig {
  file: string | null
  values: Record<string, unknown>
}

/** The config file mocha would load: a JSON or YAML one is read; a JavaScript one cannot be (null). */
async function mochaConfig(tree: HeadTree, named: string | undefined): Promise<MochaConfig | null> {
  const file = named ?? MOCHA_CONFIGS.find((name) => tree.files.includes(name))
  if (!file) return { file: null, values: {} }
  if (/\.[cm]?js$/.test(file)) return null
  const text = await tree.read(file.replace(/^\.\//, ''))
  if (text === null) return null
  const values = /\.ya?ml$/.test(file) ? parseYaml(text) : parseJson(text, true)
  return values && typeof values === 'object' ? { file, values: values as Record<string, unknown> } : null
}

function mochaSpecMatches(entry: string, path: string, options: { recursive: boolean; extensions: string[]; files: readonly string[] }): boolean {
  const spec = clean(entry)
  if (isGlob(spec)) return glob(path, spec)
  if (path === spec || options.extensions.some((ext) => path === `${spec}.${ext}`)) return true
  const isFolder = spec === '' || options.files.some((file) => file.startsWith(`${spec}/`))
  if (!isFolder || !within(path, spec)) return false
  const rest = spec === '' ? path : path.slice(spec.length + 1)
  return (options.recursive || !rest.includes('/')) && options.extensions.some((ext) => path.endsWith(`.${ext}`))
}

// -------------------------------------------------------------------------------------------- node:test

const NODE_WORD = /(?:^|[\\/])(?:node|nodejs|tsx)(?:\.exe)?$/
const NODE_VALUE_FLAGS = new Set([
  'require', 'r', 'import', 'loader', 'experimental-loader', 'conditions', 'C', 'env-file', 'env-file-if-exists', 'input-type',
  'disable-warning', 'test-concurrency', 'test-timeout', 'test-isolation', 'experimental-test-isolation', 'test-global-setup',
  'test-reporter', 'test-reporter-destination', 'test-name-pattern', 'test-skip-pattern', 'test-shard', 'test-coverage-include',
  'test-coverage-exclude', 'test-coverage-lines', 'test-coverage-branches', 'test-coverage-functions', 'watch-path'
])
const NODE_EXT = '{cjs,mjs,js,cts,mts,ts}'
// Node's default test patterns (with the TypeScript variants node ≥ 22.18 runs by default).
const NODE_DEFAULTS = [`**/*.test.${NODE_EXT}`, `**/*-test.${NODE_EXT}`, `**/*_test.${NODE_EXT}`, `**/test-*.${NODE_EXT}`, `**/test.${NODE_EXT}`, `**/test/**/*.${NODE_EXT}`]

async function nodeTestRules(tree: HeadTree, pkg: PackageJson): Promise<Rules> {
  const command = nodeTestCommand(pkg.scripts)
  if (!command) return null
  const byDefault = (path: string) => !path.split('/').includes('node_modules') && NODE_DEFAULTS.some((pattern) => glob(path, pattern))
  const patterns = command.positionals.map(clean)
  if (patterns.length === 0) return { source: 'node --test (its default patterns)', collects: byDefault }
  const isFolder = (entry: string) => tree.files.some((file) => file.startsWith(`${entry}/`))
  const matches = (path: string, entry: string) => (isGlob(entry) ? glob(path, entry) : path === entry || (isFolder(entry) && within(path, entry) && byDefault(path)))
  return { source: `node --test ${command.positionals.join(' ')}`, collects: (path) => patterns.some((entry) => matches(path, entry)) }
}

/** The `node … --test …` command of the test script: its file patterns are the words after its options. */
function nodeTestCommand(scripts: Record<string, string> | undefined, name = 'test', depth = 0): ParsedArgs | null {
  const script = scripts?.[name]
  if (!script || depth > 3) return null
  for (const words of scriptCommands(script)) {
    const at = words.findIndex((word) => NODE_WORD.test(word))
    const args = at >= 0 ? parseArgs(words.slice(at + 1), NODE_VALUE_FLAGS) : null
    if (args?.options.has('test')) return args
    const target = scriptTarget(words)
    const found = target && target !== name ? nodeTestCommand(scripts, target, depth + 1) : null
    if (found) return found
  }
  return null
}

// ------------------------------------------------------------------------------------------------- jest

const JEST_WORD = /(?:^|[\\/])jest(?:\.js)?$/
const JEST_VALUE_FLAGS = new Set(['config', 'c', 'testPathPattern', 'testPathPatterns', 'testMatch', 'testRegex', 'roots', 'rootDir', 'selectProjects', 'reporters', 'maxWorkers', 'w', 'testTimeout', 'coverageReporters', 'testNamePattern', 't', 'shard', 'env', 'setupFiles', 'testEnvironment'])
const JEST_JS_CONFIGS = /^jest\.config\.(?:js|ts|mjs|cjs|mts|cts)$/
const JEST_DEFAULT_MATCH = ['**/__tests__/**/*.[jt]s?(x)', '**/?(*.)+(spec|test).[jt]s?(x)']
const JEST_DEFAULT_EXTENSIONS = ['js', 'mjs', 'cjs', 'jsx', 'ts', 'mts', 'cts', 'tsx', 'json', 'node']

async function jestRules(tree: HeadTree, pkg: PackageJson, resolved: ResolvedConfig | null): Promise<Rules> {
  const args = parseArgs(runnerArgs(pkg.scripts, JEST_WORD) ?? [], JEST_VALUE_FLAGS)
  if (!resolved && ['testMatch', 'testRegex', 'roots', 'rootDir', 'selectProjects'].some((flag) => args.options.has(flag))) return null
  const config = resolved ? { file: resolved.source, values: resolved.values } : await jestConfig(tree, pkg, args.options.get('config')?.[0] ?? args.options.get('c')?.[0])
  if (!config || config.values.projects) return null
  const { values } = config
  const rootDir = clean(typeof values.rootDir === 'string' ? values.rootDir : '')
  const atRoot = (text: string) => text.replace(/<rootDir>\/?/g, rootDir ? `${rootDir}/` : '')
  const roots = list(values.roots ?? ['<rootDir>']).map((root) => clean(atRoot(root)))
  const regexes = list(values.testRegex).map((text) => new RegExp(text))
  const match = list(values.testMatch ?? (regexes.length ? [] : JEST_DEFAULT_MATCH)).map(atRoot)
  const ignored = list(values.testPathIgnorePatterns ?? ['/node_modules/']).map((text) => new RegExp(atRoot(text)))
  const extensions = list(values.moduleFileExtensions ?? JEST_DEFAULT_EXTENSIONS)
  const filters = [...args.positionals, ...(args.options.get('testPathPattern') ?? []), ...(args.options.get('testPathPatterns') ?? [])].map((text) => new RegExp(text))
  const matchesTest = (path: string) => (regexes.length ? regexes.some((regex) => regex.test(`/${path}`)) : jestGlobs(path, match))
  return {
    source: resolved ? resolved.source : `jest (${config.file})`,
    collects: (path) =>
      roots.some((root) => within(path, root)) &&
      extensions.some((ext) => path.endsWith(`.${ext}`)) &&
      matchesTest(path) &&
      !ignored.some((regex) => regex.test(`/${path}`)) &&
      (filters.length === 0 || filters.some((regex) => regex.test(path)))
  }
}

/** package.json's `jest`, or a JSON config; a JavaScript config file cannot be read (null). */
async function jestConfig(tree: HeadTree, pkg: PackageJson, named: string | undefined): Promise<MochaConfig | null> {
  const file = named ? clean(named) : tree.files.find((path) => JEST_JS_CONFIGS.test(path) || path === 'jest.config.json')
  if (!file) return { file: 'package.json', values: (pkg.jest ?? {}) as Record<string, unknown> }
  if (!file.endsWith('.json')) return null
  const values = parseJson(await tree.read(file))
  return values ? { file, values } : null
}

// ----------------------------------------------------------------------------------------------- vitest

const VITEST_WORD = /(?:^|[\\/])vitest(?:\.mjs)?$/
const VITEST_CONFIG = /^(?:vitest|vite)\.config\.(?:js|ts|mjs|cjs|mts|cts)$/
const VITEST_DEFAULT_INCLUDE = ['**/*.{test,spec}.?(c|m)[jt]s?(x)']
const VITEST_DEFAULT_EXCLUDE = ['**/node_modules/**', '**/dist/**', '**/cypress/**', '**/.{idea,git,cache,output,temp}/**']
const VITEST_OPAQUE = /\b(?:workspace|projects|dir|root|coverage)\b/
const VITEST_VALUE_FLAGS = new Set(['config', 'c', 'root', 'r', 'dir', 'project', 'reporter', 'outputFile', 'environment', 'pool', 'shard', 'testNamePattern', 't'])

async function vitestRules(tree: HeadTree, pkg: PackageJson): Promise<Rules> {
  const args = parseArgs(runnerArgs(pkg.scripts, VITEST_WORD) ?? [], VITEST_VALUE_FLAGS)
  if (['config', 'c', 'root', 'r', 'dir', 'project'].some((flag) => args.options.has(flag))) return null
  const configFile = tree.files.find((path) => VITEST_CONFIG.test(path) || /^vitest\.(?:workspace|projects)\./.test(path))
  const text = configFile ? await tree.read(configFile) : ''
  if (text === null) return null
  // Only a config whose include/exclude are plain literals, with nothing else that moves the files.
  if (VITEST_OPAQUE.test(text)) return null
  const include = literalArray(text, 'include')
  const exclude = literalArray(text, 'exclude')
  if (include === null || exclude === null) return null
  const filters = args.positionals.filter((word) => word !== 'run' && word !== 'watch' && word !== 'related')
  const patterns = include.length ? include : VITEST_DEFAULT_INCLUDE
  const excluded = exclude.length ? exclude : VITEST_DEFAULT_EXCLUDE
  return {
    source: `vitest (${configFile ?? 'its defaults'})`,
    collects: (path) => globs(path, patterns) && !globs(path, excluded) && (filters.length === 0 || filters.some((filter) => path.includes(filter)))
  }
}

/** `key: ['a', "b"]` as written in a config file: [] when absent, null when not a plain literal or said twice. */
export function literalArray(text: string, key: string): string[] | null {
  const mentions = text.match(new RegExp(`\\b${key}\\s*:`, 'g')) ?? []
  if (mentions.length === 0) return []
  const literal = new RegExp(`\\b${key}\\s*:\\s*\\[((?:\\s*(?:'[^']*'|"[^"]*"|\`[^\`$]*\`)\\s*,?)*)\\s*\\]`).exec(text)
  if (mentions.length > 1 || !literal) return null
  return [...literal[1].matchAll(/'([^']*)'|"([^"]*)"|`([^`]*)`/g)].map((match) => match[1] ?? match[2] ?? match[3])
}

// -------------------------------------------------------------------------------------------------- ava

const AVA_WORD = /(?:^|[\\/])ava(?:\.js)?$/
const AVA_VALUE_FLAGS = new Set(['match', 'm', 'concurrency', 'c', 'timeout', 'T', 'node-arguments', 'config', 'reporter'])
const AVA_JS_CONFIG = /^ava\.config\.(?:js|cjs|mjs)$/
const AVA_DEFAULT_FILES = ['test.EXT', 'src/test.EXT', 'source/test.EXT', '**/test-*.EXT', '**/*.spec.EXT', '**/*.test.EXT', '**/test/**/*.EXT', '**/tests/**/*.EXT', '**/__tests__/**/*.EXT']
const AVA_DEFAULT_EXCLUDED = ['**/{__tests__,test,tests}/**/{__helper__,__helpers__,helper,helpers,__fixture__,__fixtures__,fixture,fixtures}/**']

async function avaRules(tree: HeadTree, pkg: PackageJson): Promise<Rules> {
  const words = runnerArgs(pkg.scripts, AVA_WORD)
  if (!words && pkg.scripts?.test) return null
  const args = parseArgs(words ?? [], AVA_VALUE_FLAGS)
  if (args.options.has('config') || tree.files.some((path) => AVA_JS_CONFIG.test(path))) return null
  const config = (pkg.ava ?? {}) as Record<string, unknown>
  const extensions = avaExtensions(config)
  const ext = extensions.length === 1 ? extensions[0] : `{${extensions.join(',')}}`
  const patterns = config.files ? list(config.files) : [...AVA_DEFAULT_FILES.map((pattern) => pattern.replace('EXT', ext)), ...AVA_DEFAULT_EXCLUDED.map((pattern) => `!${pattern}`)]
  const filters = args.positionals.map(clean)
  const name = (path: string) => path.split('/').pop()!
  return {
    source: `ava (${config.files ? 'package.json ava.files' : 'its default files'})`,
    collects: (path) =>
      extensions.some((extension) => path.endsWith(`.${extension}`)) &&
      !name(path).startsWith('_') &&
      !path.split('/').includes('node_modules') &&
      globs(path, patterns) &&
      (filters.length === 0 || filters.some((filter) => (isGlob(filter) ? glob(path, filter) : path === filter || within(path, filter))))
  }
}

function avaExtensions(config: Record<string, unknown>): string[] {
  const declared = Array.isArray(config.extensions) ? config.extensions : config.extensions && typeof config.extensions === 'object' ? Object.keys(config.extensions) : []
  const typescript = config.typescript ? ['ts'] : []
  return declared.length ? [...declared.map(String), ...typescript] : ['js', 'cjs', 'mjs', ...typescript]
}

// ----------------------------------------------------------------------------------------------- pytest

// pytest's configuration files, in the order it looks for them, with the section each must hold.
const PYTEST_CONFIGS: Array<[string, string | null]> = [
  ['pytest.ini', null],
  ['pyproject.toml', 'tool.pytest.ini_options'],
  ['tox.ini', 'pytest'],
  ['setup.cfg', 'tool:pytest']
]
const PYTEST_SKIPPED_FOLDER = /^(?:\..*|.*\.egg|_darcs|build|CVS|dist|node_modules|venv|\{arch\})$/

async function pytestRules(tree: HeadTree): Promise<Rules> {
  const found = await pytestConfig(tree)
  const values = found?.values ?? new Map<string, string[]>()
  const testpaths = (values.get('testpaths') ?? []).map(clean)
  const pythonFiles = values.get('python_files') ?? ['test_*.py', '*_test.py']
  const matchesName = (path: string) => pythonFiles.some((pattern) => (pattern.includes('/') ? glob(path, `**/${pattern}`) : glob(path.split('/').pop()!, pattern)))
  const inTestpaths = (path: string) => testpaths.length === 0 || testpaths.some((entry) => (isGlob(entry) ? glob(path, entry) || glob(path, `${entry}/**`) : within(path, entry)))
  return {
    source: `pytest (${found?.file ?? 'its defaults'}: testpaths ${testpaths.join(' ') || '.'}, python_files ${pythonFiles.join(' ')})`,
    collects: (path) => path.endsWith('.py') && matchesName(path) && inTestpaths(path) && !path.split('/').slice(0, -1).some((folder) => PYTEST_SKIPPED_FOLDER.test(folder))
  }
}

async function pytestConfig(tree: HeadTree): Promise<{ file: string; values: Map<string, string[]> } | null> {
  for (const [file, section] of PYTEST_CONFIGS) {
    const text = tree.files.includes(file) ? await tree.read(file) : null
    if (text === null) continue
    const body = section === null ? (sectionText(text, 'pytest') ?? '') : sectionText(text, section)
    if (body === null) continue
    return { file, values: file.endsWith('.toml') ? tomlValues(body) : iniValues(body) }
  }
  return null
}

/** The lines of `[name]` up to the next section; null when there is no such section. */
export function sectionText(text: string, name: string): string | null {
  const lines = text.split(/\r?\n/)
  const start = lines.findIndex((line) => line.trim() === `[${name}]`)
  if (start < 0) return null
  const end = lines.findIndex((line, i) => i > start && /^\s*\[[^\]]+\]\s*$/.test(line))
  return lines.slice(start + 1, end < 0 ? undefined : end).join('\n')
}

/** `key = a b` with indented continuation lines, split on whitespace as pytest splits its ini lists. */
export function iniValues(body: string): Map<string, string[]> {
  const values = new Map<string, string[]>()
  let key: string | null = null
  for (const line of body.split('\n')) {
    if (/^\s*[#;]/.test(line) || line.trim() === '') continue
    const entry = /^([A-Za-z_][\w-]*)\s*[=:]\s*(.*)$/.exec(line)
    if (entry) values.set((key = entry[1]), words(entry[2]))
    else if (key && /^\s/.test(line)) appendAll(values.get(key)!, words(line))
  }
  return values
}

/** `key = "a b"` or `key = ["a", "b"]` (over lines), as in `[tool.pytest.ini_options]`. */
export function tomlValues(body: string): Map<string, string[]> {
  const values = new Map<string, string[]>()
  for (const match of body.matchAll(/^([A-Za-z_][\w-]*)\s*=\s*(\[[^\]]*\]|"[^"]*"|'[^']*')/gm)) {
    const strings = [...match[2].matchAll(/"([^"]*)"|'([^']*)'/g)].map((item) => item[1] ?? item[2])
    values.set(match[1], match[2].startsWith('[') ? strings : words(strings[0] ?? ''))
  }
  return values
}

// ------------------------------------------------------------------------------------------------ paths

const words = (text: string) => text.trim().split(/\s+/).filter(Boolean)
/** `./test/` → `test`; `.` → ''. */
const clean = (path: string) => path.replace(/^\.\/+/, '').replace(/\/+$/, '').replace(/^\.$/, '')
const within = (path: string, folder: string) => folder === '' || path.startsWith(`${folder}/`)
const isGlob = (pattern: string) => /[*?[\]{}!()]/.test(pattern)
const glob = (path: string, pattern: string) => minimatch(path, clean(pattern), { dot: true })

/** jest's own glob dialect (picomatch: `*.(spec|test).ts` is a group), matched as jest does. */
function jestGlobs(path: string, patterns: string[]): boolean {
  const negated = patterns.filter((pattern) => pattern.startsWith('!')).map((pattern) => pattern.slice(1))
  const matches = (pattern: string) => picomatch.isMatch(path, pattern, { dot: true })
  return patterns.some((pattern) => !pattern.startsWith('!') && matches(pattern)) && !negated.some(matches)
}

/** Matched by a positive pattern and by no `!` one. */
function globs(path: string, patterns: string[]): boolean {
  const negated = patterns.filter((pattern) => pattern.startsWith('!')).map((pattern) => pattern.slice(1))
  return patterns.some((pattern) => !pattern.startsWith('!') && glob(path, pattern)) && !negated.some((pattern) => glob(path, pattern))
}

function list(value: unknown): string[] {
  if (value === undefined || value === null) return []
  return (Array.isArray(value) ? value : [value]).map(String)
}

function parseJson(text: string | null, comments = false): Record<string, unknown> | null {
  if (text === null) return null
  try {
    const value: unknown = JSON.parse(comments ? text.replace(/^\s*\/\/.*$/gm, '') : text)
    return value && typeof value === 'object' ? (value as Record<string, unknown>) : null
  } catch {
    return null
  }
}
