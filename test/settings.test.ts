import { describeError, SettingsError } from '../src/errors.js'
import { ACTION_API_KEY_NAMES } from '../src/github/input-helper.js'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { buildSettings, DEFAULT_MODEL, defaultOutDir, type RawSettings } from '../src/settings.js'

const base = { base: 'a1', head: 'b2', repo: '/repo' }

test('generate mode reads the model settings, with defaults', () => {
  const settings = buildSettings({ ...base, apiKey: 'k' }, '/cwd', { HOME: '/home/me' })
  expect(settings).toMatchObject({ mode: 'generate', repoDir: '/repo', outDir: expect.stringMatching(/^\/home\/me\/\.cache\/regression-testgen\/repo-[0-9a-f]{8}$/), onNoFailToPass: 'fail', onFixConcern: 'warn' })
  expect(settings.model).toEqual({ apiKey: 'k', model: DEFAULT_MODEL, maxTokens: 16000, baseURL: undefined, maxRetries: 4, maxCalls: 30, toolRounds: 6, responseCacheDir: null })
})

test('tool-rounds 0 turns the repository reads off', () => {
  expect(buildSettings({ ...base, apiKey: 'k', toolRounds: '0' }).model?.toolRounds).toBe(0)
})

test('verify mode needs no key and has no model', () => {
  expect(buildSettings({ ...base, mode: 'verify' }).model).toBeNull()
})

test('reruns from 2 to 20 are taken as given', () => {
  expect([buildSettings({ ...base, mode: 'verify', reruns: '2' }).reruns, buildSettings({ ...base, mode: 'verify', reruns: '20' }).reruns]).toEqual([2, 20])
})

test.each([
  [{ ...base, apiKey: 'k', onNoFailToPass: 'maybe' }, 'Invalid on-no-fail-to-pass: "maybe" is not one of fail, warn'],
  [{ ...base, apiKey: 'k', onFixConcern: 'error' }, 'Invalid on-fix-concern: "error" is not one of warn, fail'],
  [{ ...base, apiKey: 'k', maxTokens: '-3' }, 'Invalid max-tokens: "-3" is not a positive whole number'],
  [{ ...base, mode: 'verify', reruns: '1' }, 'Invalid reruns: "1" is below 2: the suite runs at least 2 times at head (once plain, once with coverage)'],
  [{ ...base, mode: 'verify', reruns: 'three' }, 'Invalid reruns: "three" is not a positive whole number'],
  [{ ...base, mode: 'verify', reruns: '21' }, 'Invalid reruns: "21" is above 20'],
  [{ ...base, mode: 'verify', issueFile: 'bug.md' }, 'Invalid issue: verify mode reads no bug report'],
  [{ ...base, mode: 'verify', issueText: 'Crash' }, 'Invalid issue-text: verify mode reads no bug report'],
  [{ ...base, apiKey: 'k', issueText: ' \n ' }, 'Invalid issue-text: the text is empty'],
  [{ ...base, apiKey: 'k', issueFile: ' ' }, 'Invalid issue: the path of a markdown file is required'],
  [{ ...base, apiKey: 'k', issueFile: 'bug.md', issueText: 'Crash' }, 'Invalid issue-text: the bug report comes from issue (a file) or issue-text, not both'],
  [{ ...base, apiKey: 'k', toolRounds: '-1' }, 'Invalid tool-rounds: "-1" is not a whole number (0 or more)'],
  [{ ...base, apiKey: 'k', toolRounds: '2.5' }, 'Invalid tool-rounds: "2.5" is not a whole number (0 or more)'],
  [{ ...base, apiKey: 'k', baseURL: 'not a url' }, 'Invalid anthropic-base-url: "not a url" is not a URL'],
  [{ ...base, mode: 'verify', head: ' ' }, 'Invalid head: a commit SHA or ref is required'],
  [{ ...base, mode: 'fix' }, 'Invalid mode: "fix" is not one of generate, verify'],
  // base and head reach git as arguments: nothing that reads as an option, or splits or hides in a log line.
  [{ ...base, mode: 'verify', head: '--upload-pack=touch /tmp/x' }, 'Invalid head: "--upload-pack=touch /tmp/x" starts with "-": a commit SHA or ref never does'],
  [{ ...base, mode: 'verify', base: '-c' }, 'Invalid base: "-c" starts with "-"'],
  [{ ...base, mode: 'verify', base: 'main\n::error::forged' }, 'Invalid base: "main\\n::error::forged" holds whitespace or a control character'],
  [{ ...base, mode: 'verify', head: 'HEAD --output=/tmp/x' }, 'Invalid head: "HEAD --output=/tmp/x" holds whitespace or a control character'],
  [{ ...base, mode: 'verify', head: 'main\u0000' }, 'Invalid head: "main\\u0000" holds whitespace or a control character']
])('invalid settings name the input: %j', (raw, message) => {
  expect(() => buildSettings(raw)).toThrow(SettingsError)
  expect(() => buildSettings(raw)).toThrow(message)
})

