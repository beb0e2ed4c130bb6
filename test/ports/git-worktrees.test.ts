/**
 * The trees' entries in git: forgotten after an interrupt (the trees' folder gone), even one a killed `worktree add`
 * left locked, and by their own removal; a commit's files listed once.
 */
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

/** A worktree of the user's own, outside the run's folder: `users-tree` in a folder of its own. */
async function usersOwnTree(commit: string): Promise<string> {
  const users = join(await mkdtemp(join(tmpdir(), 'rtg-git-worktrees-user-')), 'users-tree')
  repo.git('worktree', 'add', '-q', '--detach', users, commit)
  return users
}

const entries = () => (existsSync(join(repo.dir, '.git', 'worktrees')) ? readdirSync(join(repo.dir, '.git', 'worktrees')).sort() : [])

test('forgets the removed worktrees under the folder, locked ones too, and keeps the user’s own', async () => {
  repo.git('init', '-q')
  const head = await repo.commit({ 'a.txt': 'a\n' })
  const git = createGit(repo.dir)
  const users = await usersOwnTree(head)
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

test("a tree whose folder is gone is forgotten by its removal alone: the user's own missing tree stays listed", async () => {
  repo.git('init', '-q')
  const head = await repo.commit({ 'a.txt': 'a\n' })
  const git = createGit(repo.dir)
  // The user's own worktree, its folder gone (a drive not mounted): a prune would forget it too.
  const users = await usersOwnTree(head)
  await rm(join(users, '..'), { recursive: true, force: true })
  await git.addWorktree(join(work, 'trees', 'head'), head)
  await rm(join(work, 'trees'), { recursive: true, force: true })

  await git.removeWorktree(join(work, 'trees', 'head'))

  expect(entries()).toEqual(['users-tree'])
})

test("a commit's files are listed once and each caller gets its own list; a branch name is listed again", async () => {
  repo.git('init', '-q', '-b', 'main')
  const first = await repo.commit({ 'a.txt': 'a\n' })
  const git = createGit(repo.dir)
  const listed = await git.listFiles(first)
  listed.push('not-in-the-commit.txt')
  expect(await git.listFiles(first)).toEqual(['a.txt'])
  expect(await git.listFiles('main')).toEqual(['a.txt'])
  await repo.commit({ 'b.txt': 'b\n' })
  expect(await git.listFiles('main')).toEqual(['a.txt', 'b.txt'])
  expect(await git.listFiles(first)).toEqual(['a.txt'])
})
