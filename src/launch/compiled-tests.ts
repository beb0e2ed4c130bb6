/**
 * Compiled tests (issue 22, item 4): when the captured runner collects from a folder git ignores (`dist/`,
 * `lib/test/`), a test is written as source beside the repository's source tests, compiled by rerunning the
 * build, and run from its compiled path. This says which folder that is and how source paths map into it:
 * by a tsconfig's `rootDir` → `outDir`, or by the source/compiled pairs the build left (a babel `src` →
 * `lib`), whichever explains more of what is there. Reads the tree after its build ran; runs nothing.
 */
import { posix } from 'node:path'
import { linkOnTheWay, listSandboxFiles } from '../ports/sandbox-listing.js'
import type { Launch } from './launch.js'
import { runnerSpecs, type RunnerSpecs } from './runner-specs.js'
import { commonFolder, compiles, effectiveRootDir, readTsconfigs, within, type TsConfig } from './tsconfig.js'

/** How the captured runner's tests relate to the repository's source tests, in a tree whose build has run. */
export interface CompiledLayout {
  /** The folder (tree-relative, '/'-separated) the runner collects from, which git ignores: 'dist', 'lib/test'… */
  outputDir: string
  /** A source test path (tree-relative) → the compiled file the runner runs; null when it cannot say. */
  compiledPath(sourcePath: string): string | null
  /** A compiled file (tree-relative) → its source: the tracked one, else the TypeScript file that would compile to it; null when none maps there. */
  sourcePath(compiledPath: string): string | null
  /** Whether the runner collects this compiled file (tree-relative), were it there. */
  collects(compiledPath: string): boolean
  /** The folders of the tracked source tests whose compiled files the runner collects, most tests first. */
  sourceTestFolders: string[]
  /**
   * Where a new source test named `fileName` goes so that the build compiles it into a file the runner
   * collects: the source test folder nearest `near` (a tree-relative path, e.g. the fixed source), else the
   * one with most tests; with no source test yet, the source folder that compiles into the output folder.
   * Null when there is none, or the name would not be compiled there (outside the tsconfig's include) or collected.
   */
  sourceTestPath(fileName: string, near?: string): string | null
  /** Why it thinks so, for the log: "tsconfig.json rootDir src → outDir dist", "3 existing pairs". */
  how: string
}

export interface CompiledLayoutOptions {
  /** The tree's tracked files (tree-relative). */
  trackedFiles: string[]
  /** Whether git ignores this tree-relative folder (`GitCommands.isIgnored` fits). */
  ignored: (path: string) => boolean | Promise<boolean>
  /** The files the runner itself listed, when it was asked (tree-relative); else its arguments and config say. */
  collected?: string[]
}

/** A source folder → compiled folder rule; with its tsconfig when one says it. */
interface Mapping {
  from: string
  to: string
  config: TsConfig | null
  /** How the rule was found, for `how`. */
  said: string
}

/** A compiled file's extension for each source's (`tsc`'s emit; babel keeps `.js`). */
const COMPILED_EXTENSION: Record<string, string> = { '.ts': '.js', '.tsx': '.js', '.mts': '.mjs', '.cts': '.cjs', '.js': '.js', '.jsx': '.js', '.mjs': '.mjs', '.cjs': '.cjs' }
/** The sources a compiled file may come from, TypeScript first. */
const SOURCE_EXTENSIONS: Record<string, string[]> = { '.js': ['.ts', '.tsx', '.js', '.jsx'], '.mjs': ['.mts', '.mjs'], '.cjs': ['.cts', '.cjs'] }
const DECLARATION = /\.d\.[cm]?ts$|\.d\.[^/]+\.ts$/

/** Null when the runner collects tracked source (no compilation involved), or what it collects is unknown. */
export async function compiledLayout(treeDir: string, launch: Launch, options: CompiledLayoutOptions): Promise<CompiledLayout | null> {
  const specs = await runnerSpecs(treeDir, launch, options.collected)
  if (!specs || specs.bases.length === 0) return null
  const link = await firstLink(treeDir, specs.bases)
  // A tracked link is the repository's own source; one the build made is not followed, so nothing maps.
  if (link !== null && options.trackedFiles.includes(link)) return null
  if (link !== null) return layoutOf(specs.bases[0], specs, null, new Set(), new Set(), `${link} is a symbolic link the build left; not followed`)
  const outputDir = await ignoredOutput(specs.bases, options.ignored)
  if (outputDir === null) return null
  // Only what a source compiles to counts (not declarations, maps, assets).
  const listing = await listSandboxFiles(treeDir, outputDir, { keep: (path) => SOURCE_EXTENSIONS[posix.extname(path)] !== undefined && !DECLARATION.test(path) })
  const compiled = new Set(listing.files)
  const tracked = new Set(options.trackedFiles)
  const configs = (await readTsconfigs(treeDir, options.trackedFiles)).filter((config) => config.emits && config.outDir !== null)
  const candidates = [...configMappings(configs, outputDir, options.trackedFiles), ...pairMappings(compiled, options.trackedFiles)]
  const scored = candidates.map((mapping) => ({ mapping, pairs: agreeing(mapping, outputDir, options.trackedFiles, compiled) }))
  const named = namedConfigs(launch)
  scored.sort((a, b) => b.pairs - a.pairs || rank(a.mapping, named) - rank(b.mapping, named))
  const best = scored.find((entry) => entry.pairs > 0 || entry.mapping.config !== null)
  const truncated = listing.truncated ? ` (the first ${listing.files.length} compiled files read)` : ''
  return layoutOf(outputDir, specs, best ? { ...best.mapping, said: `${best.mapping.said}${pairsNote(best)}${truncated}` } : null, tracked, compiled)
}

