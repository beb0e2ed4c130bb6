/**
 * The CLI end to end on a plain-JavaScript CommonJS project tested with mocha: real git, real mocha (with
 * the repository's `--require ./test/setup.js` from its test script and its `.mocharc.yml`), the scripted model.
 */
import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { requestText } from '../support/fake-anthropic.js'
import { runCliOnFixture } from '../support/cli-run.js'
import { fixtureAnswers } from '../support/scripted-model.js'

const FIXTURE = 'argv-cjs'
const answers = fixtureAnswers(FIXTURE)
const SUITE_PATH = 'test/regression/issue-37.test.js'
const FIX_TEST = 'test/parse.test.js'
const scriptedSuite = (answers['write-tests'] as { tool_use: { input: { files: Array<{ content: string }> } } }).tool_use.input.files[0].content

test('verify proves the fix with its own mocha test: fail-to-pass, the rest of the file pass-to-pass', async () => {
  const run = await runCliOnFixture({ fixture: FIXTURE, env: {} })
  expect(run.exitCode).toBe(0)
  expect(run.report).toMatchObject({ mode: 'verify', verdict: 'fail-to-pass', framework: 'mocha', model: { calls: 0 } })
  expect(run.report.preFixTree).toEqual({ reverted: ['lib/parse.js'], dependencies: 'reused' })
  expect(run.report.suite.files).toEqual([{ path: FIX_TEST, tests: [], collectedByRepoTests: true, unconfirmed: [] }])

  const fixTest = run.report.tests.find((test) => test.name === 'parse long flags › keeps every "=" after the first in the value (#37)')
  expect(fixTest).toMatchObject({ file: FIX_TEST, head: 'passed', preFix: 'failed', kind: 'fail-to-pass' })
  expect(fixTest!.message).toContain("token: 'aGk='")
  // Paths in messages are the repository's, not the temporary tree's.
  expect(fixTest!.message).toContain(`${FIX_TEST}:`)
  expect(fixTest!.message).not.toContain('regression-testgen-')
  // Only the fix's test file ran (the config's spec would add the whole suite), and every test in it passed
  // at head: `assert` comes from the test script's --require.
  const others = run.report.tests.filter((test) => test !== fixTest)
  expect(others).toHaveLength(11)
  expect(others.every((test) => test.file === FIX_TEST && test.kind === 'pass-to-pass')).toBe(true)
  // The coverage run at head (c8) measured the fix's changed lines: the three of code, not the doc comment.
  expect(run.report.diffCoverage).toMatchObject({ covered: 3, total: 3 })
})

test('generate: the scripted model gives a fail-to-pass mocha suite that requires the module CommonJS-style', async () => {
  const run = await runCliOnFixture({ fixture: FIXTURE, script: answers, args: ['--issue', join('__fixtures__', FIXTURE, 'issue.md')] })
  expect(run.exitCode).toBe(0)
  const { report } = run
  expect(report).toMatchObject({ verdict: 'fail-to-pass', reason: null, mode: 'generate', framework: 'mocha', rounds: { repair: 0, strengthen: 0 } })
  // The import given to the model loads with mocha in both trees.
  expect(report.context!.imports.map((line) => line.loads)).toEqual([{ head: true, preFix: true }])
  // Every test is tied to its scenario by the title the model gave, whatever the runner calls it.
  expect(report.tests.map((test) => test.scenario)).not.toContain(null)
  expect(report.suite.files).toEqual([{ path: SUITE_PATH, tests: expect.arrayContaining([expect.objectContaining({ scenario: 'base64 padding survives --token=value' })]), collectedByRepoTests: true, unconfirmed: [] }])
  expect(readFileSync(join(run.outDir, 'suite', SUITE_PATH), 'utf8')).toBe(scriptedSuite)

  const kinds = Object.fromEntries(report.tests.map((test) => [test.name.replace('--name=value keeps every "=" after the first (#37) › ', ''), test.kind]))
  expect(kinds).toEqual({
    'keeps the padding of a base64 token': 'fail-to-pass',
    'keeps KEY=VALUE pairs whole in a repeated array flag': 'fail-to-pass',
    'reads --sep== as the value "="': 'fail-to-pass',
    'still reads --prefix= as an empty string': 'pass-to-pass',
    'gives an aliased flag its whole value': 'fail-to-pass'
  })
  expect(report.tests.every((test) => test.file === SUITE_PATH)).toBe(true)
  expect(report.diffCoverage).toMatchObject({ covered: 3, total: 3 })

  // The model was told where the suite goes, in which framework, and how a test requires the fixed module.
  const write = requestText(run.model!.requests[2])
  expect(write).toContain(SUITE_PATH)
  expect(write).toContain('Import `lib/parse.js` as `../../lib/parse`')
  expect(write).toMatch(/- Framework: mocha\b.*; language: javascript; module syntax: CommonJS \(require\)/)
})

test('verify on a mocha fix without test changes says there is nothing to verify', async () => {
  const run = await runCliOnFixture({ fixture: FIXTURE, fixtureOptions: { withFixTest: false } })
  expect(run.exitCode).toBe(0)
  expect(run.report).toMatchObject({ verdict: 'not-applicable', framework: 'mocha', reason: expect.stringMatching(/^verify mode runs the change's own tests, and it changes \d+ source files? but adds or modifies no test file: there is nothing to verify/) })
})
