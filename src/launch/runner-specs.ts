/**
 * What a captured runner collects, as its own arguments (and mocha's config) say: the folders it looks in
 * and a test of whether it would run a given file. Read as data: a `.mocharc.js` is searched for a literal
 * `spec`, never run. Used to tell a runner that runs compiled output (`mocha` with `spec: 'dist/**'`,
 * `node --test dist/esm/test/*.js`) from one that runs the tracked sources.
 */
import { realpath } from 'node:fs/promises'
import { isAbsolute, posix, relative, sep } from 'node:path'
import { Minimatch } from 'minimatch'
import { listSandboxFiles } from '../ports/sandbox-listing.js'
import { parse as parseYaml } from 'yaml'
import { parseArgs } from '../context/collection.js'
import { ALIASES as MOCHA_ALIASES, VALUE_FLAGS as MOCHA_VALUE_FLAGS } from '../frameworks/mocha-args.js'
import type { Launch } from './launch.js'
import { parseJsonc, readTreeFile, within } from './tsconfig.js'

export interface RunnerSpecs {
  /** The folders (tree-relative, '' for the root) the runner collects from. */
  bases: string[]
  /** Whether the runner would collect this tree-relative file, were it there. */
  collects(path: string): boolean
  /** Where this was read, for the log: "mocha dist/**\/*.test.js (.mocharc.js)". */
  source: string
}

/** One entry of what the runner was told to collect, tree-relative. */
interface Spec {
  kind: 'glob' | 'folder' | 'file'
  path: string
}

const SCRIPT_FILE = /\.(?:[cm]?[jt]sx?)$/

/**
 * What the launch collects; `collected` (the files the runner listed, tree-relative), when given, decides
 * the folders. Null when it cannot be told (a jest config in a JavaScript file, a launch outside the tree).
 */
export async function runnerSpecs(treeDir: string, launch: Launch, collected?: readonly string[]): Promise<RunnerSpecs | null> {
  const cwd = await treeRelative(treeDir, launch.cwd)
  if (cwd === null) return null
  // A wrapper may hand the runner absolute paths: written against the tree as the others are.
  const argv = launch.argv.map((arg) => (isAbsolute(arg) ? relative(launch.cwd, arg).split(sep).join('/') || '.' : arg))
  const told = await specsOf(treeDir, { ...launch, argv }, cwd)
  if (collected && collected.length > 0) {
    const files = [...new Set(collected)]
    return { bases: foldersOf(files), collects: told?.collects ?? byExample(files), source: `${launch.runner} listed ${files.length} file(s)${told ? `; ${told.source}` : ''}` }
  }
  return told
}

async function specsOf(treeDir: string, launch: Launch, cwd: string): Promise<RunnerSpecs | null> {
  switch (launch.runner) {
    case 'mocha':
      return mochaSpecs(treeDir, launch, cwd)
    case 'node-test': {
      const patterns = launch.argv.filter((arg) => !arg.startsWith('-'))
      return patterns.length ? fromSpecs('node --test', patterns, cwd, nodeTestName) : nodeTestDefaults(treeDir, cwd)
    }
    case 'ava':
    case 'tap':
      return fromSpecs(launch.runner, positionals(launch.argv, AVA_TAP_VALUE_FLAGS), cwd, () => true)
    case 'jest':
      return fromSpecs('jest', optionValues(launch.argv, ['rootDir', 'roots']), cwd, () => true)
    case 'vitest':
      return fromSpecs('vitest', optionValues(launch.argv, ['dir', 'root', 'r']), cwd, () => true)
    default:
      // pytest: Python is never compiled into another folder.
      return null
  }
}

/**
 * Specs (cwd-relative, as written) as bases and a test. Plain files — what a shell left of
 * `node --test dist/test/*.js` — stand for their folder and their shared name ending (`.test.js`).
 */
