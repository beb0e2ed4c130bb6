/**
 * The suite goes where the repository's own test command collects it: a mocha project whose configuration
 * runs only `test/*.test.js` (no subfolders) gets `test/regression-issue-37.test.js`, not
 * `test/regression/issue-37.test.js`, and the project's own mocha, run as its CI would, runs it.
 */
import { execFile } from 'node:child_process'
import { copyFile, readFile } from 'node:fs/promises'
import { join } from 'node:path'
import { promisify } from 'node:util'
import { requestText, type ScriptedReply } from '../support/fake-anthropic.js'
import { runCliOnFixture } from '../support/cli-run.js'
import { fixtureAnswers, stageOf } from '../support/scripted-model.js'

const FIXTURE = 'argv-cjs'
const answers = fixtureAnswers(FIXTURE)
const COLLECTED_PATH = 'test/regression-issue-37.test.js'
// The fixture's mocha config without `recursive: true`: mocha's own rules reach test/*.test.js only.
const NON_RECURSIVE = { '.mocharc.yml': "spec: 'test/*.test.js'\nreporter: dot\ntimeout: 5000\n" }
const written = (answers['write-tests'] as { tool_use: { input: { files: Array<{ path: string; content: string; tests: unknown[] }> } } }).tool_use.input.files[0]

/** The scripted suite at `path`, its import written from there. */
function suiteAt(path: string): ScriptedReply {
  const content = path === written.path ? written.content : written.content.replace("require('../../lib/parse')", "require('../lib/parse')")
  return { tool_use: { name: 'write_test_files', input: { files: [{ ...written, path, content }] } } }
}

test('a non-recursive mocha spec: the suite is placed in test/, proven there, and the project\'s own mocha runs it', async () => {
  const run = await runCliOnFixture({
    fixture: FIXTURE,
    script: { ...answers, 'write-tests': suiteAt(COLLECTED_PATH) },
    args: ['--issue', join('__fixtures__', FIXTURE, 'issue.md')],
    fixtureOptions: { headChanges: NON_RECURSIVE }
  })
  try {
    expect(run.report).toMatchObject({ verdict: 'fail-to-pass', framework: 'mocha' })
    expect(run.report.suite.files.map((file) => file.path)).toEqual([COLLECTED_PATH])
    // The model was told that path, and that more files go in test/.
    const writeRequest = requestText(run.model!.requests.find((request) => stageOf(request) === 'write-tests')!)
    expect(writeRequest).toContain(`Write the suite to \`${COLLECTED_PATH}\``)
    expect(run.log).toContainEqual(expect.stringContaining("The repository's own tests: mocha test/*.test.js (.mocharc.yml)"))
    expect(run.log.join('\n')).not.toContain('is not collected')

    // The repository's own command (its test script, its .mocharc.yml) runs the delivered file.
    await copyFile(join(run.outDir, 'suite', COLLECTED_PATH), join(run.repo.dir, COLLECTED_PATH))
    const mocha = join(run.repo.dir, 'node_modules', 'mocha', 'bin', 'mocha.js')
    const { stdout } = await promisify(execFile)(process.execPath, [mocha, '--require', './test/setup.js', '--check-leaks', '--reporter', 'json'], { cwd: run.repo.dir })
    const results = JSON.parse(stdout) as { passes: Array<{ file: string }> }
    expect(results.passes.filter((test) => test.file.endsWith(COLLECTED_PATH))).toHaveLength(5)
  } finally {
    await run.repo.cleanup()
  }
})

test('a model-written file the project would not run is still accepted, with a warning in the log', async () => {
  const run = await runCliOnFixture({
    fixture: FIXTURE,
    script: { ...answers, 'write-tests': suiteAt(written.path) },
    args: ['--issue', join('__fixtures__', FIXTURE, 'issue.md')],
    fixtureOptions: { headChanges: NON_RECURSIVE }
  })
  try {
    expect(run.report).toMatchObject({ verdict: 'fail-to-pass' })
    expect(run.report.suite.files.map((file) => file.path)).toEqual([written.path])
    expect(run.log).toContainEqual(expect.stringMatching(/test\/regression\/issue-37\.test\.js is not collected by the repository's own tests \(mocha test\/\*\.test\.js/))
    expect(await readFile(join(run.outDir, 'suite', written.path), 'utf8')).toBe(written.content)
  } finally {
    await run.repo.cleanup()
  }
})
