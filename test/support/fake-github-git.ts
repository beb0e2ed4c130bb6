/**
 * The fake GitHub's repositories: the git data API (blobs, trees, commits, refs with fast-forward and force
 * semantics), branches with their protection, and pull requests listed, created and updated — answering
 * with the status codes, messages and fields GitHub does (and the real Octokit reads). Trees are held flat
 * (every file's path → its blob); a blob's SHA is git's own, so a test can compare it with `git hash-object`.
 */
import { createHash } from 'node:crypto'
import { execFile } from 'node:child_process'
import { promisify } from 'node:util'

export interface FakeCommitSeed {
  parents?: string[]
  message?: string
  /** The commit's files by path: their content. */
  files?: Record<string, string>
  /** Or their blob SHAs only (a commit read from a real repository, `commitSeedOf`). */
  blobs?: Record<string, string>
}

export interface FakeRepository {
  /** Branch name → the commit it points at. */
  branches: Record<string, string>
  /** Commits by SHA (the real repository's, for the SHAs the run knows). */
  commits: Record<string, FakeCommitSeed>
  /** Branch protection: `GET /branches/:b` says protected, and a ref update is refused (422). */
  protectedBranches?: string[]
  /** A ruleset's target: the branch does not say protected, yet a ref update is refused (422). */
  rulesetBranches?: string[]
  /** false: the repository's setting "Allow GitHub Actions to create and approve pull requests" is off (GITHUB_TOKEN's POST /pulls → 403). */
  actionsMayCreatePullRequests?: boolean
}

/** What the token may do (a job's `permissions:`); GitHub answers 403 to a write it lacks. Default: write. */
export interface FakeTokenPermissions {
  contents?: 'read' | 'write'
  pullRequests?: 'read' | 'write'
  /** `none`: a private repository's issues are refused (403, GraphQL FORBIDDEN). */
  issues?: 'none' | 'read'
}

export interface FakePullRequest {
  number: number
  title: string
  body: string
  state: 'open' | 'closed'
  merged: boolean
  head: { ref: string; sha: string; repo: string | null }
  base: { ref: string; sha: string; repo: string }
}

export interface FakeCommit {
  sha: string
  tree: string
  parents: string[]
  message: string
}

type Send = (status: number, payload: unknown) => void

export interface GitRequest {
  method: string
  /** The path after `/repos/:owner/:repo`, decoded. */
  rest: string
  query: URLSearchParams
  body: Record<string, unknown> | undefined
}

const WEB = 'https://github.com'
const NOT_FOUND = { message: 'Not Found', documentation_url: 'https://docs.github.com/rest' }
const FORBIDDEN = { message: 'Resource not accessible by integration', documentation_url: 'https://docs.github.com/rest', status: '403' }

export function gitBlobSha(content: Buffer): string {
  return createHash('sha1').update(`blob ${content.length}\0`).update(content).digest('hex')
}

/** One repository of the fake: its objects, refs and pull requests. */
export class FakeGitRepository {
  readonly blobs = new Map<string, Buffer>()
  /** Tree SHA → path → blob SHA. */
  readonly trees = new Map<string, Map<string, string>>()
  readonly commits = new Map<string, FakeCommit>()
  readonly refs = new Map<string, string>()
  readonly pulls: FakePullRequest[] = []

  constructor(
    readonly name: string,
    private readonly seed: FakeRepository,
    private readonly permissions: FakeTokenPermissions
  ) {
    for (const [sha, commit] of Object.entries(seed.commits)) {
      const entries = new Map(Object.entries(commit.blobs ?? {}))
      for (const [path, content] of Object.entries(commit.files ?? {})) entries.set(path, this.storeBlob(Buffer.from(content)))
      this.commits.set(sha, { sha, tree: this.storeTree(entries), parents: commit.parents ?? [], message: commit.message ?? `commit ${sha.slice(0, 7)}` })
    }
    for (const [branch, sha] of Object.entries(seed.branches)) this.refs.set(`refs/heads/${branch}`, sha)
  }

