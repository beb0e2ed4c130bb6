/**
 * One commit made through the git data API, never through a checkout: each file a blob, a tree on the
 * parent's tree, a commit with the parent as its only parent. No branch moves here.
 */
import type * as github from '@actions/github'
import type { Delivery } from '../deliver/delivery.js'
import type { SuiteFile } from '../domain.js'

export type Octokit = ReturnType<typeof github.getOctokit>

export interface Repository {
  owner: string
  repo: string
}

export interface NewCommit {
  files: SuiteFile[]
  message: string
  parent: string
}

/** The commit a delivery makes, whether on the pull request's branch or the follow-up's: the same files, message and parent. */
export function deliveryCommit(delivery: Delivery): NewCommit {
  return { files: delivery.files, message: `${delivery.title}\n\n${delivery.body}`, parent: delivery.head }
}

/** Regular files only: the suite holds no executables or links. */
const FILE_MODE = '100644'

export async function createCommit(octokit: Octokit, repository: Repository, commit: NewCommit): Promise<{ sha: string; url: string }> {
  const { data: parent } = await octokit.rest.git.getCommit({ ...repository, commit_sha: commit.parent })
  const tree = []
  // One at a time: a handful of files, and GitHub's secondary rate limit dislikes bursts of writes.
  for (const file of commit.files) {
    const { data: blob } = await octokit.rest.git.createBlob({ ...repository, content: file.content, encoding: 'utf-8' })
    tree.push({ path: file.path, mode: FILE_MODE, type: 'blob', sha: blob.sha } as const)
  }
  const { data: created } = await octokit.rest.git.createTree({ ...repository, base_tree: parent.tree.sha, tree })
  const { data: made } = await octokit.rest.git.createCommit({ ...repository, message: commit.message, tree: created.sha, parents: [commit.parent] })
  return { sha: made.sha, url: made.html_url }
}

/** The commit a branch points at; null when there is no such branch. */
export async function branchHead(octokit: Octokit, repository: Repository, branch: string): Promise<string | null> {
  try {
    const { data } = await octokit.rest.git.getRef({ ...repository, ref: `heads/${branch}` })
    return data.object.sha
  } catch (error) {
    if ((error as { status?: number }).status === 404) return null
    throw error
  }
}
