/**
 * Zero-config builds: whether the tests need a build before they run, and which command makes it. The
 * worktrees hold only what git tracks, so tests that import build output (`lib/`, `dist/`) find nothing
 * unless each tree builds its own sources first — the pre-fix tree its buggy ones.
 * Evidence, strongest first: a `pretest` script that builds, a `test` script that builds before its runner,
 * and the existing tests importing a folder git does not track (directly, or through the package's own
 * name or root, whose `main`/`module`/`exports` point there). A repository with none of these gets null.
 */
import { existsSync } from 'node:fs'
import { join, posix } from 'node:path'
import { classifyFile } from '../diff/classify.js'
import { scriptCommands, scriptTarget } from '../frameworks/package-scripts.js'
import { readPackageJson, type PackageJson } from '../frameworks/packages.js'
import { readSandboxFile } from '../ports/sandbox-files.js'

export interface DetectedBuild {
  /** Words, run without a shell in the package folder of each tree. */
  command: string[]
  why: string
}

export interface TreeBuild extends DetectedBuild {
  /** False: the build-command setting. */
  detected: boolean
}

/** The explicit build-command always wins; else what the repository at head shows it needs, if anything. */
export async function buildForTrees(explicit: string[] | null, headDir: string, packageDir: string, trackedFiles: () => Promise<string[]>, options: DetectOptions = {}): Promise<TreeBuild | null> {
  if (explicit) return { command: explicit, why: 'the build-command setting', detected: false }
  const detected = await detectBuild(headDir, packageDir, await trackedFiles(), options)
  return detected && { ...detected, detected: true }
}

/** Words as one line for the log and the report: a word with spaces or quotes is quoted. */
export const commandText = (words: string[]) => words.map((word) => (/^[\w@%+=:,./-]+$/.test(word) ? word : JSON.stringify(word))).join(' ')

/** `headDir`: a checkout of the head; `packageDir`: the package in it ('' for the root); `trackedFiles`: repository paths. */
export interface DetectOptions {
  /**
   * Only the tests' imports count: the test command was captured (launch/), so its `pretest` and what it
   * runs before its runner already ran; a script read by eye would also take steps after the runner for a build.
   */
  onlyImports?: boolean
}

export async function detectBuild(headDir: string, packageDir: string, trackedFiles: string[], options: DetectOptions = {}): Promise<DetectedBuild | null> {
  const manifest = await readPackageJson(join(headDir, packageDir))
  if (!manifest) return null
  const repo = { headDir, packageDir, manifest, tracked: new Set(trackedFiles), trackedFolders: foldersOf(trackedFiles), runner: packageManager(headDir, packageDir) }
  if (options.onlyImports) return fromImports(repo, trackedFiles)
  return fromPretest(repo) ?? fromTestScript(repo) ?? (await fromImports(repo, trackedFiles))
}

interface Repo {
  headDir: string
  packageDir: string
  manifest: PackageJson
  tracked: Set<string>
  trackedFolders: Set<string>
  /** npm, pnpm, yarn or bun: by the lockfile, as the pre-fix tree's install chooses. */
  runner: string
}

const LOCKFILES: Array<[string, string]> = [
  ['pnpm-lock.yaml', 'pnpm'],
  ['yarn.lock', 'yarn'],
  ['bun.lock', 'bun'],
  ['bun.lockb', 'bun']
]

function packageManager(headDir: string, packageDir: string): string {
  // A monorepo's lockfile is at its root; a package may have its own.
  const folders = [...new Set([packageDir, ''])]
  return LOCKFILES.find(([lockfile]) => folders.some((folder) => existsSync(join(headDir, folder, lockfile))))?.[1] ?? 'npm'
}

// --- the scripts: what builds, what merely tidies up around a build ---

const BUILD_SCRIPT_NAME = /^(?:build|compile|transpile|bundle|dist)(?:$|[:\-_.])/i
const WRAPPERS = new Set(['cross-env', 'env', 'npx', 'bunx'])
const TIDYING = new Set(['rimraf', 'rm', 'del', 'del-cli', 'mkdir', 'mkdirp', 'shx', 'cp', 'cpy', 'cpx', 'copyfiles', 'ncp', 'echo'])
const OUTPUT_FLAG = /^(?:-d|-o|--out-dir|--out-file|--outDir|--outdir|--outfile)(?:=|$)/
const BUILD_TOOLS: Record<string, (args: string[]) => boolean> = {
  tsc: (args) => !args.some((arg) => /^--(?:noEmit|help|version)$/.test(arg)),
  ttsc: (args) => !args.includes('--noEmit'),
  babel: (args) => args.some((arg) => OUTPUT_FLAG.test(arg)),
  swc: (args) => args.some((arg) => OUTPUT_FLAG.test(arg)),
  esbuild: (args) => args.some((arg) => OUTPUT_FLAG.test(arg)),
  rollup: () => true,
  webpack: () => true,
  tsup: () => true,
  unbuild: () => true,
  microbundle: () => true,
  bili: () => true,
  vite: (args) => args[0] === 'build',
  parcel: (args) => args[0] === 'build',
  ncc: (args) => args[0] === 'build',
  tsdx: (args) => args[0] === 'build',
  node: (args) => /(?:^|[/\\])(?:build|compile|bundle)[^/\\]*$/i.test(args[0] ?? '')
}

