/**
 * The CLI end to end on a plain-JavaScript ESM project with no dependencies, tested with Node's own runner
 * (node:test and node:assert/strict, `node --test --test-concurrency=1`): real git, real node, the scripted model.
 */
import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { requestText } from '../support/fake-anthropic.js'
import { runCliOnFixture } from '../support/cli-run.js'
import { fixtureAnswers } from '../support/scripted-model.js'

const FIXTURE = 'csv-esm'
const answers = fixtureAnswers(FIXTURE)
const SUITE_PATH = 'test/regression/issue-52.test.js'
const FIX_TEST = 'test/parse-line.test.js'
const FIX_TEST_NAME = 'parseLine › keeps an empty last field after a trailing delimiter (#52)'
const scriptedSuite = (answers['write-tests'] as { tool_use: { input: { files: Array<{ content: string }> } } }).tool_use.input.files[0].content

test('verify proves the fix with its own node:test test: fail-to-pass, the rest of the file pass-to-pass', async () => {
  const run = await runCliOnFixture({ fixture: FIXTURE, env: {} })
  expect(run.exitCode).toBe(0)
  expect(run.report).toMatchObject({ mode: 'verify', verdict: 'fail-to-pass', framework: 'node-test', model: { calls: 0 } })
  expect(run.report.preFixTree).toEqual({ reverted: ['src/parse-line.js'], dependencies: 'reused' })
  expect(run.report.suite.files).toEqual([{ path: FIX_TEST, tests: [], collectedByRepoTests: true, unconfirmed: [] }])

  const fixTest = run.report.tests.find((test) => test.name === FIX_TEST_NAME)
  expect(fixTest).toMatchObject({ file: FIX_TEST, head: 'passed', preFix: 'failed', kind: 'fail-to-pass' })
  expect(fixTest!.message).toMatch(/^AssertionError \[ERR_ASSERTION\]: Expected values to be strictly deep-equal/)
  // Paths in messages are the repository's, not the temporary tree's (nor file URLs).
  expect(fixTest!.message).toContain(`${FIX_TEST}:`)
  expect(fixTest!.message).not.toMatch(/regression-testgen-|file:\/\/|node:internal/)
  const others = run.report.tests.filter((test) => test !== fixTest)
  expect(others.map((test) => test.name)).toContain('parseLine › quoted fields › keeps an empty quoted field')
  expect(others).toHaveLength(8)
  expect(others.every((test) => test.file === FIX_TEST && test.kind === 'pass-to-pass')).toBe(true)
  // The coverage run at head (node's lcov reporter) measured the fix's changed line; its comment lines are no code.
  expect(run.report.diffCoverage).toMatchObject({ covered: 1, total: 1 })
})

test("verify with the repository's own test command", async () => {
  const run = await runCliOnFixture({ fixture: FIXTURE, args: ['--test-command', `TZ=UTC ${process.execPath} --test --test-concurrency=1 {files}`] })
  expect(run.exitCode).toBe(0)
  expect(run.report).toMatchObject({ verdict: 'fail-to-pass', framework: 'node-test' })
  expect(run.report.tests.find((test) => test.name === FIX_TEST_NAME)).toMatchObject({ kind: 'fail-to-pass' })
})

test('generate: the scripted model gives a fail-to-pass node:test suite that imports the module with its .js extension', async () => {
  const run = await runCliOnFixture({ fixture: FIXTURE, script: answers, args: ['--issue', join('__fixtures__', FIXTURE, 'issue.md')] })
  expect(run.exitCode).toBe(0)
  const { report } = run
  expect(report).toMatchObject({ verdict: 'fail-to-pass', reason: null, mode: 'generate', framework: 'node-test', rounds: { repair: 0, strengthen: 0 } })
  // The import given to the model loads with node-test in both trees.
  expect(report.context!.imports.map((line) => line.loads)).toEqual([{ head: true, preFix: true }])
  // Every test is tied to its scenario by the title the model gave, whatever the runner calls it.
  expect(report.tests.map((test) => test.scenario)).not.toContain(null)
  expect(report.suite.files).toEqual([{ path: SUITE_PATH, tests: expect.arrayContaining([expect.objectContaining({ scenario: 'a trailing delimiter keeps an empty last field' })]), collectedByRepoTests: true, unconfirmed: [] }])
  expect(readFileSync(join(run.outDir, 'suite', SUITE_PATH), 'utf8')).toBe(scriptedSuite)

  const kinds = Object.fromEntries(report.tests.map((test) => [test.name.replace('a trailing delimiter ends an empty last field (#52) › ', ''), test.kind]))
  expect(kinds).toEqual({
    'keeps the empty last field of 2,Bo,': 'fail-to-pass',
    'keeps the empty last field after a quoted field': 'fail-to-pass',
    'reads a lone delimiter as two empty fields': 'fail-to-pass',
    'still gives an empty line no fields': 'pass-to-pass',
    'keeps the empty last field after a trailing semicolon': 'fail-to-pass',
    'still keeps an empty quoted last field': 'pass-to-pass'
  })
  expect(report.tests.every((test) => test.file === SUITE_PATH)).toBe(true)
  expect(report.diffCoverage).toMatchObject({ covered: 1, total: 1 })

  // The model was told where the suite goes, in which framework, and how an ESM test imports the fixed module.
  const write = requestText(run.model!.requests[2])
  expect(write).toContain(SUITE_PATH)
  expect(write).toContain('Import `src/parse-line.js` as `../../src/parse-line.js`')
  expect(write).toMatch(/- Framework: node-test\b.*; language: javascript; module syntax: ES modules \(import\)\./)
  // The example is the test the fix changed, as it was before; its imports are rebased to the regression folder.
  expect(write).toContain("import { describe, it } from 'node:test'")
  expect(write).not.toContain('(#52)\', () =>')
  expect(write).toContain('own imports, written from `test/regression/`: `../src/parse-line.js` → `../../src/parse-line.js`')
})

test('verify on a node:test fix without test changes says there is nothing to verify', async () => {
  const run = await runCliOnFixture({ fixture: FIXTURE, fixtureOptions: { withFixTest: false } })
  expect(run.exitCode).toBe(0)
  expect(run.report).toMatchObject({ verdict: 'not-applicable', framework: 'node-test', reason: expect.stringMatching(/^verify mode runs the change's own tests, and it changes \d+ source files? but adds or modifies no test file: there is nothing to verify/) })
})
