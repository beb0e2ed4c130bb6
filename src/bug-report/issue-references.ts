/**
 * The issues a text says it fixes: closing keywords (`Fixes #12`, `closes owner/repo#3`) and
 * issue URLs, in order, each once. GraphQL's closingIssuesReferences comes first when available; this
 * covers what it misses (cross-repository references, URLs, PRs whose body was edited later).
 */

export interface IssueReference {
  owner: string
  repo: string
  number: number
}

const KEYWORDS = 'close|closes|closed|fix|fixes|fixed|resolve|resolves|resolved'
const NAME = '[A-Za-z0-9](?:[A-Za-z0-9-]{0,38})'
const REPO = '[A-Za-z0-9._-]{1,100}'
const KEYWORD_REFERENCE = new RegExp(`\\b(?:${KEYWORDS}):?\\s+(?:(${NAME})/(${REPO}))?#(\\d+)\\b`, 'gi')
const ISSUE_URL = new RegExp(`https://github\\.com/(${NAME})/(${REPO})/issues/(\\d+)\\b`, 'g')

/** Stands for "this repository" where a reference names none. */
const HERE = { owner: '', repo: '' }

/**
 * The number of the issue a bug report is about, to name the suite after: the first closing reference to
 * this repository (`resolves #35`), else a `#N` in the title (`… (#4471)`). A mention (`related to #14`) is not it.
 */
export function reportedIssueNumber(title: string, body: string): number | null {
  const closing = referencedIssues(`${title}\n${body}`, HERE).find((reference) => reference.owner === HERE.owner)
  const inTitle = /#(\d+)\b/.exec(title)?.[1]
  return closing?.number ?? (inTitle ? Number(inTitle) : null)
}

export function referencedIssues(body: string, current: { owner: string; repo: string }): IssueReference[] {
  const text = body.replace(/<!--[\s\S]*?-->/g, '').replace(/```[\s\S]*?```/g, '')
  const found: Array<{ at: number; reference: IssueReference }> = []
  for (const match of text.matchAll(KEYWORD_REFERENCE)) {
    found.push({ at: match.index!, reference: { owner: match[1] ?? current.owner, repo: match[2] ?? current.repo, number: Number(match[3]) } })
  }
  for (const match of text.matchAll(ISSUE_URL)) {
    found.push({ at: match.index!, reference: { owner: match[1], repo: match[2], number: Number(match[3]) } })
  }
  const seen = new Set<string>()
  return found
    .sort((a, b) => a.at - b.at)
    .map((entry) => entry.reference)
    .filter((reference) => {
      const key = `${reference.owner.toLowerCase()}/${reference.repo.toLowerCase()}#${reference.number}`
      return !seen.has(key) && seen.add(key)
    })
}
