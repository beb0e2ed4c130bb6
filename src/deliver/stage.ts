/**
 * The deliver stage (issue 24): once the verdict is in, the proven suite's deliverable files go where the
 * user asked — nowhere but the artifact, a patch, a commit or a follow-up pull request (through the
 * destination); a push refused falls back to the patch. It never costs the verdict: a failure here is a
 * warning, and the suite stays in the artifact.
 */
import { mkdir, writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import type { ChangeSet, SuiteFile } from '../domain.js'
import { describeError } from '../errors.js'
import type { GitCommands } from '../ports/git.js'
import type { Logger } from '../ports/logger.js'
import type { Report } from '../report/report.js'
import type { Mode } from '../settings.js'
import { DELIVERY_MARKER, type DeliverMode, type DeliveryRecord, type SuiteDestination } from './delivery.js'
import type { GitHubLinks } from './links.js'
import { deliveryMessage } from './message.js'
import { PATCH_FILE, suitePatch } from './patch.js'
import { selectDeliverable } from './select.js'

export interface DeliverContext {
  mode: Mode
  deliver: DeliverMode
  /** Where suite.patch goes, beside report.json. */
  outDir: string
  links: GitHubLinks | null
  /** The linked issues' references, for the message's links. */
  issueReferences: string[]
  /** The report, redacted, with the verdict in. */
  report: Report
  /** The suite the verdict is about (proof.kept), redacted. */
  suite: SuiteFile[]
  /** The fix-concern tests' files: never delivered. */
  concerns: SuiteFile[]
  changeSet: ChangeSet | null
  git: Pick<GitCommands, 'listFiles' | 'commitMessage'>
  destination: SuiteDestination | null
  log: Logger
}

export interface DeliveryOutcome {
  record: DeliveryRecord
  /** The files delivered (or that the patch adds): the CLI's --apply writes them. */
  files: SuiteFile[]
}

/** The reason a run with the default `deliver: artifact` gives. */
export const ARTIFACT_ONLY = 'deliver: artifact — the suite is in the artifact and the output folder (suite/)'

export async function deliverSuite(context: DeliverContext): Promise<DeliveryOutcome> {
  try {
    const outcome = await deliver(context)
    context.log.info(deliveryLogLine(outcome.record))
    return outcome
  } catch (error) {
    context.log.warn(`Could not deliver the suite (${describeError(error)}); it stays in the output folder's suite/`)
    return nothing(`the delivery failed: ${describeError(error)}`)
  }
}

async function deliver(context: DeliverContext): Promise<DeliveryOutcome> {
  const { report, changeSet, log } = context
  if (context.deliver === 'artifact') return nothing(ARTIFACT_ONLY)
  if (context.mode === 'verify') return nothing("verify mode: the pull request's own tests are already in it")
  if (report.verdict !== 'fail-to-pass' || !changeSet) return nothing(`the verdict is ${report.verdict}, not fail-to-pass: only a proven suite is delivered (it stays in the artifact)`)
  if (isOwnCommit(await context.git.commitMessage(changeSet.head))) return nothing("this is regression-testgen's own commit: its suite is already in it")
  const selection = selectDeliverable(context.suite, {
    tests: report.tests,
    concernPaths: new Set(context.concerns.map((file) => file.path)),
    changedPaths: new Set(changeSet.files.flatMap((file) => [file.path, ...(file.basePath ? [file.basePath] : [])])),
    headFiles: new Set(await context.git.listFiles(changeSet.head)),
    uncollected: new Set(report.suite.files.filter((file) => file.collectedByRepoTests === false).map((file) => file.path))
  })
  for (const file of selection.leftOut) log.info(`Delivery: ${file.path} left out: ${file.reason}`)
  const { files } = selection
  if (files.length === 0) return nothing(`no file could be delivered: ${selection.leftOut.map((file) => `${file.path} (${file.reason})`).join('; ') || 'the suite is empty'}`)
  const message = deliveryMessage({ report, files, links: context.links, issueReferences: context.issueReferences })
  // Written in every mode that delivers: the fallback of a refused push, and the record of what a push added.
  await mkdir(context.outDir, { recursive: true })
  await writeFile(join(context.outDir, PATCH_FILE), suitePatch(files))
  const paths = files.map((file) => file.path)
  const asPatch = (reason: string | null): DeliveryOutcome => ({ record: { mode: 'patch', files: paths, url: null, reason }, files })
  if (context.deliver === 'patch') return asPatch(null)
  if (!context.destination) return asPatch(`${context.deliver} needs the action (it pushes through the GitHub API); here the suite is a patch`)
  const mode = context.deliver
  const pushed = await context.destination.push({ files, title: message.title, body: message.body, head: changeSet.head }, mode).catch((error: unknown) => ({ pushed: false as const, reason: `the push failed: ${describeError(error)}` }))
  if (!pushed.pushed) {
    log.warn(`Could not deliver the suite as a ${mode}: ${pushed.reason}. It is in ${PATCH_FILE} instead`)
    return asPatch(pushed.reason)
  }
  return { record: { mode, files: paths, url: pushed.url, reason: null }, files }
}

/** The marker as a trailer line of the head commit's message. */
const isOwnCommit = (message: string) => message.split('\n').some((line) => line.trim().toLowerCase() === DELIVERY_MARKER.toLowerCase())

const nothing = (reason: string): DeliveryOutcome => ({ record: { mode: 'none', files: [], url: null, reason }, files: [] })

/** Where the suite went, for the log. */
function deliveryLogLine(record: DeliveryRecord): string {
  const files = `${record.files.length} file(s): ${record.files.join(', ')}`
  if (record.mode === 'none') return `Delivery: none (${record.reason})`
  if (record.mode === 'patch') return `Delivery: ${PATCH_FILE} in the output folder adds ${files}${record.reason ? ` (not pushed: ${record.reason})` : ''}; apply it at the head with \`git apply ${PATCH_FILE}\``
  return `Delivery: ${record.mode === 'commit' ? 'committed' : 'a pull request'} with ${files}: ${record.url}`
}
