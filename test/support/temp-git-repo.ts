/**
 * A git repository in a fresh temp folder, filled commit by commit, without jest's hooks (the bench builds
 * these too): the generated shapes of test/context/large-change.ts and large-module.ts. git runs with no
 * system or global configuration and a fixed author.
 */
import { execFile } from 'node:child_process'
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { dirname, join } from 'node:path'
import { promisify } from 'node:util'

const GIT_ENV = { ...process.env, GIT_CONFIG_NOSYSTEM: '1', GIT_CONFIG_GLOBAL: '/dev/null', GIT_AUTHOR_NAME: 't', GIT_AUTHOR_EMAIL: 't@t.invalid', GIT_COMMITTER_NAME: 't', GIT_COMMITTER_EMAIL: 't@t.invalid' }

export interface TempGitRepo {
  dir: string
  /** Writes the files (over earlier ones), commits them all, and returns the commit's hash. */
  commit(files: Record<string, string>): Promise<string>
  cleanup(): Promise<void>
}

export async function tempGitRepo(prefix: string): Promise<TempGitRepo> {
  const dir = await mkdtemp(join(tmpdir(), prefix))
  // Generated files run to tens of megabytes: git's output is not capped.
  const git = async (...args: string[]) => (await promisify(execFile)('git', args, { cwd: dir, env: GIT_ENV, maxBuffer: 1 << 30 })).stdout.trim()
  await git('-c', 'init.defaultBranch=main', 'init', '-q')
  const commit = async (files: Record<string, string>) => {
    for (const [path, content] of Object.entries(files)) {
      await mkdir(dirname(join(dir, path)), { recursive: true })
      await writeFile(join(dir, path), content)
    }
    await git('add', '-A')
    await git('commit', '-qm', 'x')
    return git('rev-parse', 'HEAD')
  }
  return { dir, commit, cleanup: () => rm(dir, { recursive: true, force: true }) }
}
