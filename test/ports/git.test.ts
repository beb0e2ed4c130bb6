/**
 * The tool's own git on real repositories whose .git/config a pull request's code could have written (a
 * self-hosted runner keeps the checkout): every program that config names writes a marker, and the tool's
 * calls must leave none. Each threat is first shown live with plain git, so the tests can fail.
 */
import { execFile, execFileSync } from 'node:child_process'
import { chmodSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { createServer as createHttpServer } from 'node:http'
import { createServer as createTcpServer, type AddressInfo, type Server, type Socket } from 'node:net'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { createGit, gitEnvironment, parseConfigList, repositoryOverrides } from '../../src/ports/git.js'
import { buildFixtureRepo, type FixtureRepo } from '../support/fixture-repo.js'

const cleanups: Array<() => unknown> = []
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup()
})

function tempDir(prefix: string): string {
  const dir = mkdtempSync(join(tmpdir(), prefix))
  cleanups.push(() => rmSync(dir, { recursive: true, force: true }))
  return dir
}

/** Scripts that log their name to one file; filters also pass their input through, as a real one would. */
function markerKit() {
  const dir = tempDir('rtg-git-markers-')
  const log = join(dir, 'markers.log')
  const script = (name: string, body = '', folder = 'bin') => {
    mkdirSync(join(dir, folder), { recursive: true })
    const path = join(dir, folder, name)
    writeFileSync(path, `#!/bin/sh\necho "${name}" >> '${log}'\n${body}`)
    chmodSync(path, 0o755)
    return path
  }
  const markers = () => (existsSync(log) ? [...new Set(readFileSync(log, 'utf8').trim().split('\n'))].sort() : [])
  return { dir, script, markers, clear: () => rmSync(log, { force: true }) }
}

async function fixture(): Promise<FixtureRepo> {
  const repo = await buildFixtureRepo('retry-budget')
  cleanups.push(() => repo.cleanup())
  return repo
}

const setConfig = (dir: string, entries: Record<string, string>) => {
  for (const [key, value] of Object.entries(entries)) execFileSync('git', ['config', key, value], { cwd: dir })
}

/**
 * Plain git as the user would run it (no hardening), never prompting; its failures are expected. Async: the
 * fake servers it may talk to live in this process.
 */
const plainGit = (cwd: string, ...args: string[]) =>
  new Promise<void>((resolve) => execFile('git', args, { cwd, env: { ...process.env, GIT_TERMINAL_PROMPT: '0' }, timeout: 60_000 }, () => resolve()))

/** A repository whose config names a program for each way the commands used here could run one. */
async function tamperedRepo() {
  const repo = await fixture()
  const kit = markerKit()
  const hooks = join(kit.dir, 'hooks')
  for (const hook of ['post-checkout', 'reference-transaction', 'pre-auto-gc']) kit.script(hook, '', 'hooks')
  const included = join(kit.dir, 'included.gitconfig')
  writeFileSync(included, `[filter "included"]\n\tsmudge = ${kit.script('included-smudge', 'cat\n')}\n`)
  setConfig(repo.dir, {
    'core.fsmonitor': kit.script('fsmonitor'),
    'core.hooksPath': hooks,
    'filter.evil.smudge': kit.script('smudge', 'cat\n'),
    'filter.evil.clean': kit.script('clean', 'cat\n'),
    'filter.evil.required': 'true',
    'diff.external': kit.script('external-diff'),
    'diff.evil.textconv': kit.script('textconv', 'cat "$1"\n'),
    'include.path': included
  })
  // Attributes from .git/info/attributes apply to every checkout, whatever the tree's .gitattributes say.
  writeFileSync(join(repo.dir, '.git', 'info', 'attributes'), '* filter=evil diff=evil\n*.md filter=included\n')
  return { repo, ...kit }
}

test('plain git runs what a tampered config names: hooks, fsmonitor, filters, external diff, textconv', async () => {
  const { repo, markers } = await tamperedRepo()
  await plainGit(repo.dir, 'diff', `${repo.base}...${repo.head}`)
  await plainGit(repo.dir, 'diff', '--no-ext-diff', `${repo.base}...${repo.head}`)
  const worktree = join(tempDir('rtg-git-plain-'), 'tree')
  await plainGit(repo.dir, 'worktree', 'add', '--detach', worktree, repo.head)
  await plainGit(worktree, 'status')
  expect(markers()).toEqual(expect.arrayContaining(['clean', 'external-diff', 'fsmonitor', 'included-smudge', 'post-checkout', 'reference-transaction', 'smudge', 'textconv']))
})

