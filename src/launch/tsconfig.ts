/**
 * The tree's tsconfig files as `tsc` reads them, as far as where files go: `extends` (a path, a package, a
 * list), `compilerOptions.outDir`/`rootDir`/`allowJs`/`noEmit`, and `include`/`exclude`/`files`, each path
 * resolved against the file that says it (`${configDir}` against the file `tsc` was given). Read as data,
 * never run; TypeScript itself is not a dependency of the action, and the tree's own copy is the
 * repository's code.
 */
import { join, posix } from 'node:path'
import { Minimatch } from 'minimatch'
import { readSandboxFile, SandboxFileRefused } from '../ports/sandbox-files.js'

export interface TsConfig {
  /** Tree-relative path of the file. */
  file: string
  /** The files it extends, nearest first (tree-relative; a package's as found under node_modules). */
  extends: string[]
  /** Where it emits (tree-relative); null when it emits beside the sources, or outside the tree. */
  outDir: string | null
  /** Its `rootDir` (tree-relative) when set; else `tsc` takes the common folder of its inputs (its own folder under `composite`). */
  rootDir: string | null
  composite: boolean
  include: string[] | null
  exclude: string[] | null
  files: string[] | null
  allowJs: boolean
  /** False under `noEmit` or `emitDeclarationOnly`: no JavaScript comes out of it. */
  emits: boolean
}

/** What one file of the chain says, its paths already tree-relative (null: outside the tree). */
interface Said {
  outDir?: string | null
  rootDir?: string | null
  allowJs?: boolean
  composite?: boolean
  noEmit?: boolean
  emitDeclarationOnly?: boolean
  include?: string[]
  exclude?: string[]
  files?: string[]
}

const MAX_EXTENDS_DEPTH = 8
/** tsconfig files the walk reads at most: a monorepo has a few dozen. */
const MAX_CONFIGS = 64
const CONFIG_NAME = /(?:^|\/)(?:tsconfig[^/]*|[^/]*\.tsconfig)\.json$/

/** Every tsconfig the tree tracks (outside node_modules), read; the unreadable ones left out. */
export async function readTsconfigs(treeDir: string, trackedFiles: readonly string[]): Promise<TsConfig[]> {
  const names = trackedFiles.filter((path) => CONFIG_NAME.test(path) && !path.split('/').includes('node_modules')).slice(0, MAX_CONFIGS)
  const configs = await Promise.all(names.map((file) => readTsconfig(treeDir, file)))
  return configs.filter((config): config is TsConfig => config !== null)
}

/** The tsconfig at `file` (tree-relative) with what it extends; null when it cannot be read or parsed. */
export async function readTsconfig(treeDir: string, file: string): Promise<TsConfig | null> {
  const chain: string[] = []
  const said = await readChain(treeDir, file, posix.dirname(file), chain, 0)
  if (!said) return null
  return {
    file,
    extends: chain.slice(1),
    outDir: said.outDir ?? null,
    rootDir: said.rootDir ?? null,
    composite: said.composite ?? false,
    include: said.include ?? null,
    exclude: said.exclude ?? null,
    files: said.files ?? null,
    allowJs: said.allowJs ?? false,
    emits: !said.noEmit && !said.emitDeclarationOnly
  }
}

/** One file and its bases, merged as `tsc` merges them: the file's own options over its bases', in order. */
async function readChain(treeDir: string, file: string, configDir: string, chain: string[], depth: number): Promise<Said | null> {
  if (depth > MAX_EXTENDS_DEPTH || chain.includes(file)) return null
  const text = await readTreeFile(treeDir, file)
  const raw = text === null ? null : parseJsonc(text)
  if (!isObject(raw)) return null
  chain.push(file)
  const here = posix.dirname(file)
  let merged: Said = {}
  for (const base of list(raw.extends)) {
    const baseFile = await resolveExtends(treeDir, here, base)
    const inherited = baseFile ? await readChain(treeDir, baseFile, configDir, chain, depth + 1) : null
    if (inherited) merged = { ...merged, ...inherited }
  }
  return { ...merged, ...saidBy(raw, here, configDir) }
}

