/**
 * The action's SuiteDestination: the proven suite pushed to the pull request's repository through the
 * GitHub API, from the action's own process once every sandboxed command has ended (the token never
 * reaches the sandbox). A push GitHub or the rules refuse is `pushed: false` with the reason, and the
 * deliver stage falls back to the patch.
 */
import * as github from '@actions/github'
import type { DeliverMode, Delivery, PushResult, SuiteDestination } from '../deliver/delivery.js'
import { commitOnHeadBranch } from './commit-delivery.js'
import type { Octokit, Repository } from './git-commit.js'
import { followUpPullRequest } from './pull-request-delivery.js'
import type { PullRequestInfo } from './pull-request.js'
import { PushRefused } from './push-refusal.js'

export function createGitHubDestination(octokit: Octokit, repository: Repository, pullRequest: PullRequestInfo): SuiteDestination {
  return {
    async push(delivery: Delivery, mode: 'commit' | 'pull-request'): Promise<PushResult> {
      try {
        const push = mode === 'commit' ? commitOnHeadBranch : followUpPullRequest
        return { pushed: true, url: await push(octokit, repository, pullRequest, delivery) }
      } catch (error) {
        if (error instanceof PushRefused) return { pushed: false, reason: error.message }
        throw error
      }
    }
  }
}

/** The action's destination for `deliver: commit` or `pull-request` with a token (the settings require one); else none. */
export function destinationForRun(deliver: DeliverMode, token: string, pullRequest: PullRequestInfo): SuiteDestination | null {
  if ((deliver !== 'commit' && deliver !== 'pull-request') || !token) return null
  return createGitHubDestination(github.getOctokit(token), github.context.repo, pullRequest)
}