  /** Each file's content at a commit (null: a blob the fake was given by SHA only). */
  filesAt(sha: string): Record<string, string | null> {
    const tree = this.trees.get(this.commits.get(sha)!.tree)!
    return Object.fromEntries([...tree].map(([path, blob]) => [path, this.blobs.get(blob)?.toString('utf8') ?? null]))
  }

  /** Whether `ancestor` is `sha` or reachable from it through parents. */
  descends(sha: string, ancestor: string): boolean {
    if (sha === ancestor) return true
    return (this.commits.get(sha)?.parents ?? []).some((parent) => this.descends(parent, ancestor))
  }

  handle(request: GitRequest, send: Send): boolean {
    const { method, rest } = request
    const writes = method !== 'GET'
    const route = (pattern: RegExp) => pattern.exec(rest)
    let match: RegExpExecArray | null
    if ((match = route(/^\/git\/(blobs|trees|commits|refs)$/)) && method === 'POST') return this.denied('contents', send) || (this.create(match[1], request.body!, send), true)
    if ((match = route(/^\/git\/commits\/([0-9a-f]{40})$/)) && method === 'GET') return this.commits.has(match[1]) ? (send(200, this.commitJson(match[1])), true) : (send(404, NOT_FOUND), true)
    if ((match = route(/^\/git\/ref\/(heads\/.+)$/)) && method === 'GET') return this.sendRef(`refs/${match[1]}`, send), true
    if ((match = route(/^\/git\/refs\/(heads\/.+)$/)) && method === 'PATCH') return this.denied('contents', send) || (this.updateRef(`refs/${match[1]}`, request.body!, send), true)
    if ((match = route(/^\/branches\/(.+)$/)) && method === 'GET') return this.sendBranch(match[1], send), true
    if (rest === '/pulls' && method === 'GET') return send(200, this.listPulls(request.query)), true
    if (rest === '/pulls' && method === 'POST') return this.denied('pullRequests', send) || (this.createPull(request.body!, send), true)
    if ((match = route(/^\/pulls\/(\d+)$/)) && writes) return this.denied('pullRequests', send) || (this.updatePull(Number(match[1]), request.body!, send), true)
    if ((match = route(/^\/pulls\/(\d+)$/)) && method === 'GET') {
      const pull = this.pulls.find((candidate) => candidate.number === Number(match![1]))
      return pull ? (send(200, this.pullJson(pull)), true) : false
    }
    return false
  }

  private denied(permission: keyof FakeTokenPermissions, send: Send): boolean {
    if ((this.permissions[permission] ?? 'write') === 'write') return false
    send(403, FORBIDDEN)
    return true
  }

  private create(kind: string, body: Record<string, unknown>, send: Send): void {
    if (kind === 'blobs') {
      const content = Buffer.from(String(body.content), body.encoding === 'base64' ? 'base64' : 'utf8')
      const sha = this.storeBlob(content)
      return send(201, { sha, url: this.api(`git/blobs/${sha}`) })
    }
    if (kind === 'trees') return this.createTree(body, send)
    if (kind === 'commits') return this.createCommit(body, send)
    this.createRef(body, send)
  }

  private createTree(body: Record<string, unknown>, send: Send): void {
    const base = body.base_tree === undefined ? new Map<string, string>() : this.trees.get(String(body.base_tree))
    if (!base) return send(422, { message: 'base_tree is not a valid tree oid' })
    const entries = new Map(base)
    for (const entry of body.tree as Array<{ path: string; mode: string; type: string; sha: string | null }>) {
      if (entry.type !== 'blob' || entry.mode !== '100644') return send(422, { message: `the fake models regular files only, not ${entry.mode} ${entry.type}` })
      if (entry.sha === null) entries.delete(entry.path)
      else if (!this.blobs.has(entry.sha)) return send(422, { message: 'GitRPC::BadObjectState' })
      else entries.set(entry.path, entry.sha)
    }
    const sha = this.storeTree(entries)
    send(201, { sha, url: this.api(`git/trees/${sha}`), truncated: false, tree: [...entries].map(([path, blob]) => ({ path, mode: '100644', type: 'blob', sha: blob })) })
  }

