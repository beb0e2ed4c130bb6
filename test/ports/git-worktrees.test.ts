/** After an interrupt the trees' folder is gone: git forgets their entries, even one a killed `worktree add` left locked. */
import { existsSync, readdirSync } from 'node:fs'
import { mkdtemp, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { createGit } from '../../src/ports/git.js'
import { scratchRepo } from '../support/scratch-repo.js'

const repo = scratchRepo('rtg-git-worktrees-')
let work = ''
beforeEach(async () => (work = await mkdtemp(join(tmpdir(), 'rtg-git-worktrees-work-'))))
afterEach(() => rm(work, { recursive: true, force: true }))

const entries = () => (existsSync(join(repo.dir, '.git', 'worktrees')) ? readdirSync(join(repo.dir, '.git', 'worktrees')).sort() : [])

test('forgets the removed worktrees under the folder, locked ones too, and keeps the user’s own', async () => {
  repo.git('init', '-q')
  const head = await repo.commit({ 'a.txt': 'a\n' })
  const git = createGit(repo.dir)
  const users = join(await mkdtemp(join(tmpdir(), 'rtg-git-worktrees-user-')), 'users-tree')
  repo.git('worktree', 'add', '-q', '--detach', users, head)
  try {
    await git.addWorktree(join(work, 'trees', 'head'), head)
    await git.addWorktree(join(work, 'trees', 'pre-fix'), head)
    // What a `worktree add` killed half-way leaves: a locked entry, which `worktree prune` alone keeps.
    await writeFile(join(repo.dir, '.git', 'worktrees', 'pre-fix', 'locked'), 'initializing')
    expect(entries()).toEqual(['head', 'pre-fix', 'users-tree'])
    await rm(join(work, 'trees'), { recursive: true, force: true })

    git.forgetWorktreesUnderSync(work)

    expect(entries()).toEqual(['users-tree'])
    expect(repo.git('worktree', 'list')).toContain(users)
  } finally {
    await rm(join(users, '..'), { recursive: true, force: true })
  }
})