async function firstLink(treeDir: string, bases: string[]): Promise<string | null> {
  for (const base of bases) {
    const link = base.startsWith('..') ? null : await linkOnTheWay(treeDir, base)
    if (link !== null) return link
  }
  return null
}

/** The folder the runner collects from when git ignores every one it looks in; null when one is tracked source. */
async function ignoredOutput(bases: string[], ignored: CompiledLayoutOptions['ignored']): Promise<string | null> {
  for (const base of bases) if (base === '' || base === '..' || base.startsWith('../') || !(await ignored(base))) return null
  const common = bases.reduce(commonFolder)
  return common !== '' ? common : bases[0]
}

function layoutOf(outputDir: string, specs: RunnerSpecs, mapping: Mapping | null, tracked: Set<string>, compiled: Set<string>, unmapped?: string): CompiledLayout {
  const compiledPath = (source: string): string | null => (mapping ? forward(mapping, outputDir, source) : null)
  const sourcePath = (output: string): string | null => {
    if (!mapping || !within(output, mapping.to)) return null
    const extension = posix.extname(output)
    const stem = posix.join(mapping.from || '.', output.slice(mapping.to ? mapping.to.length + 1 : 0, -extension.length || undefined))
    const candidates = (SOURCE_EXTENSIONS[extension] ?? []).map((ext) => `${stem}${ext}`).filter((source) => compiledPath(source) === output)
    return candidates.find((source) => tracked.has(source)) ?? candidates[0] ?? null
  }
  const sourceTestFolders = testFolders([...tracked].filter((source) => isCollected(compiledPath(source), specs, compiled)))
  const sourceTestPath = (fileName: string, near?: string): string | null => {
    const folder = sourceTestFolders.length ? nearestFolder(sourceTestFolders, near) : mapping && sourceFolderOf(mapping, outputDir)
    const path = folder === null ? null : posix.join(folder || '.', fileName)
    const output = path === null ? null : compiledPath(path)
    return output !== null && specs.collects(output) ? path : null
  }
  const why = mapping ? mapping.said : (unmapped ?? `no tsconfig outDir or existing source/compiled pair maps sources into ${outputDir}`)
  const how = `${specs.source}, from ${outputDir}${unmapped ? '' : ' (git ignores it)'}; ${why}`
  return { outputDir, compiledPath, sourcePath, collects: specs.collects, sourceTestFolders, sourceTestPath, how }
}

/** The rule applied: inside its source folder, compiled by its tsconfig (when it has one), landing in the output folder. */
function forward(mapping: Mapping, outputDir: string, source: string): string | null {
  const extension = posix.extname(source)
  const compiledExtension = COMPILED_EXTENSION[extension]
  if (!compiledExtension || DECLARATION.test(source) || !within(source, mapping.from) || source === mapping.from) return null
  if (mapping.config && !compiles(mapping.config, source)) return null
  const rest = source.slice(mapping.from ? mapping.from.length + 1 : 0, -extension.length) + compiledExtension
  const output = mapping.to ? `${mapping.to}/${rest}` : rest
  return within(output, outputDir) ? output : null
}

/** The source folder the rule compiles into the output folder itself (`src/test` for `src` → `dist`, output `dist/test`). */
function sourceFolderOf(mapping: Mapping, outputDir: string): string | null {
  if (!within(outputDir, mapping.to)) return null
  const rest = outputDir.slice(mapping.to ? mapping.to.length + 1 : 0)
  return [mapping.from, rest].filter(Boolean).join('/')
}

function isCollected(output: string | null, specs: RunnerSpecs, compiled: Set<string>): boolean {
  return output !== null && compiled.has(output) && specs.collects(output)
}

// ------------------------------------------------------------------------------------------- candidates

/** Each tsconfig emitting into (or around) the output folder: its rootDir → its outDir. */
function configMappings(configs: TsConfig[], outputDir: string, trackedFiles: string[]): Mapping[] {
  return configs.flatMap((config) => {
    const outDir = config.outDir!
    if (!within(outputDir, outDir) && !within(outDir, outputDir)) return []
    const rootDir = effectiveRootDir(config, trackedFiles)
    if (rootDir === null) return []
    const base = config.extends.length ? ` (extends ${config.extends.join(', ')})` : ''
    const root = config.rootDir !== null ? `rootDir ${rootDir || '.'}` : `rootDir ${rootDir || '.'} (the common folder of its inputs)`
    return [{ from: rootDir, to: outDir, config, said: `${config.file}${base} ${root} → outDir ${outDir}` }]
  })
}

