/**
 * The bundled CLI and action in verify mode on a checkout that kept its token (actions/checkout's default
 * `persist-credentials: true`): in .git/config as v5 writes it, or in a RUNNER_TEMP git-credentials file
 * .git/config includes as v6 does. A test of the pull request reads that config, whatever it includes and
 * the credentials file, and prints them: in the sandbox it finds neither (its .git/config is the tool's copy
 * without credentials, RUNNER_TEMP and /tmp are its own). The token appears in none of the run's outputs,
 * and the run warns where it found it.
 */
import { execFile, execFileSync } from 'node:child_process'
import { chmod, mkdir, mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { randomBytes } from 'node:crypto'
import { promisify } from 'node:util'
import { runBundledAction } from '../support/action-run.js'
import { buildFixtureRepo, fixturesDir, type FixtureRepo } from '../support/fixture-repo.js'
import { describeWhereSandboxed } from '../support/sandbox-probe.js'
import type { Report } from '../../src/report/report.js'

const root = join(import.meta.dirname ?? new URL('.', import.meta.url).pathname, '..', '..')

const base64 = (text: string) => Buffer.from(text).toString('base64')

/**
 * The fixture's own test, and beside it one that reads the checkout's git config, everything it includes
 * and the credentials file (where a test may find it: RUNNER_TEMP is in the job's environment).
 */
function configReadingTest(checkout: string, credentialsFile: string): string {
  const fixTest = execFileSync('cat', [join(fixturesDir(), 'retry-budget', 'fix', 'test', 'streaming-transport.test.ts')], { encoding: 'utf8' })
  return `${fixTest}
import { readFileSync } from 'fs'
const attempt = (read: () => string) => { try { return read() } catch (error) { return String((error as { code?: string }).code) } }
const config = readFileSync(${JSON.stringify(join(checkout, '.git', 'config'))}, 'utf8')
const included = [...config.matchAll(/path = (.+)/g)].map((match) => attempt(() => readFileSync(match[1].trim(), 'utf8'))).join('\\n')
const credentials = attempt(() => readFileSync(${JSON.stringify(credentialsFile)}, 'utf8'))
const header = /extraheader = (.+)/.exec(config + included + credentials)?.[1] ?? 'no extraheader'
const stolen = Buffer.from(header.split(' ').pop() ?? '', 'base64').toString('utf8').split(':')[1] ?? 'nothing'
console.log(config + included + credentials, stolen)
describe('the checkout', () => {
  it('holds ' + stolen, () => expect(stolen).not.toBe('nothing'))
  it('opens the credentials file: ' + (credentials.startsWith('E') ? credentials : 'read'), () => {})
  it('prints its config', () => expect([config, included, credentials, stolen, Buffer.from('a' + stolen).toString('base64'), Buffer.from('xy' + stolen + 'z').toString('base64')].join('\\n')).toBe(''))
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
async function persistToken(repo: FixtureRepo, layout: Layout, header: string, credentials: string): Promise<string> {
  const git = (...args: string[]) => execFileSync('git', args, { cwd: repo.dir })
  if (layout === 'v5: .git/config') {
    git('config', '--local', 'http.https://github.com/.extraheader', header)
    return '.git/config'
  }
  await writeFile(credentials, `[http "https://github.com/"]\n\textraheader = ${header}\n`, { mode: 0o644 })
  git('config', '--local', `includeIf.gitdir:${join(repo.dir, '.git')}.path`, credentials)
  return credentials
}

interface Outputs {
  report: Report
  /** Every output of the run as text, by where it went. */
  texts: Record<string, string>
  /** The log, where the warning goes. */
  log: string
}

/** The bundled CLI, as a job's step would run it: RUNNER_TEMP in its environment. */
async function runCli(repo: FixtureRepo, runnerTemp: string, out: string): Promise<Outputs> {
  const args = [join(root, 'dist/cli/index.js'), 'verify', '--repo', repo.dir, '--base', repo.base, '--head', repo.head, '--out', out]
  const { stdout, stderr } = await promisify(execFile)(process.execPath, args, { env: { PATH: process.env.PATH, HOME: process.env.HOME, RUNNER_TEMP: runnerTemp } })
  const report = JSON.parse(await readFile(join(out, 'report.json'), 'utf8')) as Report
  return { report, texts: { 'the output folder': await outputFolderText(out), 'the terminal': stdout + stderr }, log: stdout + stderr }
}

/** The bundled action, its RUNNER_TEMP the one holding the credentials file. */
async function runAction(repo: FixtureRepo, runnerTemp: string): Promise<Outputs> {
  const run = await runBundledAction({
    event: 'pull_request',
    payload: { number: 7, pull_request: { number: 7, title: 'Fix streaming retries', body: '', base: { sha: repo.base }, head: { sha: repo.head } } },
    workspace: repo.dir,
    env: { RUNNER_TEMP: runnerTemp }
  })
  await rm(run.runnerTemp, { recursive: true, force: true })
  const output = join(runnerTemp, 'regression-testgen')
  const report = JSON.parse(await readFile(join(output, 'report.json'), 'utf8')) as Report
  const warning = "The checkout left credentials in the repository's git config"
  expect(run.summary).toContain(`⚠️ **Credentials in the checkout**: ${warning}`)
  expect(await readFile(join(output, 'run.log'), 'utf8')).toContain(warning)
  return { report, texts: { 'the output folder': await outputFolderText(output), 'the job summary': run.summary, 'the job log': run.stdout }, log: run.stdout }
}

const cases = (['the CLI', 'the action'] as const).flatMap((via) => (['v5: .git/config', 'v6: a RUNNER_TEMP git-credentials file .git/config includes'] as const).map((layout) => [via, layout] as const))

describeWhereSandboxed('credentials a checkout persisted', () => {
  test.each(cases)(
    'through %s, a test finds no token (%s): its git config is a copy without them, RUNNER_TEMP is out of sight; the run still masks and warns',
    async (via, layout) => {
      const token = `ghs_${randomBytes(18).toString('hex')}`
      const header = `AUTHORIZATION: basic ${base64(`x-access-token:${token}`)}`
      const dir = await mkdtemp(join(tmpdir(), 'rtg-persisted-'))
      // As on a runner: the workspace and the runner's temp folder are readable by other users.
      await chmod(dir, 0o755)
      const runnerTemp = join(dir, 'runner-temp')
      await mkdir(runnerTemp, { mode: 0o755 })
      const credentials = join(runnerTemp, `git-credentials-${randomBytes(8).toString('hex')}.config`)
      const repo = await buildFixtureRepo('retry-budget', { dir: join(dir, 'checkout'), headChanges: { 'test/streaming-transport.test.ts': configReadingTest(join(dir, 'checkout'), credentials) } })
      try {
        const holder = await persistToken(repo, layout, header, credentials)
        const configBefore = await readFile(join(repo.dir, '.git', 'config'), 'utf8')
        const run = via === 'the CLI' ? await runCli(repo, runnerTemp, join(dir, 'out')) : await runAction(repo, runnerTemp)
        expect(run.report).toMatchObject({ mode: 'verify', verdict: 'fail-to-pass', isolation: 'sandbox', persistedCredentials: [`${holder}: http.https://github.com/.extraheader`] })
        // The test read its .git/config (the [core] section is there), but no token in it, and no credentials file.
        const byName = new Map(run.report.tests.map((test) => [test.name, test]))
        expect(byName.has('the checkout › holds nothing')).toBe(true)
        expect(byName.has('the checkout › opens the credentials file: ENOENT')).toBe(true)
        const printed = byName.get('the checkout › prints its config')?.message ?? ''
        expect(printed).toContain('[core]')
        expect(printed).not.toMatch(/extraheader|includeIf|git-credentials/i)
        // The checkout's own config is as the checkout left it: the copy is the sandbox's view only.
        expect(await readFile(join(repo.dir, '.git', 'config'), 'utf8')).toBe(configBefore)

        for (const [where, text] of Object.entries(run.texts)) {
          for (const form of [token, base64(`x-access-token:${token}`), base64(token), header]) expect({ where, leaks: text.includes(form) }).toEqual({ where, leaks: false })
        }
        const warning = "The checkout left credentials in the repository's git config"
        expect(run.log).toMatch(new RegExp(`${warning}.*${holder.replace(/[.]/g, '\\.')}.*persist-credentials: false`))
      } finally {
        await rm(dir, { recursive: true, force: true })
      }
    },
    300_000
  )
})
