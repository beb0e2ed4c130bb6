/**
 * The optional sticky pull request comment: one comment, found by a hidden marker and edited in place on
 * every re-run, so the thread holds the latest verdict once. Failure (e.g. no pull-requests: write) only warns.
 */
import type * as github from '@actions/github'
import type { Logger } from '../ports/logger.js'
import { boundedMarkdown, type SizeLimit } from '../report/bounded.js'

type Octokit = ReturnType<typeof github.getOctokit>

export const COMMENT_MARKER = '<!-- regression-testgen:sticky-comment -->'
/** GitHub refuses comment bodies over 65,536 characters (a string's length counts at least as many). */
const COMMENT_LIMIT: SizeLimit = { size: (text) => text.length, max: 65_000, name: "65,536 characters, GitHub's limit for a comment" }

export interface CommentTarget {
  owner: string
  repo: string
  number: number
}

/** `create: false`: only an existing comment is updated (a run with nothing to prove starts no thread entry). */
export async function upsertStickyComment(octokit: Octokit, target: CommentTarget, markdown: string, log: Logger, { create } = { create: true }): Promise<void> {
  const body = commentBody(markdown)
  const { owner, repo, number } = target
  try {
    const existing = await findStickyComment(octokit, target)
    if (existing) {
      await octokit.rest.issues.updateComment({ owner, repo, comment_id: existing, body })
      log.info(`Updated the pull request comment #${existing}`)
    } else if (create) {
      const { data } = await octokit.rest.issues.createComment({ owner, repo, issue_number: number, body })
      log.info(`Commented on the pull request (#${data.id})`)
    } else {
      log.info('No pull request comment: none to update, and this verdict starts none')
    }
  } catch (error) {
    const status = (error as { status?: number }).status
    const hint = status === 403 ? ' (the job needs `permissions: pull-requests: write` for the comment input)' : ''
    log.warn(`The pull request comment was not written: ${(error as Error).message}${hint}`)
  }
}

export function commentBody(markdown: string): string {
  return `${COMMENT_MARKER}\n${boundedMarkdown(markdown, COMMENT_LIMIT, "The whole report is in the job summary, and report.json in the run's artifact.")}`
}

async function findStickyComment(octokit: Octokit, { owner, repo, number }: CommentTarget): Promise<number | null> {
  const writtenByUs = await ourAuthor(octokit)
  const comments = octokit.paginate.iterator(octokit.rest.issues.listComments, { owner, repo, issue_number: number, per_page: 100 })
  for await (const page of comments) {
    // Our marker, from the token's own account: someone quoting the marker does not hijack the comment.
    const ours = page.data.find((comment) => comment.body?.startsWith(COMMENT_MARKER) && comment.user && writtenByUs(comment.user))
    if (ours) return ours.id
  }
  return null
}

/** The account GitHub's own job token (GITHUB_TOKEN) writes as. */
export const GITHUB_TOKEN_AUTHOR = 'github-actions[bot]'

/**
 * Who writes with this token. A personal token's user can be asked for; an app's token (GITHUB_TOKEN) may not
 * ask, and writes as exactly github-actions[bot]: any other bot's comment, even one starting with our marker,
 * is not ours to edit.
 */
async function ourAuthor(octokit: Octokit): Promise<(user: { login: string; type: string }) => boolean> {
  const login = await octokit.rest.users.getAuthenticated().then(({ data }) => data.login, () => null)
  return login ? (user) => user.login === login : (user) => user.type === 'Bot' && user.login === GITHUB_TOKEN_AUTHOR
}