test('generate mode without a key is refused in the entry\'s own words: what to set, and verify mode instead', () => {
  const refusal = (raw: RawSettings) => {
    try {
      buildSettings(raw)
      return 'accepted'
    } catch (error) {
      return describeError(error)
    }
  }
  const cli = { key: 'ANTHROPIC_API_KEY', verifyMode: 'run `regression-testgen verify …`' }
  expect(refusal({ ...base, apiKeyNames: cli })).toBe("generate mode needs an Anthropic API key: set ANTHROPIC_API_KEY (or run `regression-testgen verify …` to prove the change's own tests without a model)")
  // Blank is no key.
  expect(refusal({ ...base, apiKey: ' \n', apiKeyNames: ACTION_API_KEY_NAMES })).toBe(
    "generate mode needs an Anthropic API key: set the anthropic-api-key input from a secret (or leave it empty, and the action runs verify mode to prove the change's own tests without a model)"
  )
  expect(refusal({ ...base, mode: 'verify', apiKeyNames: cli })).toBe('accepted')
})

test('a commit SHA or ref is kept as given, trimmed: revision syntax included', () => {
  expect(buildSettings({ ...base, mode: 'verify', base: ' origin/main~2 ', head: 'v1.0^{commit}' })).toMatchObject({ base: 'origin/main~2', head: 'v1.0^{commit}' })
})

test('the default output folder is outside the repository: the XDG cache, else ~/.cache, else the temporary folder; one per repository', () => {
  const outDir = (env: NodeJS.ProcessEnv, repo = '/work/my repo') => buildSettings({ ...base, repo, mode: 'verify' }, '/work/my repo', env).outDir
  expect(outDir({ XDG_CACHE_HOME: '/xdg', HOME: '/home/me' })).toMatch(/^\/xdg\/regression-testgen\/my_repo-[0-9a-f]{8}$/)
  // A relative XDG_CACHE_HOME is not one (the XDG spec).
  expect(outDir({ XDG_CACHE_HOME: 'cache', HOME: '/home/me' })).toMatch(/^\/home\/me\/\.cache\/regression-testgen\/my_repo-/)
  expect(outDir({})).toMatch(new RegExp(`^${join(tmpdir(), 'regression-testgen')}/my_repo-`))
  // Two repositories of the same name never share a folder.
  expect(outDir({ HOME: '/h' }, '/a/app')).not.toBe(outDir({ HOME: '/h' }, '/b/app'))
  expect(defaultOutDir('/a/app', { HOME: '/h' })).toBe(defaultOutDir('/a/app', { HOME: '/h' }))
  // --out wins, relative to the working folder.
  expect(buildSettings({ ...base, mode: 'verify', out: 'results' }, '/cwd', { HOME: '/h' }).outDir).toBe('/cwd/results')
})
