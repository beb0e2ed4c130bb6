/**
 * A git repository in a fresh temporary folder for each test, filled commit by commit: for tests that read
 * a real history (the context stage). Call once at the top of a test file; it registers its own hooks.
 */
import { execFileSync } from 'node:child_process'
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { dirname, join } from 'node:path'

export interface ScratchRepo {
  /** The current test's repository folder. */
  readonly dir: string
  git(...args: string[]): string
  /** Writes the files (over earlier ones), commits them all, and returns the commit's hash. */
  commit(files: Record<string, string>): Promise<string>
}

export function scratchRepo(prefix: string): ScratchRepo {
  let dir = ''
  beforeEach(async () => (dir = await mkdtemp(join(tmpdir(), prefix))))
  afterEach(() => rm(dir, { recursive: true, force: true }))
  const git = (...args: string[]) => execFileSync('git', args, { cwd: dir, encoding: 'utf8' }).trim()
  return {
    get dir() {
      return dir
    },
    git,
    async commit(files) {
      for (const [path, content] of Object.entries(files)) {
        await mkdir(dirname(join(dir, path)), { recursive: true })
        await writeFile(join(dir, path), content)
      }
      git('add', '-A')
      git('-c', 'user.name=t', '-c', 'user.email=t@t', 'commit', '-qm', 'x')
      return git('rev-parse', 'HEAD')
    }
  }
}
