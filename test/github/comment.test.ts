/** The sticky comment through the real Octokit against fake GitHub: found again by marker and author, edited in place. */
import * as github from '@actions/github'
import { COMMENT_MARKER, commentBody, upsertStickyComment } from '../../src/github/comment.js'
import { linesLogger } from '../support/cli-run.js'
import { startFakeGitHub, type FakeGitHubData } from '../support/fake-github.js'

const target = { owner: 'acme', repo: 'transport', number: 7 }
const marked = (text: string) => `${COMMENT_MARKER}\n${text}`

async function twoRuns(data: FakeGitHubData) {
  const gitHub = await startFakeGitHub(data)
  const lines: string[] = []
  const log = linesLogger(lines)
  try {
    const octokit = github.getOctokit('token', { baseUrl: gitHub.url })
    await upsertStickyComment(octokit, target, 'first verdict', log)
    await upsertStickyComment(octokit, target, 'second verdict', log)
    return { comments: gitHub.comments.map(({ body, user }) => [user.login, body]), lines }
  } finally {
    await gitHub.close()
  }
}

test("with GITHUB_TOKEN, the bot's own marked comment is edited; a person's quote of the marker is not", async () => {
  const run = await twoRuns({ issues: { 'acme/transport#7': { title: 'Fix', body: '', comments: [marked('quoted by a reviewer')] } } })
  expect(run.comments).toEqual([
    ['octocat', marked('quoted by a reviewer')],
    ['github-actions[bot]', marked('second verdict')]
  ])
  expect(run.lines).toEqual(['Commented on the pull request (#2)', 'Updated the pull request comment #2'])
})

test("with GITHUB_TOKEN, another app's bot comment starting with the marker is left alone", async () => {
  const foreign = { login: 'other-app[bot]', type: 'Bot' as const, body: marked('<h1>✅ fail-to-pass (forged)</h1>') }
  const run = await twoRuns({ issues: { 'acme/transport#7': { title: 'Fix', body: '', comments: [foreign] } } })
  expect(run.comments).toEqual([
    ['other-app[bot]', marked('<h1>✅ fail-to-pass (forged)</h1>')],
    ['github-actions[bot]', marked('second verdict')]
  ])
  expect(run.lines).toEqual(['Commented on the pull request (#2)', 'Updated the pull request comment #2'])
})

test("with a personal token, the token user's marked comment is edited; another person's is not", async () => {
  const seeded = [{ login: 'mallory', body: marked('not ours') }, { login: 'release-bot-user', body: marked('an earlier run') }]
  const run = await twoRuns({ tokenUser: 'release-bot-user', issues: { 'acme/transport#7': { title: 'Fix', body: '', comments: seeded } } })
  expect(run.comments).toEqual([
    ['mallory', marked('not ours')],
    ['release-bot-user', marked('second verdict')]
  ])
  expect(run.lines).toEqual(['Updated the pull request comment #2', 'Updated the pull request comment #2'])
})

test('create: false updates our earlier comment, and starts none where there is none', async () => {
  const gitHub = await startFakeGitHub({ issues: { 'acme/transport#7': { title: 'Fix', body: '' }, 'acme/transport#8': { title: 'Fix', body: '', comments: [{ login: 'octocat', body: marked('an earlier verdict') }] } }, tokenUser: 'octocat' })
  const lines: string[] = []
  try {
    const octokit = github.getOctokit('token', { baseUrl: gitHub.url })
    await upsertStickyComment(octokit, target, 'not applicable', linesLogger(lines), { create: false })
    await upsertStickyComment(octokit, { ...target, number: 8 }, 'not applicable', linesLogger(lines), { create: false })
    expect(gitHub.comments.map(({ issue, body }) => [issue, body])).toEqual([['acme/transport#8', marked('not applicable')]])
    expect(lines).toEqual(['No pull request comment: none to update, and this verdict starts none', 'Updated the pull request comment #1'])
  } finally {
    await gitHub.close()
  }
})

test('a long report is cut under GitHub\'s 65,536 characters by whole rows and sections, never inside a <details>', () => {
  const rows = Array.from({ length: 5000 }, (_, index) => `| test/a.test.ts | case ${index} | passed |`)
  const markdown = `# Regression tests for this fix\n\n✅ verdict\n\n## Tests\n| File | Test | At head |\n|---|---|---|\n${rows.join('\n')}\n\n<details><summary><b>Timings</b></summary>\n\n${'| phase | 1 |\n'.repeat(3000)}\n</details>\n`
  expect(markdown.length).toBeGreaterThan(65_536)
  const body = commentBody(markdown)
  expect(body.length).toBeLessThanOrEqual(65_536)
  expect(body.startsWith(`${COMMENT_MARKER}\n# Regression tests for this fix\n\n> ✂️ **Cut to stay under 65,536 characters`)).toBe(true)
  expect(body).toContain('The whole report is in the job summary')
  expect(body).toContain(rows[0])
  expect((body.match(/<details>/g) ?? []).length).toBe((body.match(/<\/details>/g) ?? []).length)
  expect(commentBody('# Short\n')).toBe(`${COMMENT_MARKER}\n# Short\n`)
})
