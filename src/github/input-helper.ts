/** Action inputs and the event's pull request → one Settings object. */
import * as core from '@actions/core'
import * as github from '@actions/github'
import { join } from 'node:path'
import { SettingsError } from '../errors.js'
import { buildSettings, type LinkedIssue, type Settings } from '../settings.js'
import { Inputs } from './constants.js'
import { fetchLinkedIssues } from './fetch-linked-issues.js'
import { pullRequestOfEvent } from './pull-request.js'

export async function getSettings(): Promise<Settings> {
  const pullRequest = await pullRequestOfEvent({
    allowPullRequestTarget: booleanInput(Inputs.AllowPullRequestTarget),
    prNumber: core.getInput(Inputs.PrNumber),
    token: core.getInput(Inputs.GithubToken)
  })
  const workspace = process.env.GITHUB_WORKSPACE ?? process.cwd()
  const apiKey = core.getInput(Inputs.AnthropicApiKey)
  if (apiKey) core.setSecret(apiKey)
  else core.notice('No anthropic-api-key (fork pull requests get no secrets): running verify mode on the PR\'s own tests.')
  return buildSettings({
    mode: apiKey ? 'generate' : 'verify',
    repo: workspace,
    base: pullRequest.baseSha,
    head: pullRequest.headSha,
    out: core.getInput(Inputs.OutputDir) || join(process.env.RUNNER_TEMP ?? workspace, 'regression-testgen'),
    pullRequest: { title: pullRequest.title, body: pullRequest.body },
    // Only generate mode reads the bug report: verify mode makes no API call for it.
    linkedIssues: apiKey ? await linkedIssues(pullRequest.number, pullRequest.body) : [],
    apiKey,
    model: core.getInput(Inputs.Model),
    maxTokens: core.getInput(Inputs.MaxTokens),
    maxModelCalls: core.getInput(Inputs.MaxModelCalls),
    baseURL: core.getInput(Inputs.AnthropicBaseUrl),
    onNoFailToPass: core.getInput(Inputs.OnNoFailToPass) || 'fail',
    testTimeoutMinutes: core.getInput(Inputs.TimeoutMinutes),
    framework: core.getInput(Inputs.Framework),
    testCommand: core.getInput(Inputs.TestCommand),
    buildCommand: core.getInput(Inputs.BuildCommand),
    installCommand: core.getInput(Inputs.InstallCommand),
    workingDirectory: core.getInput(Inputs.WorkingDirectory)
  })
}

async function linkedIssues(number: number, body: string): Promise<LinkedIssue[]> {
  const token = core.getInput(Inputs.GithubToken)
  if (!token) return []
  const issues = await fetchLinkedIssues(github.getOctokit(token), { number, body }, github.context.repo, core.warning)
  core.info(issues.length ? `Bug report: ${issues.map((issue) => issue.reference).join(', ')}` : 'Bug report: no linked issue, the pull request itself')
  return issues
}

/** `true` or `false` (any case); empty is false. Anything else names the input. */
function booleanInput(name: string): boolean {
  const value = core.getInput(name).toLowerCase()
  if (value === '' || value === 'false') return false
  if (value === 'true') return true
  throw new SettingsError(name, `"${core.getInput(name)}" is not true or false`)
}
