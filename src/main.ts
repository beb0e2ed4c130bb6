/**
 * The action: inputs → settings → the same pipeline as the CLI, with the Actions services around it:
 * the model response cache restored before and saved after, then the artifact, the outputs, the
 * annotations, the job summary, the optional comment and the exit status.
 */
import * as core from '@actions/core'
import * as github from '@actions/github'
import { readFile } from 'node:fs/promises'
import { describeError } from './errors.js'
import { actionsLogger, neutralizeWorkflowCommands } from './github/actions-log.js'
import { annotationsFor, type Annotation } from './github/annotations.js'
import { uploadRunArtifact, type UploadedArtifact } from './github/artifact.js'
import { upsertStickyComment } from './github/comment.js'
import { Inputs, Outputs } from './github/constants.js'
import { actionsDependencyCache } from './github/dependency-cache.js'
import { destinationForRun } from './github/destination.js'
import { getSettings, type ActionSettings } from './github/input-helper.js'
import { ResponseCacheStore } from './github/response-cache-store.js'
import type { Outcome } from './pipeline.js'
import type { Logger } from './ports/logger.js'
import { withRunLog } from './ports/run-log.js'
import { boundedMarkdown, SUMMARY_LIMIT, WHOLE_REPORT } from './report/bounded.js'
import { redactingLogger, redactor } from './report/redact.js'
import { failToPassCount } from './report/report.js'
import { applyCommands } from './report/delivery-line.js'
import { claimOutput, learnPersistedCredentials, runWithRealPorts } from './run.js'

export async function run(): Promise<void> {
  try {
    const given = await getSettings()
    // Every refusal of an input (output-dir's too) before any work.
    const output = await claimOutput(given.pipeline, Inputs.OutputDir)
    try {
      const settings = { ...given, pipeline: await learnPersistedCredentials(given.pipeline) }
      const log = redactingLogger(withRunLog(actionsLogger, settings.pipeline.outDir), redactor(settings.pipeline.secrets))
      const outcome = await generateAndProve(settings, log)
      // Before anything that could fail: whatever the verdict, the files reach the artifact.
      const artifact = await uploadRunArtifact(settings.pipeline.outDir, settings.artifact, log)
      await report(settings, outcome, artifact, log)
    } finally {
      output.release()
    }
  } catch (error) {
    core.setFailed(neutralizeWorkflowCommands(describeError(error)))
  }
}

async function generateAndProve(settings: ActionSettings, log: Logger): Promise<Outcome> {
  const { pipeline } = settings
  const responses = pipeline.model?.responseCacheDir
    ? new ResponseCacheStore(pipeline.model.responseCacheDir, { repository: process.env.GITHUB_REPOSITORY ?? '', base: pipeline.base, head: pipeline.head, model: pipeline.model.model }, log)
    : null
  await responses?.restore()
  // The push runs in this process after the sandboxed commands ended: the token never reaches the sandbox.
  const outcome = await runWithRealPorts(pipeline, log, actionsDependencyCache(log), destinationForRun(pipeline.deliver, settings.token, settings.pullRequest))
  await responses?.save()
  return outcome
}

async function report(settings: ActionSettings, outcome: Outcome, artifact: UploadedArtifact | null, log: Logger): Promise<void> {
  const { report, paths } = outcome
  core.setOutput(Outputs.Verdict, report.verdict)
  core.setOutput(Outputs.FailToPassCount, failToPassCount(report))
  core.setOutput(Outputs.ReportPath, paths.json)
  core.setOutput(Outputs.SuitePath, paths.suiteDir)
  if (artifact) core.setOutput(Outputs.ArtifactId, artifact.id)
  core.setOutput(Outputs.Delivered, report.delivery.mode)
  core.setOutput(Outputs.DeliveryUrl, report.delivery.url ?? '')
  if (outcome.changeSet) annotate(annotationsFor(report, outcome.changeSet))

  // report.md is capped with room for the artifact line; the summary is capped again in case it was not.
  const markdown = boundedMarkdown(withApplyCommands(withArtifactLink(await readFile(paths.markdown, 'utf8'), artifact, settings.artifact.name), settings, outcome), SUMMARY_LIMIT, WHOLE_REPORT)
  await core.summary.addRaw(markdown).write()
  // Nothing to prove starts no new comment; one from an earlier push still gets the latest verdict.
  const notApplicable = report.verdict === 'not-applicable'
  if (settings.comment) await upsertStickyComment(github.getOctokit(settings.token), { ...github.context.repo, number: settings.pullRequest.number }, markdown, log, { create: !notApplicable })

  if (notApplicable) core.notice(neutralizeWorkflowCommands(`Not applicable: ${report.reason}`))
  else if (outcome.exitCode === 0 && report.verdict !== 'fail-to-pass') core.warning(neutralizeWorkflowCommands(`No test fails against the pre-fix code: ${report.reason}`))
  // on-fix-concern: fail turns a proven fix with a confirmed concern into a failed step.
  const incomplete = `the fix may be incomplete: a test confirms ${report.fixConcerns.length} input(s) the fixed code still gets wrong (on-fix-concern: fail)`
  if (outcome.exitCode !== 0) core.setFailed(neutralizeWorkflowCommands(report.verdict === 'fail-to-pass' ? incomplete : `verdict ${report.verdict}${report.reason ? `: ${report.reason}` : ''}`))
}

/** The artifact is named right under the title, where a reader looks for the files. */
function withArtifactLink(markdown: string, artifact: UploadedArtifact | null, name: string): string {
  if (!artifact) return markdown
  const link = artifact.url ? `[${name}](${artifact.url})` : `\`${name}\` (#${artifact.id})`
  const titleEnd = markdown.indexOf('\n\n')
  return `${markdown.slice(0, titleEnd)}\n\n📦 Artifact ${link}: the suite at its repository paths, report.json, report.md and run.log.${markdown.slice(titleEnd)}`
}

/** A patch comes with the commands that apply it, folded under the line saying where the suite went. */
function withApplyCommands(markdown: string, settings: ActionSettings, outcome: Outcome): string {
  const commands = applyCommands(outcome.report.delivery, { pullRequest: settings.pullRequest.number, runId: settings.pipeline.links?.runId ?? null, artifactName: settings.artifact.name })
  const line = markdown.split('\n').find((text) => text.startsWith('📬'))
  // A function: `$&` in a path must not be read as a replacement pattern.
  return commands && line ? markdown.replace(line, () => `${line}\n\n${commands}`) : markdown
}

function annotate(annotations: Annotation[]): void {
  for (const { kind, file, startLine, endLine, title, message } of annotations) core[kind](neutralizeWorkflowCommands(message), { file, startLine, endLine, title: title && neutralizeWorkflowCommands(title) })
}
