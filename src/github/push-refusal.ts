/**
 * A push GitHub refused, as the reason the deliver stage reports before it falls back to the patch: a missing
 * permission is named, never a failed run.
 */

/** The push cannot happen; the message says why, in words for the job summary and report.json. */
export class PushRefused extends Error {
  constructor(reason: string) {
    super(reason)
    this.name = 'PushRefused'
  }
}

/** The token's permission each kind of write needs: the git data API and refs, or the pulls API. */
export type WritePermission = 'contents' | 'pull-requests'

/** GitHub's answer to an API call (Octokit's RequestError), or null for anything else. */
export function gitHubAnswer(error: unknown): { status: number; message: string } | null {
  if (typeof error !== 'object' || error === null || typeof (error as { status?: unknown }).status !== 'number') return null
  const { status, response, message } = error as { status: number; response?: { data?: { message?: unknown } }; message: string }
  const answered = response?.data?.message
  return { status, message: typeof answered === 'string' ? answered : message }
}

/** GITHUB_TOKEN's refusal when the repository does not let Actions open pull requests, whatever the job's permissions. */
const ACTIONS_MAY_NOT_CREATE_PULL_REQUESTS = /not permitted to create or approve pull requests/i

/** A refused call → the refusal that names what the job lacks; not GitHub's answer (a bug): unchanged. */
export function refusalOf(error: unknown, permission: WritePermission): unknown {
  if (error instanceof PushRefused) return error
  const answer = gitHubAnswer(error)
  if (!answer) return error
  const answered = `GitHub answered ${answer.status}: ${answer.message}`
  if (ACTIONS_MAY_NOT_CREATE_PULL_REQUESTS.test(answer.message)) {
    return new PushRefused(`the repository does not let GitHub Actions open pull requests: allow it in Settings → Actions → General → "Allow GitHub Actions to create and approve pull requests" (${answered})`)
  }
  if (answer.status === 403 || answer.status === 404) return new PushRefused(`the job needs \`permissions: ${permission}: write\` (${answered})`)
  return new PushRefused(answered)
}

/** Runs one step of a push; GitHub refusing it becomes a PushRefused naming `permission`. */
export async function needing<T>(permission: WritePermission, step: () => Promise<T>): Promise<T> {
  try {
    return await step()
  } catch (error) {
    throw refusalOf(error, permission)
  }
}
