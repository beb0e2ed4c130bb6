/** Action inputs and the event's pull request → one settings object: the pipeline's Settings and the reporting around it. */
import * as core from '@actions/core'
import * as github from '@actions/github'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { SettingsError } from '../errors.js'
import { buildSettings, type ApiKeyNames, type LinkedIssue, type Settings } from '../settings.js'
import { Inputs, RESPONSE_CACHE_FOLDER } from './constants.js'
import { fetchLinkedIssues } from './fetch-linked-issues.js'
import { pullRequestOfEvent, type PullRequestInfo } from './pull-request.js'

export interface ActionSettings {
  pipeline: Settings
  pullRequest: PullRequestInfo
  token: string
  artifact: { name: string; retentionDays: number | undefined }
  /** Post the summary as a pull request comment, updated in place on re-runs. */
  comment: boolean
}

export const DEFAULT_ARTIFACT_NAME = 'regression-testgen'

/** How the refusal of generate mode without a key names them (the action itself runs verify mode when the input is empty). */
export const ACTION_API_KEY_NAMES: ApiKeyNames = { key: `the ${Inputs.AnthropicApiKey} input from a secret`, verifyMode: 'leave it empty, and the action runs verify mode' }

export async function getSettings(): Promise<ActionSettings> {
  const comment = booleanInput(Inputs.Comment)
  const artifact = { name: artifactName(), retentionDays: retentionDays() }
  const token = core.getInput(Inputs.GithubToken)
  if (comment && !token) throw new SettingsError(Inputs.Comment, 'the pull request comment needs github-token')
  const deliver = core.getInput(Inputs.Deliver).trim()
  if ((deliver === 'commit' || deliver === 'pull-request') && !token) throw new SettingsError(Inputs.Deliver, `${deliver} pushes through the GitHub API and needs github-token`)
  const pipeline = await pipelineSettings()
  return { pipeline: pipeline.settings, pullRequest: pipeline.pullRequest, token, artifact, comment }
}

async function pipelineSettings(): Promise<{ settings: Settings; pullRequest: PullRequestInfo }> {
  const pullRequest = await pullRequestOfEvent({
    allowPullRequestTarget: booleanInput(Inputs.AllowPullRequestTarget),
    prNumber: core.getInput(Inputs.PrNumber),
    token: core.getInput(Inputs.GithubToken)
  })
  const workspace = process.env.GITHUB_WORKSPACE ?? process.cwd()
  const apiKey = core.getInput(Inputs.AnthropicApiKey)
  if (apiKey) core.setSecret(apiKey)
  else core.notice('No anthropic-api-key (fork pull requests get no secrets): running verify mode on the PR\'s own tests.')
  // Never the workspace: the repository's own tests would collect the suite, and the trees would sit in the checkout.
  const runnerTemp = process.env.RUNNER_TEMP || tmpdir()
  const settings = buildSettings({
    mode: apiKey ? 'generate' : 'verify',
    repo: workspace,
    base: pullRequest.baseSha,
    head: pullRequest.headSha,
    out: core.getInput(Inputs.OutputDir) || join(runnerTemp, 'regression-testgen'),
    // The same tree paths on every run, so the pre-fix tree's install can come back from the Actions cache.
    workDir: join(runnerTemp, 'regression-testgen-work'),
    pullRequest: { title: pullRequest.title, body: pullRequest.body },
    // Only generate mode reads the bug report: verify mode makes no API call for it.
    linkedIssues: apiKey ? await linkedIssues(pullRequest.number, pullRequest.body) : [],
    apiKey,
    apiKeyNames: ACTION_API_KEY_NAMES,
    model: core.getInput(Inputs.Model),
    maxTokens: core.getInput(Inputs.MaxTokens),
    maxModelCalls: core.getInput(Inputs.MaxModelCalls),
    toolRounds: core.getInput(Inputs.ToolRounds),
    reruns: core.getInput(Inputs.Reruns),
    // Restored from and saved to the Actions cache around the run (see response-cache-store.ts).
    responseCacheDir: booleanInput(Inputs.CacheModelResponses, true) ? join(runnerTemp, RESPONSE_CACHE_FOLDER) : undefined,
    baseURL: core.getInput(Inputs.AnthropicBaseUrl),
    onNoFailToPass: core.getInput(Inputs.OnNoFailToPass) || 'fail',
    onFixConcern: core.getInput(Inputs.OnFixConcern) || 'warn',
    testTimeoutMinutes: core.getInput(Inputs.TimeoutMinutes),
    runTimeoutMinutes: core.getInput(Inputs.RunTimeoutMinutes),
    testBudgetMinutes: core.getInput(Inputs.TestBudgetMinutes),
    framework: core.getInput(Inputs.Framework),
    testCommand: core.getInput(Inputs.TestCommand),
    buildCommand: core.getInput(Inputs.BuildCommand),
    installCommand: core.getInput(Inputs.InstallCommand),
    workingDirectory: core.getInput(Inputs.WorkingDirectory),
    allowUnisolatedTests: booleanInput(Inputs.AllowUnisolatedTests),
    network: booleanInput(Inputs.Network),
    deliver: core.getInput(Inputs.Deliver).trim() || 'artifact',
    pullRequestNumber: pullRequest.number,
    secrets: runnerSecrets()
  })
  return { settings, pullRequest }
}

/** The job's tokens: never to be written or posted, and masked in the job log. */
function runnerSecrets(): string[] {
  const tokens = [core.getInput(Inputs.GithubToken), process.env.GITHUB_TOKEN, process.env.ACTIONS_RUNTIME_TOKEN, process.env.ACTIONS_ID_TOKEN_REQUEST_TOKEN]
  const secrets = tokens.filter((token): token is string => Boolean(token?.trim()))
  for (const secret of secrets) core.setSecret(secret)
  return secrets
}

function artifactName(): string {
  const name = core.getInput(Inputs.ArtifactName).trim() || DEFAULT_ARTIFACT_NAME
  // The characters the artifact service refuses in a name.
  if (/["':<>|*?\\/\r\n]/.test(name)) throw new SettingsError(Inputs.ArtifactName, `"${name}" has a character artifact names cannot hold (" : < > | * ? \\ / or a line break)`)
  return name
}

/** 1–90 days; empty: the repository's own retention setting. */
function retentionDays(): number | undefined {
  const value = core.getInput(Inputs.RetentionDays).trim()
  if (!value) return undefined
  const days = Number(value)
  if (!Number.isInteger(days) || days < 1 || days > 90) throw new SettingsError(Inputs.RetentionDays, `"${value}" is not a whole number of days from 1 to 90`)
  return days
}

async function linkedIssues(number: number, body: string): Promise<LinkedIssue[]> {
  const token = core.getInput(Inputs.GithubToken)
  if (!token) return []
  const issues = await fetchLinkedIssues(github.getOctokit(token), { number, body }, github.context.repo, core.warning)
  core.info(issues.length ? `Bug report: ${issues.map((issue) => issue.reference).join(', ')}` : 'Bug report: no linked issue, the pull request itself')
  return issues
}

/** `true` or `false` (any case); empty is the default. Anything else names the input. */
function booleanInput(name: string, byDefault = false): boolean {
  const value = core.getInput(name).toLowerCase()
  if (value === '') return byDefault
  if (value === 'false') return false
  if (value === 'true') return true
  throw new SettingsError(name, `"${core.getInput(name)}" is not true or false`)
}
