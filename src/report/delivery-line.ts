/**
 * Where the proven suite went, as report.md (and so the job summary and the comment) says it, and the
 * commands that apply a patch by hand. Untrusted text stays text (markdown-text.ts).
 */
import { DELIVERY_MARKER, type DeliveryRecord } from '../deliver/delivery.js'
import { PATCH_FILE } from '../deliver/patch.js'
import { inertText, inlineCode } from './markdown-text.js'

/** A URL the destination gave, as a link only when it is a plain http(s) one. */
const link = (url: string, text: string) => (/^https?:\/\/[^\s()<>[\]]+$/.test(url) ? `[${text}](${url})` : `${text} ${inlineCode(url)}`)

export function deliveryLine(delivery: DeliveryRecord | undefined): string | null {
  if (!delivery) return null
  const files = delivery.files.map((path) => inlineCode(path)).join(', ')
  switch (delivery.mode) {
    case 'commit':
      return `📬 **Delivered** as a ${link(delivery.url ?? '', 'commit')} on the pull request's branch: ${files}.`
    case 'pull-request':
      return `📬 **Delivered** as a ${link(delivery.url ?? '', 'pull request')} into this one: ${files}.`
    case 'patch':
      return `📬 **Delivered as a patch**: ${inlineCode(PATCH_FILE)} in the output folder (and the artifact) adds ${files}; \`git apply ${PATCH_FILE}\` at the head.${delivery.reason ? ` Not pushed: ${inertText(delivery.reason)}.` : ''}`
    case 'none':
      return `📭 Not delivered: ${inertText(delivery.reason ?? '')}.`
  }
}

export interface ApplyFrom {
  pullRequest: number
  /** The workflow run whose artifact holds suite.patch; null: outside a run. */
  runId: string | null
  artifactName: string
}

/**
 * The commands that put a patch into the pull request by hand, folded away. No untrusted text goes into
 * them (no title, no path): `git apply --index` stages exactly what the patch adds. The artifact's name
 * holds no quote (input-helper.ts refuses one), so single quotes keep it one word.
 */
export function applyCommands(delivery: DeliveryRecord, from: ApplyFrom): string | null {
  if (delivery.mode !== 'patch') return null
  const download = from.runId
    ? `gh run download ${from.runId} --name '${from.artifactName}' --dir /tmp/regression-testgen`
    : `# download the artifact '${from.artifactName}' of this run and unpack it into /tmp/regression-testgen`
  return [
    '<details><summary>Apply the suite to this pull request</summary>',
    '',
    '```sh',
    `gh pr checkout ${from.pullRequest}`,
    `${download} && git apply --index /tmp/regression-testgen/${PATCH_FILE}`,
    // The marker: the run on this commit delivers nothing again.
    `git commit -m "test: regression tests from regression-testgen" -m "${DELIVERY_MARKER}" && git push`,
    '```',
    '',
    '</details>'
  ].join('\n')
}