function fromSpecs(runner: string, written: string[], cwd: string, inFolder: (path: string, folder: string) => boolean, note = ''): RunnerSpecs | null {
  if (written.length === 0) return null
  const specs = written.map((entry) => specOf(cwd, entry))
  const files = specs.filter((spec) => spec.kind === 'file').map((spec) => spec.path)
  const listed = files.length ? byExample(files) : () => false
  const globs = specs.filter((spec) => spec.kind === 'glob').map((spec) => new Minimatch(spec.path))
  const folders = specs.filter((spec) => spec.kind === 'folder').map((spec) => spec.path)
  const collects = (path: string) => listed(path) || globs.some((glob) => glob.match(path)) || folders.some((folder) => within(path, folder) && path !== folder && inFolder(path, folder))
  const bases = [...new Set(specs.map((spec) => (spec.kind === 'glob' ? globBase(spec.path) : spec.kind === 'file' ? posix.dirname(spec.path).replace(/^\.$/, '') : spec.path)))]
  return { bases, collects, source: `${runner} ${written.join(' ')}${note}` }
}

function specOf(cwd: string, entry: string): Spec {
  const path = posix.join(cwd || '.', entry).replace(/\/+$/, '').replace(/^\.$/, '')
  if (/[*?[\]{}]/.test(entry)) return { kind: 'glob', path }
  return { kind: SCRIPT_FILE.test(entry) ? 'file' : 'folder', path }
}

/** The folder part of a glob, before its first wildcard segment. */
function globBase(pattern: string): string {
  const segments = pattern.split('/')
  const fixed = segments.findIndex((segment) => /[*?[\]{}!()]/.test(segment))
  return segments.slice(0, fixed < 0 ? segments.length - 1 : fixed).join('/')
}

/**
 * Files like the listed ones: in one of their folders, with the name ending they share (`a.test.js`,
 * `b.test.js` → `.test.js`), the way the runner's own pattern most likely reads.
 */
function byExample(files: readonly string[]): (path: string) => boolean {
  const folders = new Set(files.map((file) => posix.dirname(file)))
  const names = files.map((file) => posix.basename(file))
  const shared = names.reduce(commonSuffix)
  const ending = shared.includes('.') ? shared.slice(shared.indexOf('.')) : posix.extname(names[0])
  return (path) => folders.has(posix.dirname(path)) && path.endsWith(ending)
}

function commonSuffix(a: string, b: string): string {
  let i = 0
  while (i < a.length && i < b.length && a[a.length - 1 - i] === b[b.length - 1 - i]) i++
  return i === 0 ? '' : a.slice(-i)
}

function foldersOf(files: readonly string[]): string[] {
  return [...new Set(files.map((file) => posix.dirname(file).replace(/^\.$/, '')))]
}

// ---------------------------------------------------------------------------------------------- node:test

const NODE_TEST_NAME = /(?:^|[.\-_])test(?:[.\-_]|$)|^test-/
/** In a folder given to `node --test`: the files named as tests, or anything in a `test` folder. */
function nodeTestName(path: string, folder: string): boolean {
  const rest = path.slice(folder ? folder.length + 1 : 0)
  return /\.[cm]?[jt]s$/.test(path) && (NODE_TEST_NAME.test(posix.basename(path).replace(/\.[cm]?[jt]s$/, '')) || rest.split('/').slice(0, -1).includes('test'))
}

/**
 * `node --test` with no patterns runs every file its default patterns match under its folder, build output
 * too (`npm run build && node --test` collects `lib/test/*.js`): the folders it finds them in are what it
 * collects from. TypeScript names only where this Node strips types by default, as the runner's would.
 */
