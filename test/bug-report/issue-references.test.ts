import { referencedIssues, reportedIssueNumber } from '../../src/bug-report/issue-references.js'

const here = { owner: 'acme', repo: 'transport' }

test('closing keywords, in any case, with or without a colon', () => {
  expect(referencedIssues('Fixes #12. Also CLOSES: #13 and resolved #14', here)).toEqual([
    { owner: 'acme', repo: 'transport', number: 12 },
    { owner: 'acme', repo: 'transport', number: 13 },
    { owner: 'acme', repo: 'transport', number: 14 }
  ])
})

test('cross-repository references and issue URLs', () => {
  expect(referencedIssues('fix other-org/lib.js#7\nSee https://github.com/acme/transport/issues/4471 for details', here)).toEqual([
    { owner: 'other-org', repo: 'lib.js', number: 7 },
    { owner: 'acme', repo: 'transport', number: 4471 }
  ])
})

test('each issue once; mentions without a keyword, comments and code blocks do not count', () => {
  const body = 'Fixes #1, fixes #1 again. Related to #2.\n<!-- fixes #3 -->\n```\nfixes #4\n```\nprefix#5 fixes#6'
  expect(referencedIssues(body, here)).toEqual([{ owner: 'acme', repo: 'transport', number: 1 }])
})

test('no reference: nothing', () => {
  expect(referencedIssues('Refactor the transport', here)).toEqual([])
  expect(referencedIssues('', here)).toEqual([])
})

test.each([
  ['Streaming calls never retry (#4471)', '', 4471],
  ['fix(joinURL): handle leading dot (resolves #35)', '', 35],
  ['handle leading dot for joinURL', "joinURL('/', './') returns '/./'. Related to #14.", null],
  ['Fix the parser (#1804)', 'Fixes #1800', 1800],
  ['Fix the parser', 'Fixes other/lib#9, see https://github.com/other/lib/issues/9', null],
  ['Fix the parser', 'closes #12 and fixes #13', 12]
])('the issue a report is about: %j %j → %s', (title, body, number) => {
  expect(reportedIssueNumber(title, body)).toBe(number)
})