  private createCommit(body: Record<string, unknown>, send: Send): void {
    const tree = String(body.tree)
    const parents = (body.parents as string[] | undefined) ?? []
    if (!this.trees.has(tree) || parents.some((parent) => !this.commits.has(parent))) return send(422, { message: 'Tree SHA does not exist' })
    const message = String(body.message)
    const sha = createHash('sha1').update(JSON.stringify({ tree, parents, message, n: this.commits.size })).digest('hex')
    this.commits.set(sha, { sha, tree, parents, message })
    send(201, this.commitJson(sha))
  }

  private createRef(body: Record<string, unknown>, send: Send): void {
    const ref = String(body.ref)
    if (!/^refs\/[^/]+\/.+/.test(ref)) return send(422, { message: 'Reference name is invalid' })
    if (this.refs.has(ref)) return send(422, { message: 'Reference already exists' })
    if (!this.commits.has(String(body.sha))) return send(422, { message: 'Object does not exist' })
    this.refs.set(ref, String(body.sha))
    send(201, this.refJson(ref))
  }

  private updateRef(ref: string, body: Record<string, unknown>, send: Send): void {
    const current = this.refs.get(ref)
    const sha = String(body.sha)
    const branch = ref.replace(/^refs\/heads\//, '')
    if (current === undefined) return send(422, { message: 'Reference does not exist' })
    if (!this.commits.has(sha)) return send(422, { message: 'Object does not exist' })
    if (this.seed.protectedBranches?.includes(branch)) return send(422, { message: `Protected branch update failed for ${ref}.` })
    if (this.seed.rulesetBranches?.includes(branch)) return send(422, { message: 'Repository rule violations found\n\nChanges must be made through a pull request.\n\n' })
    if (body.force !== true && !this.descends(sha, current)) return send(422, { message: 'Update is not a fast forward' })
    this.refs.set(ref, sha)
    send(200, this.refJson(ref))
  }

  private sendRef(ref: string, send: Send): void {
    if (!this.refs.has(ref)) return send(404, NOT_FOUND)
    send(200, this.refJson(ref))
  }

  private sendBranch(branch: string, send: Send): void {
    const sha = this.refs.get(`refs/heads/${branch}`)
    if (!sha) return send(404, { message: 'Branch not found' })
    send(200, { name: branch, commit: { sha, url: this.api(`commits/${sha}`) }, protected: this.seed.protectedBranches?.includes(branch) ?? false })
  }

  private listPulls(query: URLSearchParams): unknown[] {
    const state = query.get('state') ?? 'open'
    const head = query.get('head')
    const base = query.get('base')
    return this.pulls
      .filter((pull) => state === 'all' || pull.state === state)
      .filter((pull) => !head || `${pull.head.repo?.split('/')[0]}:${pull.head.ref}` === head)
      .filter((pull) => !base || pull.base.ref === base)
      .map((pull) => this.pullJson(pull))
  }

  private createPull(body: Record<string, unknown>, send: Send): void {
    if (tooLong(body, send)) return
    if (this.seed.actionsMayCreatePullRequests === false) return send(403, { message: 'GitHub Actions is not permitted to create or approve pull requests.', documentation_url: 'https://docs.github.com/rest/pulls/pulls#create-a-pull-request', status: '403' })
    const head = String(body.head)
    const base = String(body.base)
    const headSha = this.refs.get(`refs/heads/${head}`)
    const baseSha = this.refs.get(`refs/heads/${base}`)
    if (!headSha || !baseSha) return send(422, { message: 'Validation Failed', errors: [{ resource: 'PullRequest', field: headSha ? 'base' : 'head', code: 'invalid' }] })
    if (this.pulls.some((pull) => pull.state === 'open' && pull.head.ref === head && pull.base.ref === base)) {
      return send(422, { message: 'Validation Failed', errors: [{ resource: 'PullRequest', code: 'custom', message: `A pull request already exists for ${this.name.split('/')[0]}:${head}.` }] })
    }
    const number = Math.max(0, ...this.pulls.map((pull) => pull.number)) + 1
    const pull: FakePullRequest = { number, title: String(body.title), body: String(body.body ?? ''), state: 'open', merged: false, head: { ref: head, sha: headSha, repo: this.name }, base: { ref: base, sha: baseSha, repo: this.name } }
    this.pulls.push(pull)
    send(201, this.pullJson(pull))
  }

  private updatePull(number: number, body: Record<string, unknown>, send: Send): void {
    const pull = this.pulls.find((candidate) => candidate.number === number)
    if (!pull) return send(404, NOT_FOUND)
    if (tooLong(body, send)) return
    if (typeof body.title === 'string') pull.title = body.title
    if (typeof body.body === 'string') pull.body = body.body
    if (typeof body.state === 'string') pull.state = body.state as FakePullRequest['state']
    if (typeof body.base === 'string') {
      const baseSha = this.refs.get(`refs/heads/${body.base}`)
      if (!baseSha) return send(422, { message: 'Validation Failed', errors: [{ resource: 'PullRequest', field: 'base', code: 'invalid' }] })
      pull.base = { ...pull.base, ref: body.base, sha: baseSha }
    }
    send(200, this.pullJson(pull))
  }

  pullJson(pull: FakePullRequest) {
    const side = (ref: string, sha: string, repo: string | null) => ({ ref, sha, label: `${repo?.split('/')[0] ?? 'unknown'}:${ref}`, repo: repo === null ? null : { full_name: repo } })
    return {
      number: pull.number,
      html_url: `${WEB}/${this.name}/pull/${pull.number}`,
      title: pull.title,
      body: pull.body,
      state: pull.state,
      merged: pull.merged,
      // A pull request's head follows its branch (when the branch is in this repository).
      head: side(pull.head.ref, (pull.head.repo === this.name && this.refs.get(`refs/heads/${pull.head.ref}`)) || pull.head.sha, pull.head.repo),
      base: side(pull.base.ref, pull.base.sha, pull.base.repo)
    }
  }

  private commitJson(sha: string) {
    const commit = this.commits.get(sha)!
    return {
      sha,
      url: this.api(`git/commits/${sha}`),
      html_url: `${WEB}/${this.name}/commit/${sha}`,
      message: commit.message,
      tree: { sha: commit.tree, url: this.api(`git/trees/${commit.tree}`) },
      parents: commit.parents.map((parent) => ({ sha: parent, url: this.api(`git/commits/${parent}`), html_url: `${WEB}/${this.name}/commit/${parent}` }))
    }
  }

  private refJson(ref: string) {
    const sha = this.refs.get(ref)!
    return { ref, url: this.api(`git/${ref}`), object: { sha, type: 'commit', url: this.api(`git/commits/${sha}`) } }
  }

  private storeBlob(content: Buffer): string {
    const sha = gitBlobSha(content)
    this.blobs.set(sha, content)
    return sha
  }

  private storeTree(entries: Map<string, string>): string {
    const sorted = new Map([...entries].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)))
    const sha = createHash('sha1').update(`tree ${JSON.stringify([...sorted])}`).digest('hex')
    this.trees.set(sha, sorted)
    return sha
  }

  private api(path: string): string {
    return `https://api.github.com/repos/${this.name}/${path}`
  }
}

/** GitHub's limit on a pull request's body. */
function tooLong(body: Record<string, unknown>, send: Send): boolean {
  if (typeof body.body !== 'string' || body.body.length <= 65_536) return false
  send(422, { message: 'Validation Failed', errors: [{ resource: 'PullRequest', code: 'custom', field: 'body', message: 'body is too long (maximum is 65536 characters)' }] })
  return true
}

/** A commit of a real repository as the fake holds it: its parents, message and files' blob SHAs. */
export async function commitSeedOf(dir: string, sha: string): Promise<FakeCommitSeed> {
  const git = async (...args: string[]) => (await promisify(execFile)('git', args, { cwd: dir, maxBuffer: 64 * 1024 * 1024 })).stdout
  const [parents, ...message] = (await git('log', '-1', '--format=%P%n%B', sha)).split('\n')
  const blobs: Record<string, string> = {}
  for (const line of (await git('ls-tree', '-r', '-z', sha)).split('\0').filter(Boolean)) {
    const [meta, path] = line.split('\t')
    blobs[path] = meta.split(' ')[2]
  }
  return { parents: parents.split(' ').filter(Boolean), message: message.join('\n').trim(), blobs }
}