test("the tool's git runs none of them, in any call it makes, and still reads and checks out the commits", async () => {
  const { repo, markers } = await tamperedRepo()
  const git = createGit(repo.dir)
  await git.verifyRepository()
  expect(await git.resolveCommit(repo.head)).toBe(repo.head)
  expect(await git.hasCommit(repo.base)).toBe(true)
  expect(await git.isShallow()).toBe(false)
  expect(await git.mergeBase(repo.base, repo.head)).toBe(repo.base)
  expect(await git.diff(repo.base, repo.head)).toContain('+++ b/src/streaming-transport.ts')
  expect(await git.fileAt(repo.head, 'README.md')).toBe(readFileSync(join(repo.dir, 'README.md'), 'utf8'))
  expect(await git.listFiles(repo.head)).toContain('src/retry-budget.ts')
  expect((await git.commitMessages(repo.base, repo.head))[0]).toContain('clone the retry budget')

  const worktree = join(tempDir('rtg-git-tool-'), 'tree')
  await git.addWorktree(worktree, repo.head)
  expect(readFileSync(join(worktree, 'src', 'retry-budget.ts'), 'utf8')).toBe(readFileSync(join(repo.dir, 'src', 'retry-budget.ts'), 'utf8'))
  expect(await git.inTree(worktree, ['status', '--porcelain'])).toBe('')
  await git.removeWorktree(worktree)
  expect(existsSync(worktree)).toBe(false)
  expect(markers()).toEqual([])
})

test("the user's own filter (global config, as git-lfs installs itself) still runs, and sees no secret of the tool's", async () => {
  const repo = await fixture()
  const kit = markerKit()
  const home = tempDir('rtg-git-home-')
  const envDump = join(kit.dir, 'env.txt')
  writeFileSync(join(home, '.gitconfig'), `[filter "user"]\n\tsmudge = ${kit.script('user-smudge', `env > '${envDump}'\ncat\n`)}\n\trequired = true\n`)
  writeFileSync(join(repo.dir, '.git', 'info', 'attributes'), 'README.md filter=user\n')
  const parentEnv = {
    ...process.env,
    HOME: home,
    XDG_CONFIG_HOME: join(home, '.config'),
    ANTHROPIC_API_KEY: 'sk-ant-parent-secret',
    GITHUB_TOKEN: 'ghs_parent_secret',
    'INPUT_ANTHROPIC-API-KEY': 'sk-ant-input-secret',
    ACTIONS_RUNTIME_TOKEN: 'actions-runtime-secret',
    NODE_OPTIONS: '--require /parent/preload.cjs',
    GIT_CONFIG_PARAMETERS: "'core.hookspath'='/parent/hooks'",
    GIT_SSH_COMMAND: '/parent/ssh'
  }

  await createGit(repo.dir, { parentEnv }).addWorktree(join(tempDir('rtg-git-user-'), 'tree'), repo.head)

  expect(kit.markers()).toEqual(['user-smudge'])
  const seen = readFileSync(envDump, 'utf8')
  expect(seen).toContain('GIT_TERMINAL_PROMPT=0')
  expect(seen).toContain(`HOME=${home}`)
  for (const leak of ['parent-secret', 'parent_secret', 'input-secret', 'actions-runtime-secret', '/parent/']) expect(seen).not.toContain(leak)
  expect(seen).not.toMatch(/^(INPUT_|ACTIONS_|NODE_OPTIONS=|GIT_SSH_COMMAND=)/m)
})

