/**
 * Git behind a small interface (as actions/checkout does): argv only, never a shell, hardened against the
 * repository it reads. The repository is untrusted, its `.git/config` too (on a self-hosted runner a pull
 * request's code may have written it), so every call:
 * - runs with an allow-listed environment: no API key, tokens, INPUT_*, ACTIONS_*, NODE_OPTIONS, nor the
 *   parent's GIT_* variables (GIT_DIR, GIT_CONFIG_*, …);
 * - turns off what makes git run programs named in config: fsmonitor, hooks, signature checks, submodule
 *   recursion, auto-gc (by `-c`); the pager, external diffs, textconv and the upload-pack command (by flag);
 *   transports other than http, https and ssh (file too, for a fetch from a local origin); and pins every
 *   program-running key the repository itself configures (filter drivers, ssh command, credential helpers,
 *   askpass, alternate-refs command) back to the user's own (global, system) value or to none;
 * - passes `--end-of-options` before refs, so a ref such as `--upload-pack=…` is never read as an option;
 * - is killed, with everything it started, after a timeout.
 */
import { spawn, spawnSync } from 'node:child_process'
import { realpathSync } from 'node:fs'
import { chmod, lstat, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { UserFacingError } from '../errors.js'
import { ObjectBatch, type BatchProcess } from './git-objects.js'
import { onInterrupt } from './process.js'

export interface GitCommands {
  readonly repoDir: string
  /** Throws a UserFacingError when repoDir is not inside a git work tree. */
  verifyRepository(): Promise<void>
  resolveCommit(ref: string): Promise<string>
  hasCommit(ref: string): Promise<boolean>
  isShallow(): Promise<boolean>
  /** Fetches commits from origin, with the whole history when the clone is shallow. */
  fetchCommits(refs: string[]): Promise<void>
  mergeBase(base: string, head: string): Promise<string>
  /** Unified diff of `base...head` (from their merge-base), no colour, rename detection on. */
  diff(base: string, head: string): Promise<string>
  /** A file's content at a commit, or null when it does not exist there. */
  fileAt(commit: string, path: string): Promise<string | null>
  /** A file's size in bytes at a commit; null when the path is no file there. */
  blobSize(commit: string, path: string): Promise<number | null>
  listFiles(commit: string): Promise<string[]>
  /** Every tracked entry of a commit: its mode (`100644`, `120000` a symlink, `160000` a submodule) and size. */
  treeEntries(commit: string): Promise<TreeEntry[]>
  /** Lines of tracked text files at a commit that match (git grep); none is an empty list. */
  grep(commit: string, pattern: string, options: GrepOptions): Promise<GrepMatch[]>
  commitMessages(base: string, head: string): Promise<string[]>
  /** One commit's whole message (the deliver stage looks for its own marker in the head's). */
  commitMessage(commit: string): Promise<string>
  /**
   * The named attributes of each path as the commit's .gitattributes (and the user's own attributes files)
   * set them: `set`, `unset`, `unspecified` or the value. Read from the commit, not from a work tree.
   */
  attributesAt(commit: string, paths: string[], names: string[]): Promise<Map<string, Record<string, string>>>
  addWorktree(dir: string, commit: string): Promise<void>
  removeWorktree(dir: string): Promise<void>
  /** Runs git with the work tree at `dir` (a worktree of this repository). */
  inTree(dir: string, args: string[]): Promise<string>
  /** The work tree's root folder; null when repoDir is not in one. */
  workTreeRoot(): Promise<string | null>
  /**
   * The `http.<url>.extraheader` values the repository's own config holds (its .git/config, config.worktree
   * and the files they include, as actions/checkout's git-credentials file): credentials a checkout left.
   */
  persistedCredentials(): Promise<PersistedCredential[]>
  /**
   * Copies of the repository's own config files (its common .git/config, and config.worktree where there
   * is one) without what holds or fetches credentials — `http.*.extraheader`, `credential.*`, `url.*`
   * rewrites, `include`/`includeIf` — written into `dir` readable by everyone, each with the file it stands for.
   */
  credentialFreeConfig(dir: string): Promise<Array<{ target: string; replacement: string }>>
  /** Whether git ignores the folder at this path (inside the work tree): nothing in it is ever tracked. */
  isIgnored(folder: string): Promise<boolean>
  /**
   * Forgets every worktree under `folder` whose files are gone (even one a killed `worktree add` left
   * locked). Synchronous, for an interrupt.
   */
  forgetWorktreesUnderSync(folder: string): void
}

export interface PersistedCredential {
  /** The config file that holds it, as git names it (`.git/config`, or the included file's path). */
  file: string
  key: string
  value: string
}

export interface TreeEntry {
  path: string
  mode: string
  /** Bytes; null for a submodule. */
  size: number | null
}

export interface GrepOptions {
  /** A POSIX extended regular expression; else the pattern is a literal string. */
  regex: boolean
  ignoreCase?: boolean
  /** Only under this path (a folder or a file), taken literally. */
  pathPrefix?: string
  /** At most this many matching lines per file. */
  maxPerFile?: number
}

export interface GrepMatch {
  path: string
  line: number
  text: string
}

/** git grep refused the pattern (a regular expression that does not compile); the message is git's reason. */
export class InvalidPatternError extends Error {}

export interface GitTimeouts {
  /** Calls that read the repository. */
  local: number
  /** Calls that may reach the network or write many files: fetch, worktree add (a checkout, maybe through Git LFS). */
  slow: number
}

const GIT_TIMEOUTS: GitTimeouts = { local: 2 * 60_000, slow: 10 * 60_000 }

export interface GitOptions {
  /** The environment the allow-list picks from (default: this process's). */
  parentEnv?: NodeJS.ProcessEnv
  timeouts?: Partial<GitTimeouts>
}

const MAX_OUTPUT = 256 * 1024 * 1024
const MAX_ERROR_OUTPUT = 1024 * 1024
/** How long stdio may stay open after git exited (a process that left its group may hold it). */
const CLOSE_WAIT_MS = 2000

export function createGit(repoDir: string, options: GitOptions = {}): GitCommands {
  const env = gitEnvironment(options.parentEnv ?? process.env)
  const timeouts = { ...GIT_TIMEOUTS, ...options.timeouts }
  const overrides = new RepositoryConfigOverrides(env, timeouts.local)
  const listed = new Map<string, Promise<string[]>>()
  const startBatch = (mode: '--batch' | '--batch-check') => async (): Promise<BatchProcess> => {
    const config = await overrides.for(repoDir, false)
    const args = ['--no-pager', ...HARDENING_CONFIG.flatMap((setting) => ['-c', setting]), 'cat-file', mode]
    return spawn('git', args, { cwd: repoDir, env: { ...env, ...configEnvironment(config), GIT_ALLOW_PROTOCOL: REMOTE_PROTOCOLS }, stdio: ['pipe', 'pipe', 'ignore'], windowsHide: true })
  }
  const contents = new ObjectBatch(startBatch('--batch'), true, timeouts.local, MAX_OUTPUT)
  const sizes = new ObjectBatch(startBatch('--batch-check'), false, timeouts.local)
  const git = async (args: string[], call: GitCall = {}) => {
    const cwd = call.cwd ?? repoDir
    const config = await overrides.for(cwd, call.fresh ?? false)
    const protocols = call.protocols ?? REMOTE_PROTOCOLS
    return runGit(args, { cwd, env: { ...env, ...call.env, ...configEnvironment(config), GIT_ALLOW_PROTOCOL: protocols }, timeoutMs: call.slow ? timeouts.slow : timeouts.local, noMatchExit: call.noMatchExit })
  }
  return {
    repoDir,
    async verifyRepository() {
      const inside = await git(['rev-parse', '--is-inside-work-tree']).catch(() => 'false')
      if (inside.trim() !== 'true') throw new UserFacingError(`${repoDir} is not a git repository`, 'pass --repo with the folder of a git checkout')
    },
    async resolveCommit(ref) {
      try {
        return (await git(['rev-parse', '--verify', '--quiet', '--end-of-options', `${ref}^{commit}`])).trim()
      } catch {
        throw new UserFacingError(`Commit "${ref}" is not in the repository at ${repoDir}`, 'fetch it first, e.g. git fetch --unshallow or actions/checkout with fetch-depth: 0')
      }
    },
    hasCommit: (ref) => git(['cat-file', '-e', '--end-of-options', `${ref}^{commit}`]).then(() => true, () => false),
    isShallow: async () => (await git(['rev-parse', '--is-shallow-repository'])).trim() === 'true',
    async fetchCommits(refs) {
      const refspec = refs.find(isRefspec)
      if (refspec !== undefined) throw new UserFacingError(`Refusing to fetch "${refspec}": a refspec would write refs in the repository; give a commit SHA`)
      const unshallow = (await git(['rev-parse', '--is-shallow-repository'])).trim() === 'true' ? ['--unshallow'] : []
      // remote.origin.uploadpack cannot be overridden by config (the first value wins): the option can.
      const quiet = ['--no-tags', '--quiet', '--no-auto-maintenance', '--recurse-submodules=no', '--upload-pack=git-upload-pack']
      const local = isLocalUrl((await git(['remote', 'get-url', 'origin'])).trim())
      await git(['fetch', ...quiet, ...unshallow, '--end-of-options', 'origin', ...refs], { slow: true, fresh: true, protocols: local ? LOCAL_PROTOCOLS : REMOTE_PROTOCOLS })
    },
    mergeBase: async (base, head) => (await git(['merge-base', '--end-of-options', base, head])).trim(),
    diff: (base, head) =>
      git(['-c', 'core.quotePath=false', 'diff', '--no-color', '--no-ext-diff', '--no-textconv', '-M', '--unified=3', '--end-of-options', `${base}...${head}`, '--']),
    async fileAt(commit, path) {
      // The blob as committed: cat-file runs no textconv and no filter. A git started for it where the batch failed.
      const found = await contents.ask(`${commit}:${path}`).catch(() => undefined)
      if (found !== undefined) return found?.type === 'blob' ? found.content!.toString('utf8') : null
      return git(['cat-file', 'blob', '--end-of-options', `${commit}:${path}`]).catch(() => null)
    },
    async blobSize(commit, path) {
      const found = await sizes.ask(`${commit}:${path}`).catch(() => undefined)
      if (found !== undefined) return found?.type === 'blob' ? found.size : null
      const size = await git(['cat-file', '-s', '--end-of-options', `${commit}:${path}`]).then(Number, () => null)
      return Number.isFinite(size) ? size : null
    },
    listFiles(commit) {
      // A commit's files never change: each stage asks for the head's, and git lists them once.
      const list = async () => (await git(['ls-tree', '-r', '--name-only', '-z', '--end-of-options', commit])).split('\0').filter(Boolean)
      if (!isObjectId(commit)) return list()
      if (!listed.has(commit)) listed.set(commit, list().catch((error) => { listed.delete(commit); throw error }))
      return listed.get(commit)!.then((files) => [...files])
    },
    treeEntries: async (commit) => parseTreeEntries(await git(['ls-tree', '-r', '-l', '-z', '--full-tree', '--end-of-options', commit])),
    async grep(commit, pattern, options) {
      // git grep reads no --end-of-options before its revision (git 2.39: "unable to resolve revision"), so
      // only a full object name is passed there at all: it cannot be read as an option.
      if (!isObjectId(commit)) throw new Error(`git grep needs a full commit id, not ${JSON.stringify(commit)}`)
      // --no-column: the repository's grep.column would add a field to every match.
      const args = ['grep', '-n', '-I', '--no-color', '--no-column', '--full-name', '-z', options.regex ? '-E' : '-F']
      if (options.ignoreCase) args.push('-i')
      if (options.maxPerFile) args.push(`--max-count=${options.maxPerFile}`)
      // -e keeps a pattern that starts with `-` a pattern; `top` searches the whole tree whatever the folder
      // git runs in, `literal` keeps glob characters in the prefix themselves.
      args.push('-e', pattern, commit, '--', options.pathPrefix ? `:(top,literal)${options.pathPrefix}` : ':(top)')
      try {
        return parseGrep(await git(args, { noMatchExit: true }), commit)
      } catch (error) {
        throw invalidPattern(error as Error, pattern) ?? error
      }
    },
    commitMessages: async (base, head) =>
      (await git(['log', '--no-show-signature', '--format=%B%x00', '--end-of-options', `${base}..${head}`, '--'])).split('\0').map((m) => m.trim()).filter(Boolean),
    commitMessage: async (commit) => git(['log', '-1', '--no-show-signature', '--format=%B', '--end-of-options', commit, '--']),
    // A checkout: the filter drivers it would run are read again just before.
    addWorktree: async (dir, commit) => void (await git(['worktree', 'add', '--detach', '--force', '--end-of-options', dir, commit], { slow: true, fresh: true })),
    async removeWorktree(dir) {
      // `remove` forgets a tree whose folder is gone too; a prune only where it could not.
      const removed = await git(['worktree', 'remove', '--force', '--end-of-options', dir]).then(() => true, () => false)
      if (!removed) await git(['worktree', 'prune']).catch(() => undefined)
    },
    async attributesAt(commit, paths, names) {
      const attributes = new Map<string, Record<string, string>>()
      if (paths.length === 0) return attributes
      // git < 2.40 has no `check-attr --source`: the commit's tree goes into an index of the tool's own, read with --cached.
      const indexDir = await mkdtemp(join(tmpdir(), 'rtg-attributes-'))
      const env = { GIT_INDEX_FILE: join(indexDir, 'index') }
      try {
        // A split index would write its shared part into the repository's .git: one file, here, is enough.
        await git(['-c', 'core.splitIndex=false', 'read-tree', '--end-of-options', commit], { env })
        for (let at = 0; at < paths.length; at += PATHS_PER_CALL) {
          const output = await git(['check-attr', '--cached', '-z', ...names, '--', ...paths.slice(at, at + PATHS_PER_CALL)], { env })
          const fields = output.split('\0')
          for (let index = 0; index + 2 < fields.length; index += 3) {
            const [path, name, value] = fields.slice(index, index + 3)
            attributes.set(path, { ...attributes.get(path), [name]: value })
          }
        }
      } finally {
        await rm(indexDir, { recursive: true, force: true })
      }
      return attributes
    },
    inTree: (dir, args) => git(args, { cwd: dir }),
    workTreeRoot: () => git(['rev-parse', '--show-toplevel']).then((root) => root.replace(/\n$/, ''), () => null),
    // The trailing slash: a pattern such as `out/` matches a folder, and a folder not yet made is not known as one.
    persistedCredentials: async () => parseRepositoryHeaders(await git(['config', '--list', '--show-scope', '--show-origin', '-z'])),
    async credentialFreeConfig(dir) {
      const commonDir = realpathSync((await git(['rev-parse', '--path-format=absolute', '--git-common-dir'])).replace(/\n$/, ''))
      const copies: Array<{ target: string; replacement: string }> = []
      for (const name of ['config', 'config.worktree']) {
        const target = join(commonDir, name)
        if (!(await lstat(target).then((found) => found.isFile(), () => false))) continue
        const replacement = join(dir, `git-${name}`)
        // Private until it holds no credentials.
        await rm(replacement, { force: true })
        await writeFile(replacement, await readFile(target), { mode: 0o600, flag: 'wx' })
        const names = (await git(['config', '--file', replacement, '--no-includes', '--name-only', '--list', '-z'])).split('\0')
        for (const key of new Set(names.filter(holdsCredentials))) await git(['config', '--file', replacement, '--unset-all', key])
        await chmod(replacement, 0o644)
        copies.push({ target, replacement })
      }
      return copies
    },
    isIgnored: async (folder) => (await git(['check-ignore', '--', `${folder.replace(/\/+$/, '')}/`], { noMatchExit: true })) !== '',
    forgetWorktreesUnderSync(folder) {
      const gitSync = (args: string[]) => runGitSync(args, { cwd: repoDir, env: { ...env, ...configEnvironment(overrides.lastRead(repoDir)), GIT_ALLOW_PROTOCOL: '' }, timeoutMs: timeouts.local })
      // -z from git 2.36; before it, a line per field.
      const listed = gitSync(['worktree', 'list', '--porcelain', '-z']) ?? gitSync(['worktree', 'list', '--porcelain'])
      if (listed === null) return
      const under = (path: string) => path === folder || path.startsWith(`${folder.replace(/\/+$/, '')}/`)
      const ours = listed.split(/[\0\n]/).filter((field) => field.startsWith('worktree ')).map((field) => field.slice('worktree '.length)).filter(under)
      // A locked entry is one prune keeps: a `worktree add` killed half-way leaves its "initializing" lock.
      for (const dir of ours) gitSync(['worktree', 'unlock', '--end-of-options', dir])
      if (ours.length) gitSync(['worktree', 'prune'])
    }
  }
}

/** A full object id (SHA-1 or SHA-256): it names the same commit for the whole run, unlike a ref. */
function isObjectId(name: string): boolean {
  return /^[0-9a-f]{40}([0-9a-f]{24})?$/.test(name)
}

/** Config keys (as git lists them: section and name lower case) that hold credentials or say where git finds them. */
function holdsCredentials(key: string): boolean {
  return /^http\.(.+\.)?extraheader$/.test(key) || /^(credential|url|include|includeif)\./.test(key)
}

/** Paths per `check-attr` call: well within the length of a command line. */
const PATHS_PER_CALL = 500

interface GitCall {
  /** Where git runs (default: the repository). */
  cwd?: string
  /** The long timeout. */
  slow?: boolean
  /** Read the repository's config again first. */
  fresh?: boolean
  /** GIT_ALLOW_PROTOCOL (default: the remote ones). */
  protocols?: string
  /** Exit 1 means nothing found (git grep): an empty answer, not a failure. */
  noMatchExit?: boolean
  /** Variables this call sets besides the allow-listed ones (GIT_INDEX_FILE). */
  env?: Record<string, string>
}

/** `src:dst`, `+src` and `^src` are refspecs, not commits: fetching them could move refs. */
const isRefspec = (ref: string) => ref.includes(':') || ref.startsWith('+') || ref.startsWith('^')

// --- The environment ---------------------------------------------------------------------------------

/** What git and the programs of the user's own config (ssh, credential helpers, git-lfs) need, and no more. */
const PASSED_NAMES = new Set([
  'PATH', 'HOME', 'USER', 'LOGNAME', 'LANG', 'LANGUAGE', 'TZ', 'TMPDIR', 'XDG_CONFIG_HOME',
  // fetch through the runner's proxy and CA bundle, with its ssh agent
  'SSH_AUTH_SOCK', 'http_proxy', 'https_proxy', 'HTTP_PROXY', 'HTTPS_PROXY', 'no_proxy', 'NO_PROXY', 'all_proxy', 'ALL_PROXY',
  'SSL_CERT_FILE', 'SSL_CERT_DIR', 'CURL_CA_BUNDLE'
])

/**
 * The environment of the tool's git: an allow-list of the parent's, so that git and anything it starts never
 * see the API key, tokens, INPUT_*, ACTIONS_*, NODE_OPTIONS or the parent's GIT_* (GIT_DIR, GIT_CONFIG_*,
 * GIT_SSH_COMMAND, …); plus what keeps it from ever waiting for a person.
 */
export function gitEnvironment(parent: NodeJS.ProcessEnv): Record<string, string> {
  const env: Record<string, string> = {}
  for (const [name, value] of Object.entries(parent)) {
    if (value !== undefined && (PASSED_NAMES.has(name) || name.startsWith('LC_'))) env[name] = value
  }
  return { ...env, GIT_TERMINAL_PROMPT: '0', GCM_INTERACTIVE: 'never' }
}

// --- Config that runs programs -----------------------------------------------------------------------

/**
 * Before every command: `-c` settings that turn off what runs a program from config in the commands used
 * here. Hooks include post-checkout (worktree add) and reference-transaction (fetch, worktree add).
 */
const HARDENING_CONFIG = [
  'core.fsmonitor=false',
  'core.hooksPath=/dev/null',
  'log.showSignature=false', // gpg.program
  'protocol.ext.allow=never',
  'submodule.recurse=false',
  // no background gc or maintenance outliving the command and its timeout
  'gc.auto=0',
  'maintenance.auto=false'
]

/**
 * The transports git may use. Never ext:: (a command in the URL) nor git:// (core.gitProxy, whose first value
 * wins: no override). A local repository's upload-pack is a command run here, named by remote.*.uploadpack,
 * which config cannot override: so `file` only for a fetch from a local origin, which pins it by option, and
 * never for the lazy fetch of a partial clone, which any command reading a missing object may start.
 */
const REMOTE_PROTOCOLS = 'http:https:ssh'
const LOCAL_PROTOCOLS = `file:${REMOTE_PROTOCOLS}`

/** A path (`C:\\…` too) or file:// URL, not `scheme://…`, `scheme::…` or scp-like `host:path`. */
const isLocalUrl = (url: string) => /^file:\/\//i.test(url) || /^[a-z]:[\\/]/i.test(url) || !/^[^/]*:/.test(url)

/** Config keys naming a program, and what they are pinned to when the repository sets them and the user does not. */
const PROGRAM_KEYS: Array<{ key: RegExp; neutral: string; list?: true }> = [
  // .gitattributes (the tree's or .git/info/attributes) picks the driver; only config gives it a command.
  { key: /^filter\..+\.(clean|smudge|process)$/, neutral: '' },
  { key: /^core\.sshcommand$/, neutral: 'ssh' },
  { key: /^core\.askpass$/, neutral: '' },
  { key: /^core\.alternaterefscommand$/, neutral: '' },
  // A list: an empty value empties it, then the user's own helpers come back in order.
  { key: /^credential\.(.+\.)?helper$/, neutral: '', list: true }
]

const TRUSTED_SCOPES = new Set(['system', 'global', 'command'])

interface ConfigEntry {
  scope: string
  /** With --show-origin: where it is set (`file:.git/config`). */
  origin?: string
  key: string
  value: string
}

export type ConfigOverride = readonly [key: string, value: string]

/**
 * The overrides for config the repository (its .git/config, config.worktree and the files they include)
 * sets on a program-running key: the user's own value where they have one, else the neutral one. A
 * filter driver left with no command is no longer required, so the checkout goes on without it.
 */
export function repositoryOverrides(entries: ConfigEntry[]): ConfigOverride[] {
  const byKey = new Map<string, ConfigEntry[]>()
  for (const entry of entries) byKey.set(entry.key, [...(byKey.get(entry.key) ?? []), entry])
  const overrides: ConfigOverride[] = []
  const neutralised = new Set<string>()
  for (const [key, values] of byKey) {
    const rule = PROGRAM_KEYS.find((candidate) => candidate.key.test(key))
    if (!rule || values.every((entry) => TRUSTED_SCOPES.has(entry.scope))) continue
    const trusted = values.filter((entry) => TRUSTED_SCOPES.has(entry.scope)).map((entry) => entry.value)
    if (rule.list) overrides.push([key, ''], ...trusted.map((value) => [key, value] as const))
    else overrides.push([key, trusted.at(-1) ?? rule.neutral])
    const driver = /^filter\.(.+)\.[a-z]+$/.exec(key)?.[1]
    if (driver !== undefined && trusted.length === 0) neutralised.add(driver)
  }
  for (const driver of neutralised) {
    const userCommand = ['clean', 'smudge', 'process'].some((kind) => byKey.get(`filter.${driver}.${kind}`)?.some((entry) => TRUSTED_SCOPES.has(entry.scope)))
    if (!userCommand) overrides.push([`filter.${driver}.required`, 'false'])
  }
  return overrides
}

/**
 * `git config --list --show-scope -z`: records of scope, then `key\nvalue` (a bare key for a valueless
 * boolean); with `--show-origin`, the origin between them.
 */
export function parseConfigList(output: string, { withOrigin = false } = {}): ConfigEntry[] {
  const fields = output.split('\0')
  const width = withOrigin ? 3 : 2
  const entries: ConfigEntry[] = []
  for (let index = 0; index + width - 1 < fields.length; index += width) {
    const [key, ...value] = fields[index + width - 1].split('\n')
    entries.push({ scope: fields[index], ...(withOrigin && { origin: fields[index + 1] }), key, value: value.join('\n') })
  }
  return entries
}

/** The extraheaders of the repository's scopes. Keys come lower-cased but for the URL between the dots. */
export function parseRepositoryHeaders(output: string): PersistedCredential[] {
  return parseConfigList(output, { withOrigin: true })
    .filter(({ scope, key }) => ['local', 'worktree'].includes(scope) && /^http\.(.+\.)?extraheader$/.test(key))
    .map(({ origin = '', key, value }) => ({ file: origin.replace(/^file:/, ''), key, value }))
}

/** Overrides go in GIT_CONFIG_COUNT/KEY/VALUE: a key may hold `=` (a filter's name), which `-c` cannot. */
function configEnvironment(overrides: readonly ConfigOverride[]): Record<string, string> {
  const env: Record<string, string> = { GIT_CONFIG_COUNT: String(overrides.length) }
  overrides.forEach(([key, value], index) => {
    env[`GIT_CONFIG_KEY_${index}`] = key
    env[`GIT_CONFIG_VALUE_${index}`] = value
  })
  return env
}

/**
 * The overrides of each folder's repository, read once; `fresh` reads them again, for the commands that can
 * run what they neutralise most (checkout, fetch).
 */
class RepositoryConfigOverrides {
  private readonly known = new Map<string, Promise<ConfigOverride[]>>()
  private readonly resolved = new Map<string, ConfigOverride[]>()

  constructor(
    private readonly env: Record<string, string>,
    private readonly timeoutMs: number
  ) {}

  /** The overrides last read for the folder, for a synchronous call (none read yet: none). */
  lastRead(cwd: string): ConfigOverride[] {
    return this.resolved.get(cwd) ?? []
  }

  for(cwd: string, fresh: boolean): Promise<ConfigOverride[]> {
    const cached = this.known.get(cwd)
    if (cached && !fresh) return cached
    const read = runGit(['config', '--list', '--show-scope', '-z'], { cwd, env: { ...this.env, GIT_ALLOW_PROTOCOL: '' }, timeoutMs: this.timeoutMs }).then((output) => {
      const overrides = repositoryOverrides(parseConfigList(output))
      this.resolved.set(cwd, overrides)
      return overrides
    })
    // A failed read is not kept: the next call tries again (and fails the same way if it must).
    const kept: Promise<ConfigOverride[]> = read.catch((error: Error) => {
      if (this.known.get(cwd) === kept) this.known.delete(cwd)
      throw error
    })
    this.known.set(cwd, kept)
    return kept
  }
}

// --- Running git -------------------------------------------------------------------------------------

interface GitRun {
  cwd: string
  env: Record<string, string>
  timeoutMs: number
  noMatchExit?: boolean
}

/**
 * One git command with the hardening config, no stdin and its own session (so no terminal to prompt on, and
 * a process group a timeout kills whole: ssh, remote helpers, filters). Errors name the command without the
 * hardening prefix.
 */
function runGit(args: string[], run: GitRun): Promise<string> {
  const describe = `git ${args.join(' ')}`
  return new Promise((resolve, reject) => {
    const child = spawn('git', ['--no-pager', ...HARDENING_CONFIG.flatMap((setting) => ['-c', setting]), ...args], {
      cwd: run.cwd,
      env: run.env,
      stdio: ['ignore', 'pipe', 'pipe'],
      detached: true,
      windowsHide: true
    })
    const stdout = new Capture(MAX_OUTPUT)
    const stderr = new Capture(MAX_ERROR_OUTPUT)
    let failure: string | null = null
    let settled = false
    let closeTimer: NodeJS.Timeout | undefined
    const stop = (why: string) => {
      failure ??= why
      killGroup(child.pid)
    }
    const timer = setTimeout(() => stop(`timed out after ${Math.round(run.timeoutMs / 1000)} s`), run.timeoutMs)
    const forget = onInterrupt(() => killGroup(child.pid))
    child.stdout.on('data', (chunk: Buffer) => {
      if (!stdout.add(chunk)) stop(`printed more than ${MAX_OUTPUT / 1024 / 1024} MiB`)
    })
    child.stderr.on('data', (chunk: Buffer) => stderr.add(chunk))
    child.once('error', (error) => {
      // A spawn failure (e.g. no git on PATH, or no such folder) has no exit to wait for.
      if (child.pid === undefined) finish(null, error.message)
    })
    child.once('exit', (code, signal) => {
      // Whatever the command left behind in its group (a helper, a filter) goes with it; and a process that
      // left the group yet holds the pipes cannot keep the call open.
      killGroup(child.pid)
      closeTimer = setTimeout(() => finish(code, signal), CLOSE_WAIT_MS)
      child.once('close', () => finish(code, signal))
    })

    function finish(code: number | null, detail: string | null) {
      if (settled) return
      settled = true
      for (const pending of [timer, closeTimer]) clearTimeout(pending)
      forget()
      child.stdout.destroy()
      child.stderr.destroy()
      const message = stderr.text().trim()
      if (failure) reject(new Error(`${describe} ${failure}${message ? `: ${message}` : ''}`))
      else if (code === 1 && run.noMatchExit && !message) resolve('')
      else if (code !== 0) reject(new Error(`${describe} failed: ${message || `exit ${code ?? detail}`}`))
      else resolve(stdout.text())
    }
  })
}

/** One git command, synchronously (for an interrupt), hardened as runGit; its output, or null when it failed. */
function runGitSync(args: string[], run: GitRun): string | null {
  const result = spawnSync('git', ['--no-pager', ...HARDENING_CONFIG.flatMap((setting) => ['-c', setting]), ...args], {
    cwd: run.cwd,
    env: run.env,
    stdio: ['ignore', 'pipe', 'pipe'],
    timeout: run.timeoutMs,
    killSignal: 'SIGKILL',
    maxBuffer: MAX_ERROR_OUTPUT,
    windowsHide: true,
    encoding: 'utf8'
  })
  return result.status === 0 ? result.stdout : null
}

/** `ls-tree -r -l -z`: `<mode> <type> <object> <size>\t<path>\0` per entry. */
export function parseTreeEntries(output: string): TreeEntry[] {
  return output.split('\0').filter(Boolean).map((entry) => {
    const tab = entry.indexOf('\t')
    const [mode, , , size] = entry.slice(0, tab).trim().split(/\s+/)
    return { path: entry.slice(tab + 1), mode, size: size === '-' ? null : Number(size) }
  })
}

/**
 * `grep -n -z` on a commit: `<commit>:<path>\0<line>\0<text>\n` per matching line. Read field by field, not
 * split on newlines: a path may hold a newline (-z prints it raw), and a line a NUL past the first 8000 bytes
 * (where -I stops looking).
 */
export function parseGrep(output: string, commit: string): GrepMatch[] {
  const prefix = `${commit}:`
  const matches: GrepMatch[] = []
  let at = 0
  while (at < output.length) {
    const pathEnd = output.indexOf('\0', at)
    const lineEnd = pathEnd < 0 ? -1 : output.indexOf('\0', pathEnd + 1)
    if (lineEnd < 0) break
    const newline = output.indexOf('\n', lineEnd + 1)
    const textEnd = newline < 0 ? output.length : newline
    const [where, line] = [output.slice(at, pathEnd), output.slice(pathEnd + 1, lineEnd)]
    if (where.startsWith(prefix) && /^\d+$/.test(line)) matches.push({ path: where.slice(prefix.length), line: Number(line), text: output.slice(lineEnd + 1, textEnd) })
    at = textEnd + 1
  }
  return matches
}

/** git's own words when it could not compile the pattern: `fatal: -e option, '<pattern>': <reason>`. */
function invalidPattern(error: Error, pattern: string): InvalidPatternError | null {
  const marker = `-e option, '${pattern}': `
  const at = error.message.indexOf(marker)
  return at < 0 ? null : new InvalidPatternError(error.message.slice(at + marker.length).split('\n')[0].trim())
}

/** A stream's bytes up to a limit; `add` says whether the chunk still fit. */
class Capture {
  private readonly chunks: Buffer[] = []
  private size = 0

  constructor(private readonly limit: number) {}

  add(chunk: Buffer): boolean {
    this.size += chunk.length
    if (this.size > this.limit) return false
    this.chunks.push(chunk)
    return true
  }

  text(): string {
    return Buffer.concat(this.chunks).toString('utf8')
  }
}

function killGroup(pid: number | undefined): void {
  if (pid === undefined) return
  try {
    if (process.platform === 'win32') process.kill(pid, 'SIGKILL')
    else process.kill(-pid, 'SIGKILL')
  } catch {
    // ESRCH: the group is gone already.
  }
}
