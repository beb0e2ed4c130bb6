/** The linked issues read without `issues: read` (a private repository): a warning naming the permission, and the pull request's text. */
import * as github from '@actions/github'
import { fetchLinkedIssues } from '../../src/github/fetch-linked-issues.js'
import { startFakeGitHub } from '../support/fake-github.js'

test('a refused read of the closing references and of an issue names issues: read', async () => {
  const gitHub = await startFakeGitHub({ closing: ['acme/transport#4'], issues: { 'acme/transport#4': { title: 'Retries', body: '' }, 'acme/transport#5': { title: 'Also', body: '' } }, permissions: { issues: 'none' } })
  const warnings: string[] = []
  try {
    const octokit = github.getOctokit('ghs_token', { baseUrl: gitHub.url })
    const issues = await fetchLinkedIssues(octokit, { number: 7, body: 'Fixes #5' }, { owner: 'acme', repo: 'transport' }, (warning) => warnings.push(warning))
    expect(issues).toEqual([])
    expect(warnings).toEqual([
      expect.stringMatching(/^Could not read the issues this pull request closes: .*Resource not accessible by integration.* \(on a private repository the job needs `permissions: pull-requests: read` and `issues: read`\)$/s),
      'Could not read issue acme/transport#5: Resource not accessible by integration (on a private repository the job needs `permissions: issues: read`)'
    ])
  } finally {
    await gitHub.close()
  }
})
