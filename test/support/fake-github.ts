/** A fake GitHub REST and GraphQL API on 127.0.0.1 for the real Octokit: issues, comments, closing references. */
import { createServer } from 'node:http'
import type { AddressInfo } from 'node:net'
import { readBody } from './http.js'

export interface FakeIssue {
  title: string
  body: string
  comments?: string[]
  pullRequest?: boolean
}

export interface FakeGitHubData {
  /** The pull request's closingIssuesReferences, as `owner/repo#number`. */
  closing?: string[]
  /** Issues by `owner/repo#number`. */
  issues: Record<string, FakeIssue>
  /** Pull requests by `owner/repo#number`. */
  pulls?: Record<string, { title: string; body: string; baseSha: string; headSha: string }>
}

export interface FakeGitHub {
  url: string
  requests: Array<{ method: string; path: string; authorization: string | undefined; body: unknown }>
  close(): Promise<void>
}

export async function startFakeGitHub(data: FakeGitHubData): Promise<FakeGitHub> {
  const requests: FakeGitHub['requests'] = []
  const server = createServer(async (req, res) => {
    const body = req.method === 'POST' ? JSON.parse(await readBody(req)) : undefined
    const path = (req.url ?? '').split('?')[0]
    requests.push({ method: req.method ?? '', path, authorization: req.headers.authorization, body })
    const send = (status: number, payload: unknown) => {
      res.writeHead(status, { 'content-type': 'application/json' })
      res.end(JSON.stringify(payload))
    }
    if (req.method === 'POST' && path === '/graphql') return send(200, { data: closingIssues(data.closing ?? []) })
    const pull = /^\/repos\/([^/]+)\/([^/]+)\/pulls\/(\d+)$/.exec(path)
    if (pull) {
      const found = data.pulls?.[`${pull[1]}/${pull[2]}#${pull[3]}`]
      if (!found) return send(404, { message: 'Not Found' })
      return send(200, { number: Number(pull[3]), title: found.title, body: found.body, base: { sha: found.baseSha }, head: { sha: found.headSha } })
    }
    const match = /^\/repos\/([^/]+)\/([^/]+)\/issues\/(\d+)(\/comments)?$/.exec(path)
    const issue = match && data.issues[`${match[1]}/${match[2]}#${match[3]}`]
    if (!match || !issue) return send(404, { message: 'Not Found' })
    if (match[4]) return send(200, (issue.comments ?? []).map((comment, index) => ({ id: index + 1, body: comment })))
    send(200, { number: Number(match[3]), title: issue.title, body: issue.body, ...(issue.pullRequest && { pull_request: { url: 'x' } }) })
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    requests,
    close: () => new Promise((resolve) => (server.closeAllConnections(), server.close(() => resolve())))
  }
}

function closingIssues(references: string[]) {
  const nodes = references.map((reference) => {
    const [, owner, name, number] = /^([^/]+)\/([^#]+)#(\d+)$/.exec(reference)!
    return { number: Number(number), repository: { name, owner: { login: owner } } }
  })
  return { repository: { pullRequest: { closingIssuesReferences: { nodes } } } }
}