function saidBy(raw: Record<string, unknown>, here: string, configDir: string): Said {
  const options = isObject(raw.compilerOptions) ? raw.compilerOptions : {}
  // `${configDir}`: the folder of the file `tsc` was given, whichever file of the chain says it.
  const path = (value: string) => (value.includes('${configDir}') ? treePath('', value.replace(/\$\{configDir\}/g, configDir || '.')) : treePath(here, value))
  const said: Said = {}
  if (typeof options.outDir === 'string') said.outDir = path(options.outDir)
  if (typeof options.rootDir === 'string') said.rootDir = path(options.rootDir)
  if (typeof options.allowJs === 'boolean') said.allowJs = options.allowJs
  if (typeof options.composite === 'boolean') said.composite = options.composite
  if (typeof options.noEmit === 'boolean') said.noEmit = options.noEmit
  if (typeof options.emitDeclarationOnly === 'boolean') said.emitDeclarationOnly = options.emitDeclarationOnly
  // include/exclude/files are not merged: a file that says one replaces its base's.
  for (const key of ['include', 'exclude', 'files'] as const) {
    if (Array.isArray(raw[key])) said[key] = (raw[key] as unknown[]).filter((value) => typeof value === 'string').map((value) => path(value as string)).filter((value): value is string => value !== null)
  }
  return said
}

/**
 * `./base.json`, `../tsconfig` (`.json` added as `tsc` adds it) or a package's (`@tsconfig/node20`,
 * `pkg/tsconfig.base.json`) under node_modules from the file's folder up; null when not found in the tree.
 */
async function resolveExtends(treeDir: string, here: string, name: string): Promise<string | null> {
  const candidates = (path: string) => (path.endsWith('.json') ? [path] : [path, `${path}.json`])
  if (/^\.{1,2}(?:\/|$)/.test(name)) {
    const path = treePath(here, name)
    return path === null ? null : firstReadable(treeDir, candidates(path))
  }
  for (let folder = here; ; folder = posix.dirname(folder)) {
    const inModules = posix.join(folder === '.' ? '' : folder, 'node_modules', name)
    const found = await firstReadable(treeDir, [...candidates(inModules), `${inModules}/tsconfig.json`])
    if (found || folder === '.' || folder === '') return found
  }
}

async function firstReadable(treeDir: string, paths: string[]): Promise<string | null> {
  for (const path of paths) if ((await readTreeFile(treeDir, path)) !== null) return path
  return null
}

/**
 * A file of the tree, read as the sandbox may have written it: no link followed on the way (a package
 * reached through a linked node_modules is not read), bounded; null when absent or refused.
 */
export async function readTreeFile(treeDir: string, path: string): Promise<string | null> {
  if (path === '..' || path.startsWith('../') || path.startsWith('/')) return null
  return readSandboxFile(treeDir, join(treeDir, path), 'config').catch((error: unknown) => {
    if (error instanceof SandboxFileRefused) return null
    throw error
  })
}

/** `value` (relative to the tree-relative folder `here`) as a tree-relative path; null outside the tree. */
function treePath(here: string, value: string): string | null {
  if (value.startsWith('/')) return null
  const path = posix.join(here || '.', value).replace(/\/+$/, '')
  if (path === '..' || path.startsWith('../')) return null
  return path === '.' ? '' : path
}

// ----------------------------------------------------------------------------------------------- inputs

const TS_INPUT = /\.(?:ts|tsx|mts|cts)$/
const JS_INPUT = /\.(?:js|jsx|mjs|cjs)$/
const DECLARATION = /\.d\.[cm]?ts$|\.d\.[^/]+\.ts$/
const DEFAULT_EXCLUDE = ['node_modules', 'bower_components', 'jspm_packages']

/** Whether `tsc -p <config>` compiles this tree-relative path (it need not exist yet). */
export function compiles(config: TsConfig, path: string): boolean {
  if (DECLARATION.test(path) || !(TS_INPUT.test(path) || (config.allowJs && JS_INPUT.test(path)))) return false
  if (config.files?.includes(path)) return true
  // Only `files`: nothing else is an input.
  if (config.files && !config.include) return false
  const include = config.include ?? [posix.join(posix.dirname(config.file), '**/*')]
  const exclude = config.exclude ?? [...DEFAULT_EXCLUDE.map((name) => posix.join(posix.dirname(config.file), name)), ...(config.outDir !== null ? [config.outDir] : [])]
  return include.some((pattern) => matchesSpec(path, pattern)) && !exclude.some((pattern) => matchesSpec(path, pattern) || within(path, pattern))
}

