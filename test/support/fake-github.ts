/**
 * A fake GitHub REST and GraphQL API on 127.0.0.1 for the real Octokit: issues and their comments (listed,
 * created, edited), pull requests, closing references; and each repository's git data, branches and pull
 * requests (fake-github-git.ts).
 */
import { createServer } from 'node:http'
import type { AddressInfo } from 'node:net'
import { FakeGitRepository, type FakeRepository, type FakeTokenPermissions } from './fake-github-git.js'
import { readBody } from './http.js'

export type { FakeRepository, FakeTokenPermissions } from './fake-github-git.js'

export interface FakeIssue {
  title: string
  body: string
  /** Comments by octocat, or by the login given (a person's unless `type` says `Bot`). */
  comments?: Array<string | { body: string; login: string; type?: 'User' | 'Bot' }>
  pullRequest?: boolean
}

export interface FakeGitHubData {
  /** The pull request's closingIssuesReferences, as `owner/repo#number`. */
  closing?: string[]
  /** Issues by `owner/repo#number`. */
  issues: Record<string, FakeIssue>
  /** Pull requests by `owner/repo#number`. */
  pulls?: Record<string, FakePull>
  /** The token is this user's personal token: `GET /user` names them and they write the comments. Without it the
   * token is an app's (GITHUB_TOKEN): `GET /user` is refused and github-actions[bot] writes. */
  tokenUser?: string
  /** Repositories by `owner/repo`: branches, commits, protection (the git data API and pulls). */
  repos?: Record<string, FakeRepository>
  /** What the token may write (a job's `permissions:`); default: everything. */
  permissions?: FakeTokenPermissions
}

export interface FakePull {
  title: string
  body: string
  baseSha: string
  headSha: string
  /** The head's repository as `owner/repo`: by default the base repository; a fork's name; null for a deleted fork. */
  headRepo?: string | null
  /** The branches (default `fix` into `main`). */
  headRef?: string
  baseRef?: string
  merged?: boolean
}

export interface FakeComment {
  id: number
  issue: string
  body: string
  user: { login: string; type: 'User' | 'Bot' }
}

export interface FakeGitHub {
  url: string
  requests: Array<{ method: string; path: string; authorization: string | undefined; body: unknown }>
  /** Every comment, seeded and written, by id order. */
  comments: FakeComment[]
  /** A repository's state (created on first use): its refs, commits, trees and pull requests. */
  repository(name: string): FakeGitRepository
  /** Runs `action` once, just before the first request whose method and path match, is answered (e.g. a branch moves). */
  before(method: string, path: RegExp, action: () => void): void
  close(): Promise<void>
}

const BOT = { login: 'github-actions[bot]', type: 'Bot' as const }