test('the environment is an allow-list: no keys, tokens, inputs, runtime variables, NODE_OPTIONS or GIT_* of the parent', () => {
  const env = gitEnvironment({
    PATH: '/bin',
    HOME: '/home/runner',
    LC_ALL: 'C.UTF-8',
    HTTPS_PROXY: 'http://proxy:3128',
    ANTHROPIC_API_KEY: 'sk',
    GITHUB_TOKEN: 'ghs',
    'INPUT_GITHUB-TOKEN': 'ghs',
    ACTIONS_ID_TOKEN_REQUEST_TOKEN: 'oidc',
    NODE_OPTIONS: '--inspect',
    GIT_DIR: '/elsewhere/.git',
    GIT_CONFIG_COUNT: '1',
    GIT_EXEC_PATH: '/evil'
  })
  expect(env).toEqual({ PATH: '/bin', HOME: '/home/runner', LC_ALL: 'C.UTF-8', HTTPS_PROXY: 'http://proxy:3128', GIT_TERMINAL_PROMPT: '0', GCM_INTERACTIVE: 'never' })
})

test('repository config on a program-running key falls back to the user\'s value, else to none', () => {
  const listed = [
    ['global', 'filter.lfs.process\ngit-lfs filter-process'],
    ['local', 'filter.lfs.process\n/evil/lfs'],
    ['local', 'filter.a=b.smudge\n/evil/smudge'],
    ['local', 'filter.a=b.required\ntrue'],
    ['global', 'credential.helper\nstore'],
    ['local', 'credential.helper\n!/evil/helper'],
    ['worktree', 'core.sshcommand\n/evil/ssh'],
    ['local', 'core.bare\nfalse'],
    ['global', 'core.askpass\n/usr/lib/ssh/askpass']
  ]
  const overrides = repositoryOverrides(parseConfigList(listed.map(([scope, entry]) => `${scope}\0${entry}\0`).join('')))
  expect(overrides).toEqual([
    ['filter.lfs.process', 'git-lfs filter-process'],
    ['filter.a=b.smudge', ''],
    ['credential.helper', ''],
    ['credential.helper', 'store'],
    ['core.sshcommand', 'ssh'],
    ['filter.a=b.required', 'false']
  ])
})

test('a ref that looks like an option is read as a ref, never as an option', async () => {
  const repo = await fixture()
  const origin = await fixture()
  execFileSync('git', ['remote', 'add', 'origin', `file://${origin.dir}`], { cwd: repo.dir })
  const marker = join(tempDir('rtg-git-option-'), 'ran')
  const ref = `--upload-pack=touch ${marker}`
  const git = createGit(repo.dir)

  await expect(git.resolveCommit(ref)).rejects.toThrow(`Commit "${ref}" is not in the repository`)
  expect(await git.hasCommit(ref)).toBe(false)
  await expect(git.mergeBase(ref, repo.head)).rejects.toThrow()
  await expect(git.diff(ref, repo.head)).rejects.toThrow()
  await expect(git.listFiles(ref)).rejects.toThrow()
  await expect(git.commitMessages(ref, repo.head)).rejects.toThrow()
  expect(await git.fileAt(ref, 'README.md')).toBeNull()
  await expect(git.fetchCommits([ref])).rejects.toThrow()
  expect(existsSync(marker)).toBe(false)

  await plainGit(repo.dir, 'fetch', 'origin', ref)
  expect(existsSync(marker)).toBe(true)
})

test('fetch refuses refspecs, which would write refs', async () => {
  const repo = await fixture()
  await expect(createGit(repo.dir).fetchCommits([`${repo.base}:refs/heads/main`])).rejects.toThrow(`Refusing to fetch "${repo.base}:refs/heads/main"`)
})

test("fetch deepens a shallow clone without the repository's upload-pack command or hooks", async () => {
  const origin = await fixture()
  const clone = join(tempDir('rtg-git-shallow-'), 'clone')
  execFileSync('git', ['clone', '--quiet', '--depth', '1', `file://${origin.dir}`, clone])
  const kit = markerKit()
  setConfig(clone, {
    'remote.origin.uploadpack': kit.script('upload-pack', 'exec git-upload-pack "$@"\n'),
    'core.hooksPath': join(kit.dir, 'hooks')
  })
  kit.script('reference-transaction', '', 'hooks')
  const git = createGit(clone)

  await git.fetchCommits([origin.base, origin.head])
  expect(await git.isShallow()).toBe(false)
  expect(await git.hasCommit(origin.base)).toBe(true)
  expect(kit.markers()).toEqual([])

  await plainGit(clone, 'fetch', 'origin')
  expect(kit.markers()).toContain('upload-pack')
})

