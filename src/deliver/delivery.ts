/**
 * Where the proven suite goes once the verdict is in (issue 24): the contract between the deliver stage
 * (src/deliver/), which picks the files and writes the message and the patch, and the destinations that
 * push them (the action's GitHub one, src/github/). The CLI has no destination: it writes the patch and,
 * with --apply, the files into the working tree.
 */
import type { SuiteFile } from '../domain.js'

/** What the user asked for (`deliver` input, `--deliver` flag). */
export const DELIVER_MODES = ['artifact', 'commit', 'pull-request', 'patch'] as const
export type DeliverMode = (typeof DELIVER_MODES)[number]

/** What happened (`delivered` output, report.json `delivery.mode`): a refused push falls back to `patch`. */
export type DeliveredAs = 'commit' | 'pull-request' | 'patch' | 'none'

/**
 * In the message of every commit the tool makes: a run whose head commit carries it is a run on the tool's
 * own commit, and delivers nothing again.
 */
export const DELIVERY_MARKER = 'Regression-Testgen-Delivery: true'

/** The files and the words that go with them, ready to push: every file already redacted and path-checked. */
export interface Delivery {
  /** The generated files to deliver, at their repository paths (never concern tests, `.github/`, or a file the PR has). */
  files: SuiteFile[]
  /** The commit's first line and the follow-up pull request's title. */
  title: string
  /** The commit message's body and the follow-up pull request's body (markdown); ends with DELIVERY_MARKER. */
  body: string
  /** The commit the files are added to: the pull request's head. */
  head: string
}

/** report.json `delivery`, the `delivered` and `delivery-url` outputs. */
export interface DeliveryRecord {
  mode: DeliveredAs
  /** The repository paths delivered (or that the patch adds). */
  files: string[]
  /** The commit or pull request; null for a patch or nothing. */
  url: string | null
  /** Why it is not what was asked for (a fork, a missing permission, a moved branch…), or why nothing. */
  reason: string | null
}

/** A push somewhere (the action's GitHub): `null` result fields say why it could not, and the stage falls back to the patch. */
export interface SuiteDestination {
  push(delivery: Delivery, mode: 'commit' | 'pull-request'): Promise<PushResult>
}

export type PushResult = { pushed: true; url: string } | { pushed: false; reason: string }
