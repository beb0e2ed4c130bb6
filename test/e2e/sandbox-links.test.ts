/**
 * A test that plants symbolic links where the tool (root) writes next, through the bundled CLI: (a) a
 * generated jest test replaces its own folder, `test/regression`, with a link to a root-owned folder, so
 * the repair round's removal of the old suite would delete a file there; (b) a pull request's mocha test
 * plants `<scratch>/file-1` as a link to a root-owned folder before the tool makes that folder for the
 * one-file-at-a-time runs, which would have the tool open the folder to everyone and write its files into
 * it. Neither link is followed: the folder outside keeps its files and mode, and the run says why it ended.
 */
import { execFile } from 'node:child_process'
import { chmod, mkdtemp, readdir, readFile, rm, stat, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { promisify } from 'node:util'
import { startFakeAnthropic, type ScriptedReply } from '../support/fake-anthropic.js'
import { buildFixtureRepo, type FixtureOptions } from '../support/fixture-repo.js'
import { describeWhereSandboxed } from '../support/sandbox-probe.js'
import { byStage, fixtureAnswers, type StageScript } from '../support/scripted-model.js'
import type { Report } from '../../src/report/report.js'

const root = join(import.meta.dirname ?? new URL('.', import.meta.url).pathname, '..', '..')
const RUN_LIMIT_MS = 240_000
const CANARY = 'ROOT-OWNED-CANARY-5d1e'

/** A root-owned folder, 0700, holding one canary file: what a planted link points at. */
async function rootOwnedFolder(canaryName: string): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), 'rtg-root-owned-'))
  await writeFile(join(dir, canaryName), CANARY)
  await chmod(dir, 0o700)
  return dir
}

async function expectUntouched(dir: string, canaryName: string): Promise<void> {
  expect(await readdir(dir)).toEqual([canaryName])
  expect(await readFile(join(dir, canaryName), 'utf8')).toBe(CANARY)
  expect((await stat(dir)).mode & 0o7777).toBe(0o700)
}

/** The bundled CLI on a fixture (generate mode with a scripted model, else verify); its report. */
async function runBundled(fixture: string, options: FixtureOptions, script: StageScript | null) {
  const repo = await buildFixtureRepo(fixture, options)
  const out = await mkdtemp(join(tmpdir(), 'rtg-links-out-'))
  const model = script ? await startFakeAnthropic(byStage(script)) : null
  try {
    const mode = script ? [] : ['verify']
    const args = [join(root, 'dist/cli/index.js'), ...mode, '--repo', repo.dir, '--base', repo.base, '--head', repo.head, '--out', out]
    const env = { PATH: process.env.PATH, HOME: process.env.HOME, ...(model && { ANTHROPIC_API_KEY: 'test-key', ANTHROPIC_BASE_URL: model.baseURL }) }
    const run = await promisify(execFile)(process.execPath, args, { env, timeout: RUN_LIMIT_MS, killSignal: 'SIGKILL' }).then(
      (result) => ({ code: 0, ...result }),
      (error: { code: number; stdout: string; stderr: string }) => ({ code: error.code, stdout: error.stdout, stderr: error.stderr })
    )
    const report = JSON.parse(await readFile(join(out, 'report.json'), 'utf8')) as Report
    return { run, report, model }
  } finally {
    await model?.close()
    await repo.cleanup()
    await rm(out, { recursive: true, force: true })
  }
}

describeWhereSandboxed('a test that plants links where the tool writes, through the bundled CLI', () => {
  const planted: string[] = []
  afterAll(async () => {
    for (const dir of planted) await rm(dir, { recursive: true, force: true })
  })

  test('(a) the suite folder swapped for a link: the repair round removes nothing through it, and says why', async () => {
    const suitePath = 'test/regression/issue-4471.test.ts'
    const outside = await rootOwnedFolder('issue-4471.test.ts')
    planted.push(outside)
    const answers = fixtureAnswers('retry-budget')
    // Fails at head (so a repair round follows), after moving its own folder aside for a link.
    const attack = `// @ts-nocheck
const fs = require('fs')
if (!fs.lstatSync(__dirname).isSymbolicLink()) {
  fs.renameSync(__dirname, __dirname + '-moved')
  fs.symlinkSync(${JSON.stringify(outside)}, __dirname)
}
it('fails, so the suite is repaired', () => {
  throw new Error('failing on purpose')
})
`
    const writeTests: ScriptedReply = { tool_use: { name: 'write_test_files', input: { files: [{ path: suitePath, content: attack, tests: [] }] } } }
    const { run, report } = await runBundled('retry-budget', {}, { ...answers, 'write-tests': writeTests, repair: answers['write-tests'] })
    await expectUntouched(outside, 'issue-4471.test.ts')
    expect(report.verdict).toBe('error')
    expect(report.reason).toMatch(/^Refused to remove \S+\/test\/regression\/issue-4471\.test\.ts: \S+\/test\/regression is a symbolic link/)
    expect(run.code).toBe(2)
  }, RUN_LIMIT_MS + 30_000)

  test('(b) a planted mocha `file-1` link: the folder it points at keeps its mode and contents', async () => {
    const outside = await rootOwnedFolder('canary.txt')
    planted.push(outside)
    // Loads first (sorted before parse.test.js), plants the links, then fails to load: mocha writes no
    // report, so the tool runs each file alone, each in a `file-N` folder of this run's scratch folder.
    const attack = `const fs = require('fs')
const path = require('path')
const output = process.argv.find((arg) => arg.startsWith('output='))
if (output) {
  const scratch = path.dirname(output.slice('output='.length))
  for (const name of ['file-1', 'file-2']) {
    try { fs.symlinkSync(${JSON.stringify(outside)}, path.join(scratch, name)) } catch {}
  }
}
throw new Error('this file does not load')
`
    const { run, report } = await runBundled('argv-cjs', { headChanges: { 'test/attack.test.js': attack } }, null)
    await expectUntouched(outside, 'canary.txt')
    expect(report.verdict).toBe('error')
    expect(report.reason).toMatch(/^Refused to make the folder \S+\/file-1: \S+\/file-1 is a symbolic link/)
    expect(run.code).toBe(2)
  }, RUN_LIMIT_MS + 30_000)
})
