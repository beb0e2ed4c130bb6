/**
 * The links a delivery's message carries: the run, the pull request, the linked issues. Read once from the
 * GitHub Actions environment by the entries (settings.ts); absent on a laptop, where the message has none.
 */
export interface GitHubLinks {
  /** `https://github.com` (GITHUB_SERVER_URL). */
  serverUrl: string
  /** `owner/name` (GITHUB_REPOSITORY). */
  repository: string
  /** GITHUB_RUN_ID; null outside a workflow run. */
  runId: string | null
  /** The pull request the run is about; null: the CLI, or unknown. */
  pullRequest: number | null
}

const OWNER_AND_NAME = /^[A-Za-z0-9_.-]+\/[A-Za-z0-9_.-]+$/
const HTTP_URL = /^https?:\/\/[A-Za-z0-9.-]+(?::\d+)?$/

/** Null unless the environment names a repository on a plain http(s) server: no link is better than a wrong one. */
export function githubLinksFrom(env: NodeJS.ProcessEnv, pullRequest: number | null = null): GitHubLinks | null {
  const serverUrl = (env.GITHUB_SERVER_URL || 'https://github.com').replace(/\/+$/, '')
  const repository = env.GITHUB_REPOSITORY ?? ''
  if (!OWNER_AND_NAME.test(repository) || !HTTP_URL.test(serverUrl)) return null
  const runId = env.GITHUB_RUN_ID && /^\d+$/.test(env.GITHUB_RUN_ID) ? env.GITHUB_RUN_ID : null
  return { serverUrl, repository, runId, pullRequest }
}

export const runUrl = (links: GitHubLinks | null): string | null => (links?.runId ? `${links.serverUrl}/${links.repository}/actions/runs/${links.runId}` : null)

export const pullRequestUrl = (links: GitHubLinks | null): string | null =>
  links?.pullRequest ? `${links.serverUrl}/${links.repository}/pull/${links.pullRequest}` : null

/** `owner/name#12` (as fetch-linked-issues names a linked issue) → its page; null for anything else. */
export function issueUrl(links: GitHubLinks | null, reference: string): string | null {
  const match = /^([A-Za-z0-9_.-]+\/[A-Za-z0-9_.-]+)#(\d+)$/.exec(reference)
  return links && match ? `${links.serverUrl}/${match[1]}/issues/${match[2]}` : null
}