async function nodeTestDefaults(treeDir: string, cwd: string): Promise<RunnerSpecs | null> {
  const extensions = process.features.typescript ? '{cjs,mjs,js,cts,mts,ts}' : '{cjs,mjs,js}'
  const patterns = ['*.test', '*-test', '*_test', 'test-*', 'test'].map((name) => `**/${name}.${extensions}`).concat(`**/test/**/*.${extensions}`)
  const matchers = patterns.map((pattern) => new Minimatch(pattern, { dot: false }))
  const inCwd = (path: string) => path.slice(cwd ? cwd.length + 1 : 0)
  const collects = (path: string) => within(path, cwd) && !path.split('/').includes('node_modules') && matchers.some((matcher) => matcher.match(inCwd(path)))
  const { files } = await listSandboxFiles(treeDir, cwd, { keep: collects, limit: 20_000 })
  if (files.length === 0) return null
  return { bases: foldersOf(files), collects, source: `node --test (its default patterns, ${files.length} file(s) found)` }
}

// -------------------------------------------------------------------------------------------------- mocha

// mocha's own order of precedence (lib/cli/config.js).
const MOCHA_CONFIGS = ['.mocharc.cjs', '.mocharc.js', '.mocharc.yaml', '.mocharc.yml', '.mocharc.jsonc', '.mocharc.json']

interface MochaSettings {
  spec: string[]
  extension: string[]
  recursive: boolean
}

/** mocha combines the spec of its arguments, its config file and package.json `mocha`; `./test` when none. */
async function mochaSpecs(treeDir: string, launch: Launch, cwd: string): Promise<RunnerSpecs | null> {
  const args = parseArgs(launch.argv, MOCHA_VALUE_FLAGS, MOCHA_ALIASES)
  const fromArgs: MochaSettings = { spec: [...args.positionals, ...(args.options.get('spec') ?? [])], extension: args.options.get('extension') ?? [], recursive: args.options.has('recursive') }
  const configArg = args.options.has('no-config') ? false : args.options.get('config')?.[0]
  const config = await mochaConfigFile(treeDir, cwd, configArg)
  if (config === 'unreadable') return null
  const packageArg = args.options.has('no-package') ? false : (args.options.get('package')?.[0] ?? 'package.json')
  const pkg = packageArg === false ? null : settingsOf(parseJsonc((await readTreeFile(treeDir, posix.join(cwd || '.', packageArg))) ?? 'null'), 'mocha')
  const all = [fromArgs, config?.settings, pkg].filter((settings): settings is MochaSettings => !!settings)
  const spec = all.flatMap((settings) => settings.spec)
  const extensions = ['js', 'cjs', 'mjs', ...all.flatMap((settings) => settings.extension)].map((ext) => ext.replace(/^\./, ''))
  const recursive = all.some((settings) => settings.recursive)
  const inFolder = (path: string, folder: string) => (recursive || !path.slice(folder ? folder.length + 1 : 0).includes('/')) && extensions.some((ext) => path.endsWith(`.${ext}`))
  return fromSpecs('mocha', spec.length ? spec : ['./test'], cwd, inFolder, `${recursive ? ' --recursive' : ''}${config ? ` (${config.file})` : ''}`)
}

/** The config file mocha loads (`--config`, else the first found from the cwd up to the tree's root). */
async function mochaConfigFile(treeDir: string, cwd: string, named: string | false | undefined): Promise<{ file: string; settings: MochaSettings } | null | 'unreadable'> {
  if (named === false) return null
  const candidates = named ? [posix.join(cwd || '.', named)] : upFrom(cwd).flatMap((folder) => MOCHA_CONFIGS.map((name) => posix.join(folder || '.', name)))
  for (const file of candidates) {
    const text = await readTreeFile(treeDir, file)
    if (text === null) continue
    const settings = /\.[cm]?js$/.test(file) ? literalSettings(text) : settingsOf(/\.ya?ml$/.test(file) ? safeYaml(text) : parseJsonc(text))
    return settings ? { file, settings } : 'unreadable'
  }
  return null
}

function settingsOf(value: unknown, key?: string): MochaSettings | null {
  const object = key && isObject(value) ? value[key] : value
  if (!isObject(object)) return null
  return { spec: strings(object.spec), extension: strings(object.extension), recursive: object.recursive === true }
}

