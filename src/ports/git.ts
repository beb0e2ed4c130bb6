/** Git behind a small interface (as actions/checkout does): argv only, never a shell. */
import { execFile } from 'node:child_process'
import { UserFacingError } from '../errors.js'

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
  listFiles(commit: string): Promise<string[]>
  commitMessages(base: string, head: string): Promise<string[]>
  addWorktree(dir: string, commit: string): Promise<void>
  removeWorktree(dir: string): Promise<void>
  /** Runs git with the work tree at `dir` (a worktree of this repository). */
  inTree(dir: string, args: string[]): Promise<string>
}

const MAX_OUTPUT = 256 * 1024 * 1024

export function createGit(repoDir: string): GitCommands {
  const git = (args: string[], cwd = repoDir) => runGit(args, cwd)
  return {
    repoDir,
    async verifyRepository() {
      const inside = await git(['rev-parse', '--is-inside-work-tree']).catch(() => 'false')
      if (inside.trim() !== 'true') throw new UserFacingError(`${repoDir} is not a git repository`, 'pass --repo with the folder of a git checkout')
    },
    async resolveCommit(ref) {
      try {
        return (await git(['rev-parse', '--verify', '--quiet', `${ref}^{commit}`])).trim()
      } catch {
        throw new UserFacingError(`Commit "${ref}" is not in the repository at ${repoDir}`, 'fetch it first, e.g. git fetch --unshallow or actions/checkout with fetch-depth: 0')
      }
    },
    hasCommit: (ref) => git(['cat-file', '-e', `${ref}^{commit}`]).then(() => true, () => false),
    isShallow: async () => (await git(['rev-parse', '--is-shallow-repository'])).trim() === 'true',
    async fetchCommits(refs) {
      const unshallow = (await git(['rev-parse', '--is-shallow-repository'])).trim() === 'true' ? ['--unshallow'] : []
      await git(['fetch', '--no-tags', '--quiet', ...unshallow, 'origin', ...refs])
    },
    mergeBase: async (base, head) => (await git(['merge-base', base, head])).trim(),
    diff: (base, head) => git(['-c', 'core.quotePath=false', 'diff', '--no-color', '--no-ext-diff', '-M', '--unified=3', `${base}...${head}`]),
    async fileAt(commit, path) {
      try {
        return await git(['show', `${commit}:${path}`])
      } catch {
        return null
      }
    },
    listFiles: async (commit) => (await git(['ls-tree', '-r', '--name-only', '-z', commit])).split('\0').filter(Boolean),
    commitMessages: async (base, head) =>
      (await git(['log', '--format=%B%x00', `${base}..${head}`])).split('\0').map((m) => m.trim()).filter(Boolean),
    addWorktree: async (dir, commit) => void (await git(['worktree', 'add', '--detach', '--force', dir, commit])),
    async removeWorktree(dir) {
      await git(['worktree', 'remove', '--force', dir]).catch(() => undefined)
      await git(['worktree', 'prune']).catch(() => undefined)
    },
    inTree: (dir, args) => git(args, dir)
  }
}

function runGit(args: string[], cwd: string): Promise<string> {
  return new Promise((resolvePromise, reject) => {
    execFile('git', args, { cwd, maxBuffer: MAX_OUTPUT, env: { ...process.env, GIT_TERMINAL_PROMPT: '0' } }, (error, stdout, stderr) => {
      if (error) reject(new Error(`git ${args.join(' ')} failed: ${stderr.trim() || error.message}`))
      else resolvePromise(stdout)
    })
  })
}