/**
 * Rules read off the build's output: each compiled file paired with the tracked source of the same name
 * sharing the most folders (`dist/test/a.test.js` ↔ `src/test/a.test.ts`: `src` → `dist`); ambiguous ones skipped.
 */
function pairMappings(compiled: Set<string>, trackedFiles: string[]): Mapping[] {
  const byName = new Map<string, string[]>()
  for (const source of trackedFiles) {
    const extension = posix.extname(source)
    if (!COMPILED_EXTENSION[extension] || DECLARATION.test(source) || source.split('/').includes('node_modules')) continue
    const key = posix.basename(source, extension) + COMPILED_EXTENSION[extension]
    byName.set(key, [...(byName.get(key) ?? []), source])
  }
  const rules = new Map<string, { rule: Mapping; votes: number }>()
  for (const output of compiled) {
    const rule = pairRule(output, byName.get(posix.basename(output)) ?? [])
    const key = rule && `${rule.from}\0${rule.to}`
    if (rule && key) rules.set(key, { rule, votes: (rules.get(key)?.votes ?? 0) + 1 })
  }
  // The few rules most files follow: each is then checked against every tracked file.
  return [...rules.values()].sort((a, b) => b.votes - a.votes).slice(0, MAX_PAIR_RULES).map((entry) => entry.rule)
}

const MAX_PAIR_RULES = 5

function pairRule(output: string, sources: string[]): Mapping | null {
  const outputFolders = folders(output)
  const rules = sources.map((source) => {
    const sourceFolders = folders(source)
    let shared = 0
    while (shared < sourceFolders.length && shared < outputFolders.length && sourceFolders[sourceFolders.length - 1 - shared] === outputFolders[outputFolders.length - 1 - shared]) shared++
    return { shared, from: sourceFolders.slice(0, sourceFolders.length - shared).join('/'), to: outputFolders.slice(0, outputFolders.length - shared).join('/') }
  })
  const most = Math.max(...rules.map((rule) => rule.shared))
  const best = rules.filter((rule) => rule.shared === most)
  // The output is its own source only when it is tracked: not a pair.
  if (best.length !== 1 || best[0].from === best[0].to) return null
  return { from: best[0].from, to: best[0].to, config: null, said: `existing pairs ${best[0].from || '.'} → ${best[0].to}` }
}

const folders = (path: string) => path.split('/').slice(0, -1)

/** How many compiled files the rule explains: tracked sources it maps onto a file the build left. */
function agreeing(mapping: Mapping, outputDir: string, trackedFiles: string[], compiled: Set<string>): number {
  let pairs = 0
  for (const source of trackedFiles) {
    const output = forward(mapping, outputDir, source)
    if (output !== null && compiled.has(output)) pairs++
  }
  return pairs
}

function pairsNote(entry: { mapping: Mapping; pairs: number }): string {
  if (entry.mapping.config === null) return ` (${entry.pairs} pair${entry.pairs === 1 ? '' : 's'})`
  return entry.pairs > 0 ? `; ${entry.pairs} existing pair${entry.pairs === 1 ? ' agrees' : 's agree'}` : '; no compiled file there yet agrees'
}

/** tsconfig files a command before the runner names (`tsc -p tsconfig.build.json`): the build's own. */
function namedConfigs(launch: Launch): Set<string> {
  const named = new Set<string>()
  for (const { command } of launch.beforeRunner) {
    for (const match of command.matchAll(/(?:^|\s)(?:-p|--project|-b|--build)[\s=]+(\S+)/g)) named.add(posix.normalize(match[1]).replace(/\/$/, ''))
  }
  return named
}

/** Ties broken: a tsconfig over pairs, the build's own tsconfig first, then the shorter path. */
function rank(mapping: Mapping, named: Set<string>): number {
  if (!mapping.config) return 1000
  const file = mapping.config.file
  const isNamed = named.has(file) || named.has(posix.dirname(file)) ? 0 : 100
  return isNamed + Math.min(file.length, 99)
}

// ------------------------------------------------------------------------------------------ source tests

function testFolders(sources: string[]): string[] {
  const counts = new Map<string, number>()
  for (const source of sources) {
    const folder = posix.dirname(source).replace(/^\.$/, '')
    counts.set(folder, (counts.get(folder) ?? 0) + 1)
  }
  return [...counts.entries()].sort((a, b) => b[1] - a[1] || a[0].localeCompare(b[0])).map(([folder]) => folder)
}

/** The folder sharing most leading folders with `near`; the first (most tests) on a tie or without `near`. */
function nearestFolder(candidates: string[], near: string | undefined): string | null {
  if (candidates.length === 0) return null
  if (!near) return candidates[0]
  const nearFolder = posix.dirname(near).replace(/^\.$/, '')
  const depth = (folder: string) => (commonFolder(folder || '.', nearFolder || '.') || '').split('/').filter(Boolean).length
  return candidates.reduce((best, folder) => (depth(folder) > depth(best) ? folder : best))
}
