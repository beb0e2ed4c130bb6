/**
 * `deliver: pull-request`: the commit on the tool's own branch `regression-testgen/pr-<N>` (force-updated:
 * nobody else's work is on it), and one open pull request from it into the pull request's branch — into
 * the base branch once the pull request is merged. A later run updates that pull request, never a second.
 */
import type { Delivery } from '../deliver/delivery.js'
import { boundedMarkdown, type SizeLimit } from '../report/bounded.js'
import { DELIVERY_BRANCH_PREFIX } from './constants.js'
import { branchHead, createCommit, deliveryCommit, type Octokit, type Repository } from './git-commit.js'
import type { PullRequestInfo } from './pull-request.js'
import { needing, PushRefused } from './push-refusal.js'

/** GitHub refuses a pull request body over 65,536 characters (a string's length counts at least as many). */
const BODY_LIMIT: SizeLimit = { size: (text) => text.length, max: 65_000, name: "65,536 characters, GitHub's limit for a pull request body" }

/** The follow-up pull request's URL. Throws PushRefused with the reason it cannot be opened. */
export async function followUpPullRequest(octokit: Octokit, repository: Repository, pullRequest: PullRequestInfo, delivery: Delivery): Promise<string> {
  const into = pullRequest.merged ? pullRequest.baseRef : pullRequest.headRef
  const here = `${repository.owner}/${repository.repo}`
  if (!pullRequest.merged && pullRequest.headRepository !== here) {
    throw new PushRefused(`the pull request's branch is in ${pullRequest.headRepository ?? 'a deleted fork'}, not ${here}: a pull request into it can only be opened there`)
  }
  const branch = `${DELIVERY_BRANCH_PREFIX}${pullRequest.number}`
  const commit = await needing('contents', () => createCommit(octokit, repository, deliveryCommit(delivery)))
  await needing('contents', () => pointBranchAt(octokit, repository, branch, commit.sha))
  const body = boundedMarkdown(delivery.body, BODY_LIMIT, "The whole message is the commit's.")
  try {
    return await needing('pull-requests', () => openOrUpdate(octokit, repository, { branch, into, title: delivery.title, body }))
  } catch (error) {
    // The commit is pushed by now: say where, so a maintainer can open the pull request by hand.
    throw error instanceof PushRefused ? new PushRefused(`${error.message}; the commit is on ${branch}`) : error
  }
}

async function pointBranchAt(octokit: Octokit, repository: Repository, branch: string, sha: string): Promise<void> {
  if ((await branchHead(octokit, repository, branch)) === null) await octokit.rest.git.createRef({ ...repository, ref: `refs/heads/${branch}`, sha })
  else await octokit.rest.git.updateRef({ ...repository, ref: `heads/${branch}`, sha, force: true })
}

interface FollowUp {
  branch: string
  into: string
  title: string
  body: string
}

async function openOrUpdate(octokit: Octokit, repository: Repository, followUp: FollowUp): Promise<string> {
  const { branch, into, title, body } = followUp
  const { data: open } = await octokit.rest.pulls.list({ ...repository, head: `${repository.owner}:${branch}`, state: 'open' })
  const existing = open[0]
  if (existing) {
    const { data } = await octokit.rest.pulls.update({ ...repository, pull_number: existing.number, title, body, base: into })
    return data.html_url
  }
  const { data } = await octokit.rest.pulls.create({ ...repository, head: branch, base: into, title, body })
  return data.html_url
}

