/**
 * The bug report behind a pull request: the issues it closes (GraphQL closingIssuesReferences, then the
 * references in its body), each with its title, body and first comments. A failed lookup only warns:
 * the pull request's own text is still there.
 */
import * as github from '@actions/github'
import type { LinkedIssue } from '../settings.js'
import { referencedIssues, type IssueReference } from '../bug-report/issue-references.js'

type Octokit = ReturnType<typeof github.getOctokit>

const MAX_ISSUES = 5
const MAX_COMMENTS = 3

const CLOSING_ISSUES = `query($owner: String!, $repo: String!, $number: Int!) {
  repository(owner: $owner, name: $repo) {
    pullRequest(number: $number) {
      closingIssuesReferences(first: 10) { nodes { number repository { name owner { login } } } }
    }
  }
}`

interface ClosingIssues {
  repository: { pullRequest: { closingIssuesReferences: { nodes: Array<{ number: number; repository: { name: string; owner: { login: string } } }> } } | null }
}

export async function fetchLinkedIssues(
  octokit: Octokit,
  pullRequest: { number: number; body: string },
  repository: { owner: string; repo: string },
  warn: (message: string) => void
): Promise<LinkedIssue[]> {
  const references = unique([...(await closingReferences(octokit, pullRequest.number, repository, warn)), ...referencedIssues(pullRequest.body, repository)])
  const issues: LinkedIssue[] = []
  for (const reference of references.slice(0, MAX_ISSUES)) {
    try {
      const issue = await fetchIssue(octokit, reference)
      if (issue) issues.push(issue)
    } catch (error) {
      warn(`Could not read issue ${name(reference)}: ${(error as Error).message}${permissionHint(error, 'issues: read')}`)
    }
  }
  return issues
}

async function closingReferences(octokit: Octokit, number: number, repository: { owner: string; repo: string }, warn: (message: string) => void): Promise<IssueReference[]> {
  try {
    const result = await octokit.graphql<ClosingIssues>(CLOSING_ISSUES, { ...repository, number })
    return (result.repository.pullRequest?.closingIssuesReferences.nodes ?? []).map((node) => ({ owner: node.repository.owner.login, repo: node.repository.name, number: node.number }))
  } catch (error) {
    warn(`Could not read the issues this pull request closes: ${(error as Error).message}${permissionHint(error, 'pull-requests: read` and `issues: read')}`)
    return []
  }
}

async function fetchIssue(octokit: Octokit, reference: IssueReference): Promise<LinkedIssue | null> {
  const target = { owner: reference.owner, repo: reference.repo, issue_number: reference.number }
  const { data: issue } = await octokit.rest.issues.get(target)
  // `#12` may name a pull request: not a bug report.
  if (issue.pull_request) return null
  const { data: comments } = await octokit.rest.issues.listComments({ ...target, per_page: MAX_COMMENTS })
  return { reference: name(reference), title: issue.title, body: issue.body ?? '', comments: comments.map((comment) => comment.body ?? '') }
}

/** A refusal (REST 403/404, GraphQL FORBIDDEN) names the permission a private repository's issues need. */
function permissionHint(error: unknown, permission: string): string {
  const { status, errors } = error as { status?: number; errors?: Array<{ type?: string }> }
  const refused = status === 403 || status === 404 || errors?.some((entry) => entry.type === 'FORBIDDEN' || entry.type === 'NOT_FOUND')
  return refused ? ` (on a private repository the job needs \`permissions: ${permission}\`)` : ''
}

const name = (reference: IssueReference) => `${reference.owner}/${reference.repo}#${reference.number}`

function unique(references: IssueReference[]): IssueReference[] {
  const seen = new Set<string>()
  return references.filter((reference) => {
    const key = name(reference).toLowerCase()
    return !seen.has(key) && seen.add(key)
  })
}