/**
 * A JavaScript config's `spec`, `extension` and `recursive`, when written as literals
 * (`spec: 'dist/**\/*.test.js'`, `spec: ['a', "b"]`); null when `spec` is computed, or may come from another object.
 */
export function literalSettings(text: string): MochaSettings | null {
  const spec = literalStrings(text, 'spec')
  const extension = literalStrings(text, 'extension')
  if (spec === null || extension === null) return null
  // No spec of its own, but built from another object: the spec may be in that one.
  if (spec.length === 0 && COMPOSED_CONFIG.test(text)) return null
  return { spec, extension, recursive: /\brecursive\s*:\s*true\b/.test(text) }
}

const COMPOSED_CONFIG = /\.\.\.\s*[A-Za-z_$(]|Object\.assign\(|(?:module\.exports|export\s+default)\s*=?\s*(?:require\(|[A-Za-z_$][\w$.]*\s*(?:\(|;|$))/m

/** `key: 'a'` or `key: ['a', "b"]`: [] when not said, null when said otherwise (computed, said twice). */
export function literalStrings(text: string, key: string): string[] | null {
  const mentions = text.match(new RegExp(`(?:^|[\\s{,'"])${key}['"]?\\s*:`, 'g')) ?? []
  if (mentions.length === 0) return []
  if (mentions.length > 1) return null
  const value = new RegExp(`${key}['"]?\\s*:\\s*(\\[(?:\\s*(?:'[^']*'|"[^"]*"|\`[^\`$]*\`)\\s*,?)*\\s*\\]|'[^']*'|"[^"]*"|\`[^\`$]*\`)\\s*(?:[,}\\n]|$)`).exec(text)
  if (!value) return null
  return [...value[1].matchAll(/'([^']*)'|"([^"]*)"|`([^`]*)`/g)].map((match) => match[1] ?? match[2] ?? match[3])
}

function safeYaml(text: string): unknown {
  try {
    return parseYaml(text)
  } catch {
    return null
  }
}

/** The folder and each one above it, up to the tree's root (''). */
function upFrom(folder: string): string[] {
  const folders = [folder]
  while (folders[folders.length - 1] !== '') folders.push(posix.dirname(folders[folders.length - 1]).replace(/^\.$/, ''))
  return folders
}

// ---------------------------------------------------------------------------------------------- arguments

const AVA_TAP_VALUE_FLAGS = new Set(['match', 'm', 'concurrency', 'c', 'timeout', 'T', 'node-arguments', 'config', 'reporter', 'R', 'jobs', 'j', 'grep', 'g', 'before', 'after', 'output-file', 'o', 'output-dir', 'd', 'coverage-report'])

function positionals(argv: string[], valueFlags: ReadonlySet<string>): string[] {
  return parseArgs(argv, valueFlags).positionals
}

/** The values of the named options (`--rootDir dist`, `--roots=dist`), each option taking one. */
function optionValues(argv: string[], names: string[]): string[] {
  const parsed = parseArgs(argv, new Set(names))
  return names.flatMap((name) => parsed.options.get(name) ?? []).filter((value) => value !== '' && value !== 'true')
}

// ------------------------------------------------------------------------------------------------- paths

/** The launch's cwd relative to the tree ('' for its root); null when outside it. */
async function treeRelative(treeDir: string, cwd: string): Promise<string | null> {
  for (const root of [treeDir, await realpath(treeDir).catch(() => treeDir)]) {
    const inside = relative(root, cwd)
    if (inside === '') return ''
    if (!inside.startsWith('..') && !isAbsolute(inside)) return inside.split(sep).join('/')
  }
  return null
}

const isObject = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value)
const strings = (value: unknown): string[] => (typeof value === 'string' ? [value] : Array.isArray(value) ? value.filter((item): item is string => typeof item === 'string') : [])
