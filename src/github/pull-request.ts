/**
 * The pull request a run is about, by event: `pull_request` (its payload), `workflow_dispatch` (the
 * `pr-number` input, read from the API), `pull_request_target` (refused unless explicitly allowed). A
 * `workflow_dispatch` run on a fork's pull request holds the secrets as `pull_request_target` does, so it is
 * refused the same way; a fork's `pull_request` run gets no secrets and is fine.
 */
import * as github from '@actions/github'
import { SettingsError, UserFacingError } from '../errors.js'

export interface PullRequestInfo {
  number: number
  title: string
  body: string
  baseSha: string
  headSha: string
  /** The branches, for a delivery (src/github/destination.ts): the head's, and the one it merges into. */
  headRef: string
  baseRef: string
  /** `owner/repo` of each side; the head's is null for a deleted fork. Different: a fork's pull request. */
  headRepository: string | null
  baseRepository: string
  merged: boolean
}

export const PULL_REQUEST_TARGET_RISK =
  'pull_request_target runs with the base repository\'s secrets and a write token, while this action runs the pull request\'s ' +
  'code (its tests and build): a pull request from a fork could read the secrets. Use the pull_request event; ' +
  'set allow-pull-request-target: true only when the workflow checks out code you trust.'

export const FORK_PULL_REQUEST_RISK =
  'A workflow_dispatch run has the repository\'s secrets and token, while this action runs the pull request\'s code ' +
  '(its tests and build): code from a fork could read them. Let the fork\'s pull request run on the pull_request event, ' +
  'which gets no secrets (verify mode); set allow-pull-request-target: true only once you trust the fork\'s code at its head commit.'

export interface EventInputs {
  allowPullRequestTarget: boolean
  prNumber: string
  token: string
}

export async function pullRequestOfEvent(inputs: EventInputs): Promise<PullRequestInfo> {
  const { eventName, payload } = github.context
  if (eventName === 'pull_request_target' && !inputs.allowPullRequestTarget) throw new UserFacingError(`Refusing to run on pull_request_target. ${PULL_REQUEST_TARGET_RISK}`)
  if ((eventName === 'pull_request' || eventName === 'pull_request_target') && payload.pull_request) return fromPayload(payload.pull_request)
  if (eventName === 'workflow_dispatch') return fromApi(inputs)
  throw new UserFacingError(`regression-testgen runs on pull_request (or workflow_dispatch with pr-number) events, not ${eventName || 'this event'}`)
}

function fromPayload(pullRequest: NonNullable<typeof github.context.payload.pull_request>): PullRequestInfo {
  return {
    number: Number(pullRequest.number),
    title: String(pullRequest.title ?? ''),
    body: String(pullRequest.body ?? ''),
    baseSha: pullRequest.base.sha,
    headSha: pullRequest.head.sha,
    ...branchesOf(pullRequest as unknown as PullRequestSides)
  }
}

async function fromApi(inputs: EventInputs): Promise<PullRequestInfo> {
  const number = Number(inputs.prNumber)
  if (!Number.isInteger(number) || number <= 0) throw new SettingsError('pr-number', `a workflow_dispatch run needs the pull request's number, got "${inputs.prNumber}"`)
  if (!inputs.token) throw new SettingsError('github-token', 'a workflow_dispatch run reads the pull request from the API and needs a token')
  const { data } = await github.getOctokit(inputs.token).rest.pulls.get({ ...github.context.repo, pull_number: number })
  const fork = forkOf(data)
  if (fork !== null && !inputs.allowPullRequestTarget) throw new UserFacingError(`Refusing to run on pull request #${number}: its head is in ${fork}, not ${data.base.repo.full_name}. ${FORK_PULL_REQUEST_RISK}`)
  return { number, title: data.title, body: data.body ?? '', baseSha: data.base.sha, headSha: data.head.sha, ...branchesOf(data) }
}

interface PullRequestSides {
  head: { ref?: string; repo?: { full_name: string } | null }
  base: { ref?: string; repo?: { full_name: string } }
  merged?: boolean | null
}

/** Where each side lives, from the event's payload or the API's pull request (the same fields). */
function branchesOf(pullRequest: PullRequestSides): Pick<PullRequestInfo, 'headRef' | 'baseRef' | 'headRepository' | 'baseRepository' | 'merged'> {
  return {
    headRef: String(pullRequest.head.ref ?? ''),
    baseRef: String(pullRequest.base.ref ?? ''),
    headRepository: pullRequest.head.repo?.full_name ?? null,
    baseRepository: pullRequest.base.repo?.full_name ?? process.env.GITHUB_REPOSITORY ?? '',
    merged: pullRequest.merged === true
  }
}

/** The repository a pull request's head lives in when it is not the base repository (a deleted fork has none); else null. */
function forkOf(pullRequest: { head: { repo: { full_name: string } | null }; base: { repo: { full_name: string } } }): string | null {
  const head = pullRequest.head.repo?.full_name
  if (head === pullRequest.base.repo.full_name) return null
  return head ?? 'a deleted fork'
}
