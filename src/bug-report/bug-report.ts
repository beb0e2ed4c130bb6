/** The bug-report stage: the issue (file or text), the pull request, or else the commit messages. */
import { readFile } from 'node:fs/promises'
import type { BugReport } from '../domain.js'
import type { GitCommands } from '../ports/git.js'
import type { BugReportSource, LinkedIssue } from '../settings.js'
import { UserFacingError } from '../errors.js'
import { reportedIssueNumber } from './issue-references.js'
import { BUG_REPORT_BUDGET, sanitizeUntrusted, truncate } from './sanitize.js'

export async function readBugReport(source: BugReportSource, git: GitCommands, base: string, head: string): Promise<BugReport> {
  const given = await givenIssue(source)
  if (given) return given
  if (source.linkedIssues?.length) return fromLinkedIssues(source.linkedIssues)
  if (source.pullRequest) return build(source.pullRequest.title, source.pullRequest.body, 'pull-request')
  const messages = await git.commitMessages(base, head)
  const title = messages[0]?.split('\n')[0] ?? ''
  return build(title, messages.join('\n\n---\n\n'), 'commits')
}

/**
 * The issue the user gave (a file or a text), read and checked: the CLI calls this before any work, so a
 * missing file or a blank text ends the run before the trees and the sandbox. Null: none was given.
 */
export async function givenIssue(source: BugReportSource): Promise<BugReport | null> {
  if (source.issueFile) return notBlank(fromMarkdown(await readIssueFile(source.issueFile), 'issue-file'), `The issue file ${source.issueFile}`, 'pass --issue a markdown file whose first line is the title')
  if (source.issueText) return notBlank(fromMarkdown(source.issueText, 'issue-text'), 'The issue text', 'pass --issue-text the bug report, its first line the title')
  return null
}

async function readIssueFile(path: string): Promise<string> {
  try {
    return await readFile(path, 'utf8')
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code
    const why = code === 'ENOENT' ? 'it does not exist' : code === 'EISDIR' ? 'it is a folder' : code === 'EACCES' ? 'it is not readable' : (error as Error).message
    throw new UserFacingError(`Cannot read the issue file ${path}: ${why}`, 'pass --issue a readable markdown file')
  }
}

/** A title and a body that are both blank (after sanitizing) tell the model nothing about the bug. */
function notBlank(report: BugReport, what: string, hint: string): BugReport {
  if (!report.title.trim() && !report.body.trim()) throw new UserFacingError(`${what} is empty: an empty issue is not a bug report`, hint)
  return report
}

/** The first line (a `# heading` or plain) is the title; the rest is the body. */
function fromMarkdown(markdown: string, source: BugReport['source']): BugReport {
  const [first = '', ...rest] = sanitizeUntrusted(markdown).split('\n')
  return build(first.replace(/^#+\s*/, ''), rest.join('\n'), source)
}

function build(title: string, body: string, source: BugReport['source'], issue = reportedIssueNumber(title, body)): BugReport {
  const bounded = truncate(sanitizeUntrusted(body), BUG_REPORT_BUDGET)
  return { title: sanitizeUntrusted(title).slice(0, 300), body: bounded.text, source, truncated: bounded.truncated, issue }
}

/** Each issue's title, body and first comments, the first issue's title as the report's. */
function fromLinkedIssues(issues: LinkedIssue[]): BugReport {
  const sections = issues.map((issue) =>
    [`## ${issue.reference}: ${issue.title}`, issue.body, ...issue.comments.map((comment, index) => `### Comment ${index + 1}\n${comment}`)].join('\n\n')
  )
  return build(issues[0].title, sections.join('\n\n'), 'linked-issues', Number(issues[0].reference.split('#')[1]))
}
