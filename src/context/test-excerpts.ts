/**
 * A long existing test file, shown as the style example the way a large changed module is shown (the rule
 * in budget.ts): its head (imports, setup), the tests that name the changed code whole, and the titles of
 * the other tests with their lines, for the model to read with its read tools.
 */
import { escapeRegExp } from '../regexp.js'
import { ClippedText } from './budget.js'
import { joinSpans, type Span } from './functions.js'
import { LineIndex } from './line-index.js'

/** A test or a group of tests opening on this line (JavaScript runners, pytest, unittest). */
const TEST_OPENING = /^\s*(?:(?:describe|context|suite|it|test|specify)(?:\.\w+)*\s*\(|(?:async\s+)?def\s+test\w*\s*\(|class\s+Test\w*\s*[(:])/
/** A single test, not a group. */
const SINGLE_TEST = /^\s*(?:(?:it|test|specify)(?:\.\w+)*\s*\(|(?:async\s+)?def\s+test\w*\s*\()/
/** The head (imports, setup) takes at most this share of the limit. */
const HEAD_SHARE = 1 / 3
/** Room for the titles of the tests not shown. */
const TITLES_ROOM = 1_500
const TITLE_LINE = 120
/** Names too common in tests to say a test is about the changed code. */
const COMMON_NAMES = new Set(['expect', 'assert', 'require', 'describe', 'test', 'Error', 'String', 'Number', 'Object', 'Array', 'JSON', 'Math', 'Promise', 'Boolean', 'Date', 'Symbol', 'Map', 'Set', 'self', 'super', 'isinstance', 'str', 'int', 'dict', 'list'])

/**
 * `content` within `limit` characters: whole when it fits; by parts when some of its tests name any of
 * `names` (the changed code's); else null, for the caller to cut it as a prefix.
 */
export function testsNamingTheChange(content: string, names: readonly string[], limit: number): string | null {
  if (content.length <= limit) return content
  const wanted = names.filter((name) => name.length >= 3 && !COMMON_NAMES.has(name))
  if (wanted.length === 0) return null
  const naming = new RegExp(`(?<![\\w$])(?:${wanted.map(escapeRegExp).join('|')})(?![\\w$])`)
  const index = new LineIndex(content)
  const openings = index.lines.flatMap((line, at) => (TEST_OPENING.test(line) ? [{ start: at, end: index.blockEnd(at), single: SINGLE_TEST.test(line) }] : []))
  const tests = openings.filter((opening) => opening.single)
  const relevant = tests.filter((test) => naming.test(index.text(test.start, test.end)))
  if (relevant.length === 0) return null
  const picked: Span[] = []
  let left = limit - TITLES_ROOM
  const take = (from: number, to: number) => {
    const cost = index.size(from, to) + 40
    if (to < from || cost > left) return false
    picked.push([from, to])
    left -= cost
    return true
  }
  // The head up to the first test, or the part of it that fits its share.
  const headEnd = (openings[0]?.start ?? index.lineCount) - 1
  let head = headEnd
  while (head >= 0 && index.size(0, head) > limit * HEAD_SHARE) head--
  take(0, head)
  for (const test of relevant) {
    // The groups around a test open and close on lines of their own: shown too, so the test reads in its place.
    const groups = openings.filter((opening) => !opening.single && opening.start < test.start && opening.end >= test.end)
    for (const group of groups) take(group.start, group.start)
    take(test.start, test.end)
    for (const group of groups.reverse()) if (group.end > test.end) take(group.end, group.end)
  }
  // A gap of blank lines alone is shown: a marker there would cost more and say nothing.
  const spans = joinSpans(picked).reduce<Span[]>((kept, span) => {
    const last = kept[kept.length - 1]
    if (last && index.lines.slice(last[1] + 1, span[0]).every((line) => !line.trim())) last[1] = span[1]
    else kept.push(span)
    return kept
  }, [])
  const shown = (line: number) => spans.some(([from, to]) => line >= from && line <= to)
  const text = new ClippedText(limit - TITLES_ROOM, index.lines)
  for (const [from, to] of spans) text.show(from, to)
  const last = index.lines[index.lineCount - 1] === '' ? index.lineCount - 2 : index.lineCount - 1
  const titles = tests.filter((test) => !shown(test.start)).map((test) => `${test.start + 1}: ${index.lines[test.start].trim().slice(0, TITLE_LINE)}`)
  return [text.finish(last), ...titlesWithin(titles, TITLES_ROOM)].join('\n')
}

const TITLES_HEADING = '… (the other tests of the file, by line, to read what you need:)'

/** The titles that fit `room`, with the line joining them to the code and a marker for the rest. */
function titlesWithin(titles: string[], room: number): string[] {
  if (titles.length === 0) return []
  const kept: string[] = ['', TITLES_HEADING]
  // The line breaks before the heading and the closing marker.
  let left = room - TITLES_HEADING.length - 3 - 40
  for (const title of titles) {
    if (title.length + 1 > left) break
    kept.push(title)
    left -= title.length + 1
  }
  const more = titles.length - (kept.length - 2)
  return more > 0 ? [...kept, `[… ${more} more tests left out]`] : kept
}