type Step = { kind: 'build' | 'tidy' | 'other'; words: string[] }

const ASSIGNMENT = /^[A-Za-z_][A-Za-z0-9_]*=/

/** A script's command as its program: `NAME=value` words and wrappers (`cross-env`, `npx`) set aside. */
function parseCommand(words: string[]): { env: string[]; bin: string | undefined; args: string[] } {
  const env: string[] = []
  const rest = [...words]
  for (;;) {
    while (rest.length > 0 && ASSIGNMENT.test(rest[0])) env.push(rest.shift()!)
    if (rest.length < 2 || !WRAPPERS.has(rest[0])) break
    rest.shift()
    while (rest.length > 1 && rest[0].startsWith('-')) rest.shift()
  }
  const [bin, ...args] = rest
  return { env, bin, args }
}

function classifyStep(repo: Repo, words: string[], seen: Set<string>): Step {
  const target = scriptTarget(words)
  if (target !== null) {
    const body = repo.manifest.scripts?.[target]
    if (body === undefined || seen.has(target)) return { kind: 'other', words }
    const builds = BUILD_SCRIPT_NAME.test(target) || scriptBuilds(repo, body, new Set([...seen, target]))
    return { kind: builds ? 'build' : 'other', words }
  }
  const { bin, args } = parseCommand(words)
  if (!bin) return { kind: 'other', words }
  const name = posix.basename(bin)
  if (Object.hasOwn(BUILD_TOOLS, name) && BUILD_TOOLS[name](args)) return { kind: 'build', words }
  return { kind: TIDYING.has(name) ? 'tidy' : 'other', words }
}

function scriptBuilds(repo: Repo, script: string, seen: Set<string>): boolean {
  return scriptCommands(script).some((words) => classifyStep(repo, words, seen).kind === 'build')
}

/** A `pretest` that builds: all of it when it only builds and tidies, else its first build step alone (not its lint). */
function fromPretest(repo: Repo): DetectedBuild | null {
  const pretest = repo.manifest.scripts?.pretest
  if (pretest === undefined) return null
  const steps = scriptCommands(pretest).map((words) => classifyStep(repo, words, new Set(['pretest'])))
  const builds = steps.filter((step) => step.kind === 'build')
  if (builds.length === 0) return null
  const why = `the pretest script builds: ${pretest}`
  if (steps.every((step) => step.kind !== 'other')) return { command: [repo.runner, 'run', 'pretest'], why }
  return { command: commandFor(repo, builds[0].words), why }
}

/** `npm run build && jest`, `tsc && mocha`, `yarn build; ...`: the first build step before the runner. */
function fromTestScript(repo: Repo): DetectedBuild | null {
  const test = repo.manifest.scripts?.test
  if (test === undefined) return null
  const beforeRunner = scriptCommands(test).slice(0, -1)
  const build = beforeRunner.map((words) => classifyStep(repo, words, new Set(['test']))).find((step) => step.kind === 'build')
  return build ? { command: commandFor(repo, build.words), why: `the test script builds before its runner: ${test}` } : null
}

/** A build step as words to run without a shell: a script through the package manager, a tool from node_modules/.bin. */
function commandFor(repo: Repo, words: string[]): string[] {
  const target = scriptTarget(words)
  if (target !== null) return [repo.runner, 'run', target]
  const { env, bin, args } = parseCommand(words)
  return [...env, installedBin(repo, bin!), ...args]
}

/** `tsc` is not on the PATH of a command run without npm: its path in the package's (or the root's) node_modules/.bin. */
function installedBin(repo: Repo, bin: string): string {
  if (bin === 'node' || bin.includes('/')) return bin
  const depth = repo.packageDir ? repo.packageDir.split('/').length : 0
  for (const up of [...new Set([0, depth])]) {
    const relative = posix.join(...Array<string>(up).fill('..'), 'node_modules', '.bin', bin)
    if (existsSync(join(repo.headDir, repo.packageDir, relative))) return relative
  }
  return bin
}

// --- the tests' imports: build output that is not in the tree ---

