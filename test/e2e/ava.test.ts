/**
 * The CLI end to end on an ESM project tested with ava: real git, real ava (its `files` globs from
 * package.json), its TAP report read with tap-parser, c8 for diff coverage, the scripted model.
 */
import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { requestText } from '../support/fake-anthropic.js'
import { runCliOnFixture } from '../support/cli-run.js'
import { fixtureAnswers } from '../support/scripted-model.js'

const FIXTURE = 'paginate-ava'
const answers = fixtureAnswers(FIXTURE)
const SUITE_PATH = 'test/regression/issue-18.test.js'
const FIX_TEST = 'test/pages.test.js'
const scriptedSuite = (answers['write-tests'] as { tool_use: { input: { files: Array<{ content: string }> } } }).tool_use.input.files[0].content

test('verify proves the fix with its own ava test: fail-to-pass, the rest of the file pass-to-pass', async () => {
  const run = await runCliOnFixture({ fixture: FIXTURE, env: {} })
  expect(run.exitCode).toBe(0)
  expect(run.report).toMatchObject({ mode: 'verify', verdict: 'fail-to-pass', framework: 'ava', model: { calls: 0 } })
  expect(run.report.preFixTree).toEqual({ reverted: ['src/pages.js'], dependencies: 'reused' })
  expect(run.report.suite.files).toEqual([{ path: FIX_TEST, tests: [], collectedByRepoTests: true, unconfirmed: [] }])

  // The test's name is its title as ava reports it, without the file's title.
  const fixTest = run.report.tests.find((test) => test.name === 'a partial last page counts as a page (#18)')
  expect(fixTest).toMatchObject({ file: FIX_TEST, head: 'passed', preFix: 'failed', kind: 'fail-to-pass' })
  // ava's own description of the failure: the assertion and the difference.
  expect(fixTest!.message).toContain('t.is()')
  expect(fixTest!.message).toMatch(/- 2\n\+ 3/)
  const others = run.report.tests.filter((test) => test !== fixTest)
  expect(others.map((test) => test.name).sort()).toEqual(['an exact multiple fills whole pages', 'no items make no pages', 'pageOf gives the items of a page', 'perPage must be positive'])
  expect(others.every((test) => test.file === FIX_TEST && test.kind === 'pass-to-pass')).toBe(true)
  // The coverage run at head (c8 around ava, whose tests run in worker threads) measured the changed lines.
  expect(run.report.diffCoverage).toMatchObject({ covered: 2, total: 2 })
})

test('generate: the scripted model gives a fail-to-pass ava suite that imports the module as ESM', async () => {
  const run = await runCliOnFixture({ fixture: FIXTURE, script: answers, args: ['--issue', join('__fixtures__', FIXTURE, 'issue.md')] })
  expect(run.exitCode).toBe(0)
  const { report } = run
  expect(report).toMatchObject({ verdict: 'fail-to-pass', reason: null, mode: 'generate', framework: 'ava', rounds: { repair: 0, strengthen: 0 } })
  // The package entry reaches the fixed module: that way in first, the module itself second; both load with ava in both trees.
  expect(report.context!.imports).toEqual([
    { module: 'src/pages.js', specifier: '../../src/index.js', through: 'src/index.js', loads: { head: true, preFix: true } },
    { module: 'src/pages.js', specifier: '../../src/pages.js', through: null, loads: { head: true, preFix: true } }
  ])
  expect(report.tests.map((test) => test.scenario)).not.toContain(null)
  expect(readFileSync(join(run.outDir, 'suite', SUITE_PATH), 'utf8')).toBe(scriptedSuite)

  const kinds = Object.fromEntries(report.tests.map((test) => [test.name, test.kind]))
  expect(kinds).toEqual({
    'counts a partial last page (#18)': 'fail-to-pass',
    'gives fewer items than a page one page (#18)': 'fail-to-pass',
    'adds no page to an exact multiple (#18)': 'pass-to-pass',
    'adds a page for one item over a multiple (#18)': 'fail-to-pass'
  })
  expect(report.tests.every((test) => test.file === SUITE_PATH)).toBe(true)
  expect(report.diffCoverage).toMatchObject({ covered: 2, total: 2 })

  // The model was told where the suite goes, in which framework, and how a test imports the fixed module.
  const write = requestText(run.model!.requests[2])
  expect(write).toContain(SUITE_PATH)
  expect(write).toMatch(/- Framework: ava\b/)
})

test("test-command: the repository's own ava command runs the files, with the TAP reporter added", async () => {
  // --match is the command's own: only the fix's test runs, so the command, not the adapter's default, ran.
  const command = "TZ=UTC node node_modules/ava/entrypoints/cli.mjs --match '*(#18)' {files}"
  const run = await runCliOnFixture({ fixture: FIXTURE, args: ['--test-command', command] })
  expect(run.exitCode).toBe(0)
  expect(run.report).toMatchObject({ verdict: 'fail-to-pass', framework: 'ava' })
  expect(run.report.tests).toEqual([expect.objectContaining({ file: FIX_TEST, name: 'a partial last page counts as a page (#18)', kind: 'fail-to-pass' })])
})
