/** Credentials a checkout left in the repository's config: found, learned as secrets, warned of. */
import { mkdtemp, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { headerSecrets, persistedCredentialsWarning, withCredentialsLearned } from '../src/persisted-credentials.js'
import { createGit } from '../src/ports/git.js'
import { renderMarkdown } from '../src/report/markdown.js'
import { redactor } from '../src/report/redact.js'
import { emptyReport } from '../src/report/report.js'
import { buildSettings } from '../src/settings.js'
import { scratchRepo } from './support/scratch-repo.js'

const TOKEN = 'ghs_PersistedByCheckout0123456789abcdef'
const base64 = (text: string) => Buffer.from(text).toString('base64')
/** What actions/checkout writes: the token as basic credentials of x-access-token. */
const CHECKOUT_HEADER = `AUTHORIZATION: basic ${base64(`x-access-token:${TOKEN}`)}`

const repo = scratchRepo('rtg-credentials-')

describe('the git port finds the extraheaders of the repository\'s own config', () => {
  test('actions/checkout v5: in .git/config', async () => {
    repo.git('init', '-q')
    repo.git('config', '--local', 'http.https://github.com/.extraheader', CHECKOUT_HEADER)
    expect(await createGit(repo.dir).persistedCredentials()).toEqual([{ file: '.git/config', key: 'http.https://github.com/.extraheader', value: CHECKOUT_HEADER }])
  })

  test('actions/checkout v6: in a git-credentials file of RUNNER_TEMP that .git/config includes for this checkout', async () => {
    const runnerTemp = await mkdtemp(join(tmpdir(), 'rtg-runner-temp-'))
    try {
      const credentials = join(runnerTemp, 'git-credentials-5c2a7f0e.config')
      await writeFile(credentials, `[http "https://github.com/"]\n\textraheader = ${CHECKOUT_HEADER}\n`, { mode: 0o644 })
      repo.git('init', '-q')
      repo.git('config', '--local', `includeIf.gitdir:${join(repo.dir, '.git')}.path`, credentials)
      expect(await createGit(repo.dir).persistedCredentials()).toEqual([{ file: credentials, key: 'http.https://github.com/.extraheader', value: CHECKOUT_HEADER }])
    } finally {
      await rm(runnerTemp, { recursive: true, force: true })
    }
  })

  test('none in a plain clone; the user\'s own (global) config is not the checkout\'s', async () => {
    const home = await mkdtemp(join(tmpdir(), 'rtg-home-'))
    try {
      await writeFile(join(home, '.gitconfig'), `[http "https://github.com/"]\n\textraheader = ${CHECKOUT_HEADER}\n`)
      repo.git('init', '-q')
      repo.git('config', '--local', 'http.sslVerify', 'true')
      const git = createGit(repo.dir, { parentEnv: { ...process.env, HOME: home } })
      expect(await git.inTree(repo.dir, ['config', '--global', '--get', 'http.https://github.com/.extraheader'])).toContain('basic')
      expect(await git.persistedCredentials()).toEqual([])
    } finally {
      await rm(home, { recursive: true, force: true })
    }
  })
})

describe('what an extraheader holds that is secret', () => {
  test('basic credentials: the value, the base64, the pair and the token', () => {
    expect(headerSecrets(CHECKOUT_HEADER)).toEqual([CHECKOUT_HEADER, base64(`x-access-token:${TOKEN}`), `x-access-token:${TOKEN}`, TOKEN])
  })

  test('a bearer token; a value with no scheme is kept whole', () => {
    expect(headerSecrets('Authorization: Bearer ghp_bearer0123456789')).toEqual(['Authorization: Bearer ghp_bearer0123456789', 'ghp_bearer0123456789'])
    expect(headerSecrets('  opaque-value-0123456789  ')).toEqual(['opaque-value-0123456789'])
  })

  test('basic with what is not base64 of a pair: no decoded garbage becomes a secret', () => {
    expect(headerSecrets('AUTHORIZATION: basic not*base64!')).toEqual(['AUTHORIZATION: basic not*base64!', 'not*base64!'])
  })
})

test('learned, the token is masked in every form a test could print it in, and the warning names where it is', () => {
  const given = buildSettings({ mode: 'verify', repo: '/repo', base: 'main', head: 'HEAD', secrets: [] })
  const settings = withCredentialsLearned(given, [{ file: '.git/config', key: 'http.https://github.com/.extraheader', value: CHECKOUT_HEADER }])
  expect(settings.persistedCredentials).toEqual(['.git/config: http.https://github.com/.extraheader'])
  const redact = redactor(settings.secrets)
  expect([TOKEN, `x-access-token:${TOKEN}`, `token=${TOKEN}`, base64(`x-access-token:${TOKEN}`)].map(redact)).toEqual(['***', '***', 'token=***', '***'])
  // Encoded inside a longer text, at each alignment: only the characters shared with its neighbours are left.
  for (const encoded of [base64(`a${TOKEN}`), base64(`ab${TOKEN}c`), base64(`abc${TOKEN}de`)]) expect(redact(encoded)).toMatch(/^[^*]{0,4}\*\*\*[^*]{0,5}$/)
  // Nothing found: the settings as they were.
  expect(withCredentialsLearned(given, [])).toBe(given)
})

test('report.md warns of them and points to persist-credentials: false, as the log does', () => {
  const places = ['/home/runner/work/_temp/git-credentials-5c2a.config: http.https://github.com/.extraheader']
  const markdown = renderMarkdown({ ...emptyReport('verify', '/repo', 'b', 'h'), verdict: 'fail-to-pass', reason: null, persistedCredentials: places })
  expect(markdown).toContain('⚠️ **Credentials in the checkout**')
  expect(markdown).toContain(places[0])
  expect(markdown).toContain('persist-credentials: false')
  expect(persistedCredentialsWarning(places)).toContain('persist-credentials: false')
  expect(renderMarkdown({ ...emptyReport('verify', '/repo', 'b', 'h'), verdict: 'not-applicable', reason: 'nothing', persistedCredentials: places })).toContain('persist-credentials: false')
  expect(renderMarkdown({ ...emptyReport('verify', '/repo', 'b', 'h'), verdict: 'fail-to-pass', reason: null })).not.toContain('Credentials in the checkout')
})