const IMPORT = /(?:\brequire\s*\(|\bimport\s*\(|\bfrom|^\s*import)\s*['"]([^'"\n]+)['"]/gm
const RESOLVE_EXTENSIONS = ['', '.js', '.cjs', '.mjs', '.ts', '.cts', '.mts', '.jsx', '.tsx', '.json', '.node']
const SCRIPT_FILE = /\.[cm]?[jt]sx?$/
/** Enough test files to see how the tests import the code, without reading a huge suite. */
const MAX_TEST_FILES = 300

/** The existing tests import a folder git does not track: the package's build script makes it. */
async function fromImports(repo: Repo, trackedFiles: string[]): Promise<DetectedBuild | null> {
  const script = buildScript(repo)
  if (!script) return null
  const inPackage = repo.packageDir ? `${repo.packageDir}/` : ''
  const tests = trackedFiles.filter((path) => path.startsWith(inPackage) && SCRIPT_FILE.test(path) && classifyFile(path) === 'test').slice(0, MAX_TEST_FILES)
  for (const file of tests) {
    // Not through a link: the pre-fix tree's install (in the sandbox) could have written the head tree too.
    const source = (await readSandboxFile(repo.headDir, join(repo.headDir, file), 'config').catch(() => null)) ?? ''
    for (const match of source.matchAll(IMPORT)) {
      const missing = buildOutputImported(repo, file, match[1])
      if (missing) return { command: [repo.runner, 'run', script], why: `${file} imports '${match[1]}', which leads into ${missing}/, a folder git does not track; the ${script} script makes it` }
    }
  }
  return null
}

/** The script that builds the package: `build` (or `compile`, …), else a lifecycle script that runs a build. */
function buildScript(repo: Repo): string | null {
  const scripts = repo.manifest.scripts ?? {}
  const named = Object.keys(scripts).filter((name) => BUILD_SCRIPT_NAME.test(name))
  const byName = named.find((name) => !name.includes(':')) ?? named[0]
  if (byName) return byName
  return ['prepare', 'prepublishOnly', 'prepack'].find((name) => scripts[name] !== undefined && scriptBuilds(repo, scripts[name], new Set([name]))) ?? null
}

/** The untracked folder (repository path) a test's import leads into, or null. */
function buildOutputImported(repo: Repo, testFile: string, specifier: string): string | null {
  if (specifier.includes('node_modules')) return null
  if (specifier.startsWith('.')) {
    const target = posix.normalize(posix.join(posix.dirname(testFile), specifier)).replace(/(.)\/$/, '$1')
    return target === (repo.packageDir || '.') ? untrackedEntry(repo) : untrackedFolder(repo, target)
  }
  const name = typeof repo.manifest.name === 'string' ? repo.manifest.name : null
  if (!name || (specifier !== name && !specifier.startsWith(`${name}/`))) return null
  // Through its own name, the package resolves by its manifest: a subpath without `exports` is a file in it.
  const subpath = specifier.slice(name.length + 1)
  if (subpath && repo.manifest.exports === undefined) return untrackedFolder(repo, posix.join(repo.packageDir, subpath))
  return untrackedEntry(repo)
}

/**
 * The folder git does not track that the package's entries (`main`, `module`, `exports` targets) lie in,
 * when they all do. One tracked entry is enough for a test to load the package without a build (koa:
 * `main` is hand-written CommonJS, only the `import` condition points into a built folder).
 */
function untrackedEntry(repo: Repo): string | null {
  const { main, module, exports } = repo.manifest
  // With `exports`, node resolves the package by it alone; without, by `main` (bundlers by `module`).
  const loaded = exports !== undefined ? exportTargets(exports) : [main ?? 'index.js', module]
  const entries = loaded.filter((entry): entry is string => typeof entry === 'string' && !entry.endsWith('.d.ts'))
  const folders = entries.map((entry) => untrackedFolder(repo, posix.join(repo.packageDir, entry)))
  return folders.every((folder) => folder !== null) ? folders[0] : null
}

function exportTargets(exports: unknown): string[] {
  if (typeof exports === 'string') return [exports]
  if (!exports || typeof exports !== 'object') return []
  return Object.values(exports).flatMap(exportTargets)
}

/**
 * A path that resolves to no tracked file, in a folder of the package that holds none (`lib` for
 * `lib/esm/index.js`): build output. A missing file in a tracked folder is not.
 */
function untrackedFolder(repo: Repo, target: string): string | null {
  if (RESOLVE_EXTENSIONS.some((extension) => repo.tracked.has(target + extension) || repo.tracked.has(`${target}/index${extension || '.js'}`))) return null
  const inPackage = repo.packageDir ? posix.relative(repo.packageDir, target) : target
  if (inPackage === '' || inPackage.startsWith('..')) return null
  const [top, ...below] = inPackage.split('/')
  // The target itself may be a folder (`../lib`); a name with an extension, alone, is a file of the package's own folder.
  if (below.length === 0 && /\.[a-z]+$/i.test(top)) return null
  const folder = posix.join(repo.packageDir, top)
  return repo.trackedFolders.has(folder) ? null : folder
}

/** Every folder that holds a tracked file, at any depth. */
function foldersOf(paths: string[]): Set<string> {
  const folders = new Set<string>()
  for (const path of paths) {
    for (let dir = posix.dirname(path); dir !== '.' && !folders.has(dir); dir = posix.dirname(dir)) folders.add(dir)
  }
  return folders
}