export async function startFakeGitHub(data: FakeGitHubData): Promise<FakeGitHub> {
  const requests: FakeGitHub['requests'] = []
  const comments: FakeComment[] = Object.entries(data.issues).flatMap(([issue, { comments = [] }]) =>
    comments.map((comment) => {
      const { body, login, type = 'User' } = typeof comment === 'string' ? { body: comment, login: 'octocat' } : comment
      return { id: 0, issue, body, user: { login, type } }
    })
  )
  const author = data.tokenUser ? { login: data.tokenUser, type: 'User' as const } : BOT
  comments.forEach((comment, index) => (comment.id = index + 1))
  const repositories = new Map<string, FakeGitRepository>()
  const repository = (name: string) => {
    if (!repositories.has(name)) repositories.set(name, new FakeGitRepository(name, data.repos?.[name] ?? { branches: {}, commits: {} }, data.permissions ?? {}))
    return repositories.get(name)!
  }
  for (const name of Object.keys(data.repos ?? {})) repository(name)
  for (const [key, pull] of Object.entries(data.pulls ?? {})) seedPull(repository(key.split('#')[0]), Number(key.split('#')[1]), pull)
  const hooks: Array<{ method: string; path: RegExp; action: () => void }> = []
  const server = createServer(async (req, res) => {
    const body = req.method === 'POST' || req.method === 'PATCH' ? JSON.parse(await readBody(req)) : undefined
    const url = new URL(req.url ?? '/', 'http://fake')
    const path = url.pathname
    requests.push({ method: req.method ?? '', path, authorization: req.headers.authorization, body })
    const hook = hooks.findIndex((candidate) => candidate.method === req.method && candidate.path.test(decodeURIComponent(path)))
    if (hook >= 0) hooks.splice(hook, 1)[0].action()
    const send = (status: number, payload: unknown) => {
      res.writeHead(status, { 'content-type': 'application/json' })
      res.end(JSON.stringify(payload))
    }
    const issuesRefused = data.permissions?.issues === 'none'
    if (req.method === 'POST' && path === '/graphql') {
      // GitHub answers 200 with the nodes it may not show as null, and says why in `errors`.
      if (issuesRefused && data.closing?.length) return send(200, { data: { repository: { pullRequest: { closingIssuesReferences: { nodes: data.closing.map(() => null) } } } }, errors: [{ type: 'FORBIDDEN', path: ['repository', 'pullRequest', 'closingIssuesReferences', 'nodes', 0], message: 'Resource not accessible by integration' }] })
      return send(200, { data: closingIssues(data.closing ?? []) })
    }
    if (issuesRefused && /^\/repos\/[^/]+\/[^/]+\/issues\/\d+/.test(path) && req.method === 'GET') return send(403, { message: 'Resource not accessible by integration' })
    if (path === '/user') return data.tokenUser ? send(200, author) : send(403, { message: 'Resource not accessible by integration' })
    const inRepository = /^\/repos\/([^/]+)\/([^/]+)(\/(?:git|branches|pulls)(?:\/.*)?)$/.exec(path)
    if (inRepository) {
      const request = { method: req.method ?? '', rest: decodeURIComponent(inRepository[3]), query: url.searchParams, body }
      if (repository(`${inRepository[1]}/${inRepository[2]}`).handle(request, send)) return
      return send(404, { message: 'Not Found' })
    }
    const edit = /^\/repos\/[^/]+\/[^/]+\/issues\/comments\/(\d+)$/.exec(path)
    if (edit && req.method === 'PATCH') {
      const comment = comments.find((candidate) => candidate.id === Number(edit[1]))
      if (!comment) return send(404, { message: 'Not Found' })
      comment.body = (body as { body: string }).body
      return send(200, comment)
    }
    const match = /^\/repos\/([^/]+)\/([^/]+)\/issues\/(\d+)(\/comments)?$/.exec(path)
    const ref = match && `${match[1]}/${match[2]}#${match[3]}`
    const issue = ref && data.issues[ref]
    if (!match || !issue) return send(404, { message: 'Not Found' })
    if (match[4] && req.method === 'POST') {
      const comment = { id: comments.length + 1, issue: ref, body: (body as { body: string }).body, user: author }
      comments.push(comment)
      return send(201, comment)
    }
    if (match[4]) return send(200, comments.filter((comment) => comment.issue === ref))
    send(200, { number: Number(match[3]), title: issue.title, body: issue.body, ...(issue.pullRequest && { pull_request: { url: 'x' } }) })
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    requests,
    comments,
    repository,
    before: (method, path, action) => void hooks.push({ method, path, action }),
    close: () => new Promise((resolve) => (server.closeAllConnections(), server.close(() => resolve())))
  }
}

function seedPull(repository: FakeGitRepository, number: number, pull: FakePull): void {
  const headRepo = pull.headRepo === undefined ? repository.name : pull.headRepo
  repository.pulls.push({
    number,
    title: pull.title,
    body: pull.body,
    state: pull.merged ? 'closed' : 'open',
    merged: pull.merged ?? false,
    head: { ref: pull.headRef ?? 'fix', sha: pull.headSha, repo: headRepo },
    base: { ref: pull.baseRef ?? 'main', sha: pull.baseSha, repo: repository.name }
  })
}

function closingIssues(references: string[]) {
  const nodes = references.map((reference) => {
    const [, owner, name, number] = /^([^/]+)\/([^#]+)#(\d+)$/.exec(reference)!
    return { number: Number(number), repository: { name, owner: { login: owner } } }
  })
  return { repository: { pullRequest: { closingIssuesReferences: { nodes } } } }
}
