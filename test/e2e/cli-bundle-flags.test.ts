/**
 * The bundled CLI (`dist/cli/index.js`, run `npm run build` first) as a user types it: --version, --help,
 * and a bad flag. It runs from a copy outside this repository, so the version can only come from the bundle.
 */
import { execFile } from 'node:child_process'
import { cpSync, existsSync, mkdtempSync, readFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { promisify } from 'node:util'
import { USAGE } from '../../src/cli.js'

const root = join(import.meta.dirname ?? new URL('.', import.meta.url).pathname, '..', '..')
const { version } = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as { version: string }

let cli: string
beforeAll(() => {
  const copy = mkdtempSync(join(tmpdir(), 'rtg-bundled-cli-'))
  cpSync(join(root, 'dist', 'cli'), copy, { recursive: true })
  cli = join(copy, 'index.js')
})

const run = (args: string[], env: NodeJS.ProcessEnv = {}) =>
  promisify(execFile)(process.execPath, [cli, ...args], { cwd: tmpdir(), env: { PATH: process.env.PATH, HOME: process.env.HOME, ...env } }).then(
    (result) => ({ code: 0, stdout: result.stdout, stderr: result.stderr }),
    (error: { code: number; stdout: string; stderr: string }) => ({ code: error.code, stdout: error.stdout, stderr: error.stderr })
  )

test('--version and -v print the package version, with no package.json beside the bundle', async () => {
  expect(existsSync(join(cli, '..', '..', 'package.json'))).toBe(false)
  expect(await run(['--version'])).toEqual({ code: 0, stdout: `${version}\n`, stderr: '' })
  expect(await run(['-v'])).toEqual({ code: 0, stdout: `${version}\n`, stderr: '' })
})

test('--help prints the usage with its examples', async () => {
  const help = await run(['--help'])
  expect(help).toEqual({ code: 0, stdout: `${USAGE}\n`, stderr: '' })
  expect(help.stdout).toContain('Examples:\n')
  expect(help.stdout).toContain('regression-testgen verify --base main --head HEAD --working-directory packages/core')
})

test('an unknown flag exits 2 with one error line naming it and pointing to --help', async () => {
  expect(await run(['verify', '--base', 'main', '--head', 'HEAD', '--rerun', '3'])).toEqual({
    code: 2,
    stdout: '',
    stderr: 'error: regression-testgen: Unknown option --rerun (see --help for the options)\n'
  })
})

test('--reruns above 20 and generate mode without a key exit 2 with an error line naming what to change', async () => {
  expect((await run(['verify', '--base', 'main', '--head', 'HEAD', '--reruns', '21'])).stderr).toBe(
    'error: regression-testgen: Invalid --reruns: "21" is above 20: more runs at head add minutes, not confidence (a flaky test shows within a few) (see --help)\n'
  )
  const noKey = await run(['--base', 'main', '--head', 'HEAD'])
  expect(noKey.code).toBe(2)
  expect(noKey.stderr).toMatch(/^error: regression-testgen: generate mode needs an Anthropic API key: set ANTHROPIC_API_KEY \(or run `regression-testgen verify …`/)
})