/**
 * The folder `tsc` emits relative to: `rootDir`; else under `composite` the config's own folder; else the
 * common folder of its inputs among `files`; null when it has none.
 */
export function effectiveRootDir(config: TsConfig, files: readonly string[]): string | null {
  if (config.rootDir !== null) return config.rootDir
  if (config.composite) return posix.dirname(config.file).replace(/^\.$/, '')
  const inputs = files.filter((path) => compiles(config, path))
  if (inputs.length === 0) return null
  return inputs.map((path) => posix.dirname(path)).reduce(commonFolder).replace(/^\.$/, '')
}

/** An include/exclude entry as `tsc` reads it: a last segment without wildcard or extension is a folder. */
function matchesSpec(path: string, spec: string): boolean {
  const last = spec.split('/').pop() ?? ''
  const folder = spec === '' || (!/[*?]/.test(last) && !last.includes('.'))
  const pattern = folder ? (spec === '' ? '**/*' : `${spec}/**/*`) : spec
  return matcher(pattern).test(path)
}

/** Compiled once per pattern, to a regular expression: every tracked file is matched against every config's patterns. */
const matchers = new Map<string, RegExp>()
function matcher(pattern: string): RegExp {
  let compiled = matchers.get(pattern)
  if (!compiled) matchers.set(pattern, (compiled = new Minimatch(pattern).makeRe() || /(?!)/))
  return compiled
}

export function commonFolder(a: string, b: string): string {
  const left = a === '.' ? [] : a.split('/')
  const right = b === '.' ? [] : b.split('/')
  let i = 0
  while (i < left.length && i < right.length && left[i] === right[i]) i++
  return left.slice(0, i).join('/')
}

export const within = (path: string, folder: string) => folder === '' || path === folder || path.startsWith(`${folder}/`)

// ------------------------------------------------------------------------------------------------ JSONC

/** JSON with comments and trailing commas, as tsconfig files are written; null when not even that. */
export function parseJsonc(text: string): unknown {
  try {
    return JSON.parse(withoutTrailingCommas(withoutComments(text.replace(/^\uFEFF/, ''))))
  } catch {
    return null
  }
}

/** `//` and `/* *\/` comments outside strings replaced by spaces. */
function withoutComments(text: string): string {
  let out = ''
  for (let i = 0; i < text.length; i++) {
    const char = text[i]
    if (char === '"') {
      const end = stringEnd(text, i)
      out += text.slice(i, end)
      i = end - 1
    } else if (char === '/' && text[i + 1] === '/') {
      while (i < text.length && text[i] !== '\n') i++
      out += '\n'
    } else if (char === '/' && text[i + 1] === '*') {
      const end = text.indexOf('*/', i + 2)
      i = end < 0 ? text.length : end + 1
      out += ' '
    } else out += char
  }
  return out
}

/** A comma before `}` or `]` (outside strings) dropped. */
function withoutTrailingCommas(text: string): string {
  let out = ''
  for (let i = 0; i < text.length; i++) {
    if (text[i] === '"') {
      const end = stringEnd(text, i)
      out += text.slice(i, end)
      i = end - 1
    } else if (text[i] !== ',' || !closesNext(text, i + 1)) out += text[i]
  }
  return out
}

function closesNext(text: string, from: number): boolean {
  let i = from
  while (i < text.length && /\s/.test(text[i])) i++
  return text[i] === '}' || text[i] === ']'
}

/** The index just past the string starting at `start` (a `"`). */
function stringEnd(text: string, start: number): number {
  for (let i = start + 1; i < text.length; i++) {
    if (text[i] === '\\') i++
    else if (text[i] === '"') return i + 1
  }
  return text.length
}

const isObject = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value)
const list = (value: unknown): string[] => (typeof value === 'string' ? [value] : Array.isArray(value) ? value.filter((item): item is string => typeof item === 'string') : [])
