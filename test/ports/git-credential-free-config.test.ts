/**
 * The copy of the repository's config the sandbox's commands see: everything a checkout or a user set,
 * less what holds or fetches credentials.
 */
import { execFileSync } from 'node:child_process'
import { mkdirSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { createGit } from '../../src/ports/git.js'

const dirs: string[] = []
afterAll(() => dirs.forEach((dir) => rmSync(dir, { recursive: true, force: true })))

test('the copy keeps the settings and drops extraheaders, credential helpers, url rewrites and includes; the original stays', async () => {
  const top = mkdtempSync(join(tmpdir(), 'rtg-config-copy-'))
  dirs.push(top)
  const repo = join(top, 'repo')
  const out = join(top, 'out')
  mkdirSync(out)
  execFileSync('git', ['init', '-q', repo])
  const set = (...args: string[]) => execFileSync('git', ['config', '--local', ...args], { cwd: repo })
  set('http.https://github.com/.extraheader', 'AUTHORIZATION: basic c2VjcmV0')
  set('http.extraHeader', 'Authorization: bearer top-secret')
  set('http.sslVerify', 'true')
  set('credential.helper', 'store')
  set('credential.https://github.com.username', 'x-access-token')
  set('url.https://x-access-token:tok@github.com/.insteadOf', 'https://github.com/')
  set('include.path', join(top, 'included.config'))
  set(`includeIf.gitdir:${repo}/.git.path`, join(top, 'git-credentials-1.config'))
  set('remote.origin.url', 'https://github.com/acme/transport')
  set('user.name', 'Keep Me')
  const before = readFileSync(join(repo, '.git', 'config'), 'utf8')

  const copies = await createGit(repo).credentialFreeConfig(out)

  expect(copies).toEqual([{ target: join(repo, '.git', 'config'), replacement: join(out, 'git-config') }])
  const list = (file: string) => execFileSync('git', ['config', '--file', file, '--no-includes', '--list'], { encoding: 'utf8' }).trim().split('\n')
  expect(list(copies[0].replacement)).toEqual([
    'core.repositoryformatversion=0',
    'core.filemode=true',
    'core.bare=false',
    'core.logallrefupdates=true',
    'http.sslverify=true',
    'remote.origin.url=https://github.com/acme/transport',
    'user.name=Keep Me'
  ])
  expect(readFileSync(copies[0].replacement, 'utf8')).not.toMatch(/secret|tok@|git-credentials|included/)
  expect(statSync(copies[0].replacement).mode & 0o777).toBe(0o644)
  expect(readFileSync(join(repo, '.git', 'config'), 'utf8')).toBe(before)
})

test('a worktree config of the repository is copied the same way', async () => {
  const top = mkdtempSync(join(tmpdir(), 'rtg-config-copy-'))
  dirs.push(top)
  const repo = join(top, 'repo')
  execFileSync('git', ['init', '-q', repo])
  execFileSync('git', ['config', 'extensions.worktreeConfig', 'true'], { cwd: repo })
  writeFileSync(join(repo, '.git', 'config.worktree'), '[http "https://github.com/"]\n\textraheader = AUTHORIZATION: basic c2VjcmV0\n[core]\n\tsparseCheckout = false\n')

  const copies = await createGit(repo).credentialFreeConfig(top)

  expect(copies.map((copy) => copy.target)).toEqual([join(repo, '.git', 'config'), join(repo, '.git', 'config.worktree')])
  expect(readFileSync(join(top, 'git-config.worktree'), 'utf8')).not.toContain('extraheader')
  expect(readFileSync(join(top, 'git-config.worktree'), 'utf8')).toContain('sparseCheckout = false')
})