test("a partial clone's lazy fetch, which reading a missing blob starts, never runs the repository's upload-pack command", async () => {
  const origin = await fixture()
  execFileSync('git', ['config', 'uploadpack.allowFilter', 'true'], { cwd: origin.dir })
  const clone = join(tempDir('rtg-git-partial-'), 'clone')
  execFileSync('git', ['clone', '--quiet', '--filter=blob:none', '--no-checkout', `file://${origin.dir}`, clone])
  const kit = markerKit()
  setConfig(clone, { 'remote.origin.uploadpack': kit.script('upload-pack', 'exec git-upload-pack "$@"\n') })

  expect(await createGit(clone).fileAt(origin.head, 'README.md')).toBeNull()
  expect(kit.markers()).toEqual([])

  await plainGit(clone, 'cat-file', 'blob', `${origin.head}:README.md`)
  expect(kit.markers()).toEqual(['upload-pack'])
})

test("fetch never runs the repository's credential helper or askpass when the server asks for a password", async () => {
  const server = await listen(createHttpServer((_, res) => res.writeHead(401, { 'WWW-Authenticate': 'Basic realm="git"' }).end()))
  const { repo, kit } = await repoWithOrigin(`http://127.0.0.1:${port(server)}/acme/transport.git`)
  setConfig(repo.dir, { 'credential.helper': kit.script('credential-helper'), 'core.askPass': kit.script('askpass') })

  await expect(createGit(repo.dir).fetchCommits([MISSING_COMMIT])).rejects.toThrow(/git fetch .* failed/)
  expect(kit.markers()).toEqual([])

  await plainGit(repo.dir, 'fetch', 'origin')
  expect(kit.markers()).toEqual(['askpass', 'credential-helper'])
})

test("fetch never runs the repository's ssh command, nor an ext:: transport it allows", async () => {
  for (const [url, config] of [
    ['ssh://git@127.0.0.1:1/acme/transport.git', (kit: Kit) => ({ 'core.sshCommand': kit.script('ssh-command') })],
    ['ext::ext-transport', (kit: Kit) => ({ 'protocol.ext.allow': 'always', 'remote.origin.url': `ext::${kit.script('ext-transport')}` })]
  ] as const) {
    const { repo, kit } = await repoWithOrigin(url)
    setConfig(repo.dir, config(kit))

    await expect(createGit(repo.dir).fetchCommits([MISSING_COMMIT])).rejects.toThrow()
    expect(kit.markers()).toEqual([])

    await plainGit(repo.dir, 'fetch', 'origin')
    expect(kit.markers()).toHaveLength(1)
  }
})

test('a git call that outlives its timeout is killed with what it started', async () => {
  const connections: Socket[] = []
  // Reads (so it sees the client go) and never answers.
  const server = await listen(createTcpServer((socket) => connections.push(socket.resume())))
  const { repo } = await repoWithOrigin(`http://127.0.0.1:${port(server)}/acme/transport.git`)
  const started = Date.now()

  await expect(createGit(repo.dir, { timeouts: { slow: 1000 } }).fetchCommits([MISSING_COMMIT])).rejects.toThrow('timed out after 1 s')
  expect(Date.now() - started).toBeLessThan(10_000)
  // The connection was git-remote-http's, a grandchild: it closes only if the whole group was killed.
  expect(connections.length).toBeGreaterThan(0)
  await Promise.all(connections.map((socket) => (socket.closed ? undefined : new Promise((resolve) => socket.once('close', resolve)))))
})

type Kit = ReturnType<typeof markerKit>

// A commit the repository lacks: git fetch contacts the remote only for what it does not have.
const MISSING_COMMIT = '0123456789abcdef0123456789abcdef01234567'

async function repoWithOrigin(url: string): Promise<{ repo: FixtureRepo; kit: Kit }> {
  const repo = await fixture()
  execFileSync('git', ['remote', 'add', 'origin', url], { cwd: repo.dir })
  return { repo, kit: markerKit() }
}

async function listen<T extends Server | ReturnType<typeof createHttpServer>>(server: T): Promise<T> {
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  cleanups.push(() => new Promise((resolve) => ('closeAllConnections' in server && server.closeAllConnections(), server.close(resolve))))
  return server
}

const port = (server: Server | ReturnType<typeof createHttpServer>) => (server.address() as AddressInfo).port
