/** The CLI end to end on a TypeScript ESM project tested with vitest: real git, real vitest, the scripted model. */
import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { requestText } from '../support/fake-anthropic.js'
import { runCliOnFixture } from '../support/cli-run.js'
import { fixtureAnswers } from '../support/scripted-model.js'

const FIXTURE = 'slugify-esm'
const answers = fixtureAnswers(FIXTURE)
const SUITE_PATH = 'test/regression/issue-212.test.ts'
const FIX_TEST = 'test/slugify.test.ts'
const scriptedSuite = (answers['write-tests'] as { tool_use: { input: { files: Array<{ content: string }> } } }).tool_use.input.files[0].content

test('verify proves the fix with its own vitest test: fail-to-pass, the rest of the file pass-to-pass', async () => {
  const run = await runCliOnFixture({ fixture: FIXTURE, env: {} })
  expect(run.exitCode).toBe(0)
  expect(run.report).toMatchObject({ mode: 'verify', verdict: 'fail-to-pass', framework: 'vitest', model: { calls: 0 } })
  expect(run.report.preFixTree).toEqual({ reverted: ['src/truncate.ts'], dependencies: 'reused' })
  expect(run.report.suite.files).toEqual([{ path: FIX_TEST, tests: [], collectedByRepoTests: null, unconfirmed: [] }])

  const fixTest = run.report.tests.find((test) => test.name === 'slugify › maxLength › keeps a slug of exactly maxLength characters whole (#212)')
  expect(fixTest).toMatchObject({ file: FIX_TEST, head: 'passed', preFix: 'failed', kind: 'fail-to-pass' })
  expect(fixTest!.message).toContain("expected 'hello' to be 'hello-world'")
  // Paths in messages are the repository's, not the temporary tree's.
  expect(fixTest!.message).toContain(`${FIX_TEST}:`)
  expect(fixTest!.message).not.toContain('regression-testgen-')
  const others = run.report.tests.filter((test) => test !== fixTest)
  expect(others).toHaveLength(8)
  expect(others.every((test) => test.kind === 'pass-to-pass')).toBe(true)
})

test('generate: the scripted model gives a fail-to-pass vitest suite with .js import specifiers', async () => {
  const run = await runCliOnFixture({ fixture: FIXTURE, script: answers, args: ['--issue', join('__fixtures__', FIXTURE, 'issue.md')] })
  expect(run.exitCode).toBe(0)
  const { report } = run
  expect(report).toMatchObject({ verdict: 'fail-to-pass', reason: null, mode: 'generate', framework: 'vitest', rounds: { repair: 0, strengthen: 0 } })
  // Every test is tied to its scenario by the title the model gave, whatever the runner calls it.
  expect(report.tests.map((test) => test.scenario)).not.toContain(null)
  expect(report.suite.files).toEqual([{ path: SUITE_PATH, tests: expect.arrayContaining([expect.objectContaining({ scenario: 'a two-word slug of exactly maxLength is kept' })]), collectedByRepoTests: null, unconfirmed: [] }])
  expect(readFileSync(join(run.outDir, 'suite', SUITE_PATH), 'utf8')).toBe(scriptedSuite)

  const kinds = Object.fromEntries(report.tests.map((test) => [test.name.replace('slugs of exactly maxLength characters (#212) › ', ''), test.kind]))
  expect(kinds).toEqual({
    'keeps a two-word slug of exactly maxLength': 'fail-to-pass',
    'keeps a 60-character permalink slug whole': 'fail-to-pass',
    'keeps a slug with a custom separator at exactly maxLength': 'fail-to-pass',
    'still cuts a slug one character over maxLength at the last word that fits': 'pass-to-pass',
    'cuts a 61-character permalink slug at the last word that fits': 'pass-to-pass'
  })
  expect(report.tests.every((test) => test.file === SUITE_PATH)).toBe(true)

  // The coverage run at head measured the fix's changed line.
  expect(report.diffCoverage).toMatchObject({ covered: 1, total: 1 })

  // The model was told where the suite goes and how an ESM test imports the fixed module.
  const write = run.model!.requests[2]
  expect(requestText(write)).toContain(SUITE_PATH)
  // The one import line, checked by loading it with vitest in both trees.
  expect(requestText(write)).toContain('- Import `src/truncate.ts` as `../../src/truncate.js`. Checked: it loads at head and before the fix.')
  expect(report.context!.imports).toEqual([{ module: 'src/truncate.ts', specifier: '../../src/truncate.js', through: null, loads: { head: true, preFix: true } }])
  expect(requestText(write)).toContain('- Framework: vitest 3.2.7 (use only its API as of that version); language: typescript; module syntax: ES modules (import).')
  // The example is the test the fix changed, as it was before; its imports are rebased to the regression folder.
  expect(requestText(write)).toContain("import { slugify } from '../src/slugify.js'")
  expect(requestText(write)).toContain("own imports, written from `test/regression/`: `../src/slugify.js` → `../../src/slugify.js`")
})

test('verify on a vitest fix without test changes says there is nothing to verify', async () => {
  const run = await runCliOnFixture({ fixture: FIXTURE, fixtureOptions: { withFixTest: false } })
  expect(run.exitCode).toBe(0)
  expect(run.report).toMatchObject({ verdict: 'not-applicable', framework: 'vitest', reason: expect.stringMatching(/^verify mode runs the change's own tests, and it changes \d+ source files? but adds or modifies no test file: there is nothing to verify/) })
})
