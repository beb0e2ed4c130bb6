/**
 * The delivery's words (issue 24 item 1): the commit's title and message, which are also the follow-up
 * pull request's title and body. Everything untrusted (the bug report's title, the model's scenarios and
 * concerns, test names, paths) goes through report/markdown-text.ts, as in report.md: it stays text.
 */
import type { SuiteFile } from '../domain.js'
import { inertText, inlineCode } from '../report/markdown-text.js'
import type { Report } from '../report/report.js'
import { forTerminal } from '../text.js'
import { DELIVERY_MARKER } from './delivery.js'
import { issueUrl, pullRequestUrl, runUrl, type GitHubLinks } from './links.js'

/** Git's advice for a commit's first line; GitHub shortens longer titles in lists anyway. */
export const MAX_TITLE_LENGTH = 72
const TITLE_PREFIX = 'test: regression tests for '

export interface MessageFacts {
  report: Report
  /** The files delivered: the message names only their tests. */
  files: SuiteFile[]
  links: GitHubLinks | null
  /** The linked issues' references (`owner/name#12`), when the bug report came from them. */
  issueReferences: string[]
}

export interface DeliveryMessage {
  title: string
  body: string
}

export function deliveryMessage(facts: MessageFacts): DeliveryMessage {
  return { title: deliveryTitle(facts.report), body: deliveryBody(facts) }
}

/** One plain line: no control character, no line break, at most MAX_TITLE_LENGTH characters. */
export function deliveryTitle(report: Report): string {
  const subject = forTerminal(report.bugReport?.title ?? '').replace(/\s+/g, ' ').trim() || `the fix in ${report.repository.head.slice(0, 7)}`
  const room = MAX_TITLE_LENGTH - TITLE_PREFIX.length
  const characters = [...subject]
  return TITLE_PREFIX + (characters.length > room ? `${characters.slice(0, room - 1).join('').trimEnd()}…` : subject)
}

function deliveryBody(facts: MessageFacts): string {
  const { report, files } = facts
  const paths = new Set(files.map((file) => file.path))
  const tests = report.tests.filter((test) => paths.has(test.file))
  const run = runUrl(facts.links)
  return [
    verdictLine(report, tests.length),
    bugReportLine(facts),
    scenarios(report, tests),
    hunks(report, new Set(tests.map((test) => test.name))),
    fixConcerns(report),
    ['Files:', ...files.map((file) => `- ${inlineCode(file.path)}`)].join('\n'),
    run && `Run: ${run}`,
    DELIVERY_MARKER
  ]
    .filter(Boolean)
    .join('\n\n')
}

function verdictLine(report: Report, testCount: number): string {
  const failToPass = report.tests.filter((test) => test.kind === 'fail-to-pass').length
  const runs = report.runs.head ? ` (${report.runs.head} runs at head, ${report.runs.preFix} on the pre-fix tree)` : ''
  return `Verdict: **${report.verdict}** — ${failToPass} test(s) fail on the pre-fix code and pass with the fix${runs}; ${testCount} test(s) delivered, generated and proven by regression-testgen.`
}

function bugReportLine({ report, links, issueReferences }: MessageFacts): string | null {
  if (!report.bugReport) return null
  const where =
    report.bugReport.source === 'linked-issues'
      ? issueReferences.map((reference) => issueUrl(links, reference)).filter(Boolean)
      : report.bugReport.source === 'pull-request'
        ? [pullRequestUrl(links)].filter(Boolean)
        : []
  return `Bug report (${report.bugReport.source}): ${inertText(report.bugReport.title)}${where.length ? ` — ${where.join(', ')}` : ''}`
}

/** Each scenario with the delivered tests written for it. */
function scenarios(report: Report, tests: Report['tests']): string | null {
  const lines = report.scenarios.flatMap((scenario) => {
    const own = tests.filter((test) => test.scenario === scenario.name)
    if (own.length === 0) return []
    return [`- ${inertText(scenario.name)} (${scenario.priority}, ${inertText(scenario.kind)}): ${own.map((test) => `${inlineCode(test.name)} (${test.kind})`).join(', ')}`]
  })
  const unplanned = tests.filter((test) => !report.scenarios.some((scenario) => scenario.name === test.scenario))
  if (unplanned.length) lines.push(`- Other tests: ${unplanned.map((test) => `${inlineCode(test.name)} (${test.kind})`).join(', ')}`)
  return lines.length ? ['Scenarios and their tests:', ...lines].join('\n') : null
}

/** Which delivered test fails with each hunk of the fix taken out alone (report.hunks). */
function hunks(report: Report, delivered: ReadonlySet<string>): string | null {
  if (!report.hunks?.length) return null
  const lines = report.hunks.map((hunk) => {
    const guards = hunk.guardedBy?.filter((name) => delivered.has(name)) ?? null
    const by = guards === null ? 'not checked' : guards.length ? guards.map(inlineCode).join(', ') : 'no delivered test'
    return `- ${inlineCode(hunk.file)} lines ${hunk.startLine}–${hunk.endLine}: ${by}`
  })
  return ['The hunks of the fix each test guards (it fails with that hunk alone taken out):', ...lines].join('\n')
}

/** Listed, never delivered: their tests fail at head by design. */
function fixConcerns(report: Report): string | null {
  if (!report.fixConcerns.length) return null
  const lines = report.fixConcerns.map((concern) => `- ${inlineCode(concern.input)}: expected ${inertText(concern.expected)}; the fixed code: ${inertText(concern.actual)} (${inlineCode(concern.where.file)} · ${inlineCode(concern.where.function)})`)
  return ['The fix may be incomplete (these inputs are not covered by the delivered tests, which pass at head; their failing tests stay in the run\'s artifact):', ...lines].join('\n')
}
