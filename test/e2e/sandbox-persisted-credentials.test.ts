/**
 * The bundled action in verify mode on a checkout that kept its token (actions/checkout's default
 * `persist-credentials: true`): in .git/config as v5 writes it, or in a RUNNER_TEMP git-credentials file
 * .git/config includes as v6 does. A test of the pull request prints that config, the token decoded from it
 * and the token re-encoded; the token the tool was never given appears in none of the run's outputs, and
 * the run warns where it found it.
 */
import { execFileSync } from 'node:child_process'
import { chmod, mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { randomBytes } from 'node:crypto'
import { runBundledAction } from '../support/action-run.js'
import { buildFixtureRepo, fixturesDir, type FixtureRepo } from '../support/fixture-repo.js'

const base64 = (text: string) => Buffer.from(text).toString('base64')

/** The fixture's own test, and beside it one that reads the checkout's git config and everything it includes. */
function configReadingTest(checkout: string): string {
  const fixTest = execFileSync('cat', [join(fixturesDir(), 'retry-budget', 'fix', 'test', 'streaming-transport.test.ts')], { encoding: 'utf8' })
  return `${fixTest}
import { readFileSync } from 'fs'
const config = readFileSync(${JSON.stringify(join(checkout, '.git', 'config'))}, 'utf8')
const included = [...config.matchAll(/path = (.+)/g)].map((match) => readFileSync(match[1].trim(), 'utf8')).join('\\n')
const header = /extraheader = (.+)/.exec(config + included)?.[1] ?? 'no extraheader'
const stolen = Buffer.from(header.split(' ').pop() ?? '', 'base64').toString('utf8').split(':')[1] ?? 'nothing'
console.log(config + included, stolen)
describe('the checkout', () => {
  it('holds ' + stolen, () => expect(stolen).not.toBe('nothing'))
  it('prints its config', () => expect([config, included, stolen, Buffer.from('a' + stolen).toString('base64'), Buffer.from('xy' + stolen + 'z').toString('base64')].join('\\n')).toBe(''))
})
`
}

/** Every file the run wrote in its output folder, as one text. */
async function outputFolderText(dir: string): Promise<string> {
  const entries = await readdir(dir, { recursive: true, withFileTypes: true })
  const files = entries.filter((entry) => entry.isFile()).map((entry) => join(entry.parentPath, entry.name))
  return (await Promise.all(files.map((file) => readFile(file, 'utf8')))).join('\n')
}

type Layout = 'v5: .git/config' | 'v6: a RUNNER_TEMP git-credentials file .git/config includes'

/** Writes the token where actions/checkout would, readable by any user as there; returns the config file that holds it. */
async function persistToken(repo: FixtureRepo, layout: Layout, header: string, tempDir: string): Promise<string> {
  const git = (...args: string[]) => execFileSync('git', args, { cwd: repo.dir })
  if (layout === 'v5: .git/config') {
    git('config', '--local', 'http.https://github.com/.extraheader', header)
    return '.git/config'
  }
  const credentials = join(tempDir, `git-credentials-${randomBytes(8).toString('hex')}.config`)
  await writeFile(credentials, `[http "https://github.com/"]\n\textraheader = ${header}\n`, { mode: 0o644 })
  git('config', '--local', `includeIf.gitdir:${join(repo.dir, '.git')}.path`, credentials)
  return credentials
}

test.each<Layout>(['v5: .git/config', 'v6: a RUNNER_TEMP git-credentials file .git/config includes'])(
  'a token the checkout persisted (%s), printed by a test, is masked everywhere, and the run warns of it',
  async (layout) => {
    const token = `ghs_${randomBytes(18).toString('hex')}`
    const header = `AUTHORIZATION: basic ${base64(`x-access-token:${token}`)}`
    const dir = await mkdtemp(join(tmpdir(), 'rtg-persisted-'))
    // As on a runner: the workspace and the runner's temp folder are readable by other users.
    await chmod(dir, 0o755)
    const repo = await buildFixtureRepo('retry-budget', { dir: join(dir, 'checkout'), headChanges: { 'test/streaming-transport.test.ts': configReadingTest(join(dir, 'checkout')) } })
    try {
      const holder = await persistToken(repo, layout, header, dir)
      const run = await runBundledAction({
        event: 'pull_request',
        payload: { number: 7, pull_request: { number: 7, title: 'Fix streaming retries', body: '', base: { sha: repo.base }, head: { sha: repo.head } } },
        workspace: repo.dir
      })
      expect(run.report).toMatchObject({ mode: 'verify', verdict: 'fail-to-pass', persistedCredentials: [`${holder}: http.https://github.com/.extraheader`] })
      // The test did read the token: its titles and messages are in the report, with the token masked.
      const names = run.report!.tests.map((test) => test.name)
      expect(names).toContain('the checkout › holds ***')
      expect(run.report!.tests.find((test) => test.name === 'the checkout › prints its config')?.message).toContain('extraheader = ***')

      const outputs = { 'the output folder': await outputFolderText(join(run.runnerTemp, 'regression-testgen')), 'the job summary': run.summary, 'the job log': run.stdout }
      for (const [where, text] of Object.entries(outputs)) {
        for (const form of [token, base64(`x-access-token:${token}`), base64(token), header]) expect({ where, leaks: text.includes(form) }).toEqual({ where, leaks: false })
      }
      const warning = "The checkout left credentials in the repository's git config"
      expect(run.stdout).toMatch(new RegExp(`::warning::${warning}.*${holder.replace(/[.]/g, '\\.')}.*persist-credentials: false`))
      expect(run.summary).toContain(`⚠️ **Credentials in the checkout**: ${warning}`)
      expect(await readFile(join(run.runnerTemp, 'regression-testgen', 'run.log'), 'utf8')).toContain(warning)
      await rm(run.runnerTemp, { recursive: true, force: true })
    } finally {
      await rm(dir, { recursive: true, force: true })
    }
  },
  300_000
)
