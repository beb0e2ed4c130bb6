/**
 * `deliver: commit`: one commit on the pull request's own branch, whose parent is the head the run proved.
 * The branch moves only from that head to the new commit (no force): a branch that moved meanwhile, a fork,
 * a merged pull request or a protected branch is refused, and nothing is overwritten.
 */
import type { Delivery } from '../deliver/delivery.js'
import { branchHead, createCommit, deliveryCommit, type Octokit, type Repository } from './git-commit.js'
import type { PullRequestInfo } from './pull-request.js'
import { gitHubAnswer, needing, PushRefused, refusalOf } from './push-refusal.js'

/** GitHub's answer to a ref update whose new commit does not descend from the branch's commit. */
const NOT_A_FAST_FORWARD = /not a fast.forward/i

/** The commit's URL. Throws PushRefused with the reason it cannot be made. */
export async function commitOnHeadBranch(octokit: Octokit, repository: Repository, pullRequest: PullRequestInfo, delivery: Delivery): Promise<string> {
  const branch = pullRequest.headRef
  refuseElsewhere(repository, pullRequest)
  await refuseProtected(octokit, repository, branch)
  await refuseMoved(octokit, repository, branch, delivery.head)
  const commit = await needing('contents', () => createCommit(octokit, repository, deliveryCommit(delivery)))
  try {
    await octokit.rest.git.updateRef({ ...repository, ref: `heads/${branch}`, sha: commit.sha, force: false })
  } catch (error) {
    const answer = gitHubAnswer(error)
    // Between the check and the update: the same refusal as before it.
    if (answer?.status === 422 && NOT_A_FAST_FORWARD.test(answer.message)) await refuseMoved(octokit, repository, branch, delivery.head)
    if (answer?.status === 422) throw new PushRefused(`GitHub refused to move ${branch} (a branch protection rule or ruleset): ${answer.message}`)
    throw refusalOf(error, 'contents')
  }
  return commit.url
}

/** A fork's branch is out of the job token's reach; a merged pull request's branch leads nowhere. */
function refuseElsewhere(repository: Repository, pullRequest: PullRequestInfo): void {
  const here = `${repository.owner}/${repository.repo}`
  if (pullRequest.headRepository !== here) {
    throw new PushRefused(`the pull request's branch is in ${pullRequest.headRepository ?? 'a deleted fork'}, not ${here}: the job's token cannot push to it`)
  }
  if (pullRequest.merged) throw new PushRefused(`the pull request is merged: a commit on ${pullRequest.headRef} would not reach ${pullRequest.baseRef} (deliver: pull-request opens one into it)`)
}

/** The tool never pushes to a protected branch, even where the rules would let its token. */
async function refuseProtected(octokit: Octokit, repository: Repository, branch: string): Promise<void> {
  const { data } = await needing('contents', () =>
    octokit.rest.repos.getBranch({ ...repository, branch }).catch((error: unknown) => {
      // A read the checkout's permission allows: not there is not a missing permission.
      throw gitHubAnswer(error)?.status === 404 ? new PushRefused(`the branch ${branch} no longer exists`) : error
    })
  )
  if (data.protected) throw new PushRefused(`${branch} is a protected branch: the action does not push to it`)
}

async function refuseMoved(octokit: Octokit, repository: Repository, branch: string, head: string): Promise<void> {
  const now = await needing('contents', () => branchHead(octokit, repository, branch))
  if (now === null) throw new PushRefused(`the branch ${branch} no longer exists`)
  if (now !== head) throw new PushRefused(`the branch ${branch} moved to ${now} after the run started at ${head}: nothing was overwritten`)
}
