/**
 * Tests that run from compiled output, zero-config: the test command builds with tsc, then its runner
 * collects what tsc wrote to dist/ (git ignores it). A source test runs from its compiled file; the
 * capture pass is each tree's build (the pre-fix tree compiles its buggy source); a generated suite is
 * written as source and compiled by running the test command again up to its runner.
 * Before the capture, mocha ran the TypeScript source itself (`SyntaxError` / `Unknown file extension ".ts"`).
 */
import { join } from 'node:path'
import { runBundledCliOnFixture, runCliOnFixture } from '../support/cli-run.js'
import { fixtureAnswers } from '../support/scripted-model.js'

/** The generated suite's tests by name , fail-to-pass where the end itself is wrapped. */
const expectedKinds = () =>
  Object.fromEntries(
    [
      ['wraps the end itself to 0', 'fail-to-pass'],
      ['wraps the end of a one-element range to 0', 'fail-to-pass'],
      ['keeps the last index inside the range', 'pass-to-pass'],
      ['keeps index 0', 'pass-to-pass'],
      ['wraps an index past the end', 'pass-to-pass'],
      ['wraps a multiple of n to 0', 'pass-to-pass']
    ].map(([title, kind]) => [`wrap at the end of the range (#7) › ${title}`, kind])
  )
const issue = (name: string) => ['--issue', join('__fixtures__', name, 'issue.md')]

test('verify, mocha on tsc output (`rm -rf dist && tsc && mocha`, spec dist/**/*.test.js): the PR\'s source test runs compiled, fail-to-pass', async () => {
  const run = await runBundledCliOnFixture('wrap-tsc-mocha')
  expect(run.report.runner).toMatchObject({
    captured: true,
    command: 'npm test',
    runner: 'mocha',
    via: ['npm test', 'rm -rf dist && tsc && mocha', 'mocha'],
    // Node and Python processes say when they start and end: `rm -rf dist` is not one of them.
    beforeRunner: [expect.objectContaining({ command: 'tsc' })],
    compiledTests: { outputDir: 'dist', how: expect.stringContaining('rootDir src → outDir dist') }
  })
  expect(run.report.runner?.beforeRunner.find((step) => step.command === 'tsc')?.durationMs).toBeGreaterThan(0)
  // The tests are named by their source; the new one fails on the pre-fix tree's own compiled source.
  expect(run.report.tests).toEqual([
    expect.objectContaining({ file: 'src/test/wrap.test.ts', name: 'wrap › keeps an index inside the range', kind: 'pass-to-pass' }),
    expect.objectContaining({ file: 'src/test/wrap.test.ts', name: 'wrap › wraps an index one past the end to 0 (#7)', kind: 'fail-to-pass' })
  ])
  expect(run.report.tests[1].message).toContain('5 !== 0')
  expect(run.report.build).toBeNull()
  expect(run.markdown).toContain('▶️ Runs as `npm test` does: `npm test` → `rm -rf dist && tsc && mocha` → `mocha`, after `tsc` (the build, in each tree).')
  expect(run.exitCode).toBe(0)
})

test('generate, mocha on tsc output: the suite is written as source beside the source tests, compiled, and proves the fix', async () => {
  const run = await runCliOnFixture({ fixture: 'wrap-tsc-mocha', script: fixtureAnswers('wrap-tsc-mocha'), fixtureOptions: { withFixTest: false }, args: issue('wrap-tsc-mocha') })
  // Both paths: the source written, the compiled file the runner ran.
  expect(run.report.suite.files).toEqual([expect.objectContaining({ path: 'src/test/regression/wrap-end-7.test.ts', compiledPath: 'dist/test/regression/wrap-end-7.test.js', collectedByRepoTests: true })])
  expect(run.markdown).toContain('- `src/test/regression/wrap-end-7.test.ts` (runs as `dist/test/regression/wrap-end-7.test.js`)')
  const kinds = Object.fromEntries(run.report.tests.filter((test) => test.file.includes('regression/')).map((test) => [test.name, test.kind]))
  expect(kinds).toEqual(expectedKinds())
  expect(run.log).toContain('Compiled tests: the runner collects dist/ (mocha dist/**/*.test.js (.mocharc.js), from dist (git ignores it); tsconfig.json rootDir src → outDir dist; 2 existing pairs agree); each test runs from its compiled file, the build rerun once a suite is written')
  expect(run.report.verdict).toBe('fail-to-pass')
})

test('verify, `node --test dist/test/` after a pretest that builds: the pretest is the build, the test runs compiled', async () => {
  const run = await runBundledCliOnFixture('wrap-tsc-node-test')
  expect(run.report.runner).toMatchObject({
    captured: true,
    runner: 'node-test',
    argv: ['dist/test/'],
    beforeRunner: [expect.objectContaining({ command: 'npm run build' })],
    compiledTests: { outputDir: 'dist/test' }
  })
  expect(run.report.tests).toEqual([
    expect.objectContaining({ file: 'test/wrap.test.ts', name: 'keeps an index inside the range', kind: 'pass-to-pass' }),
    expect.objectContaining({ file: 'test/wrap.test.ts', name: 'wraps an index one past the end to 0 (#7)', kind: 'fail-to-pass' })
  ])
  expect(run.exitCode).toBe(0)
})

test('generate, `node --test` on compiled output: the suite compiles into dist/test and proves the fix', async () => {
  const run = await runCliOnFixture({ fixture: 'wrap-tsc-node-test', script: fixtureAnswers('wrap-tsc-node-test'), fixtureOptions: { withFixTest: false }, args: issue('wrap-tsc-node-test') })
  expect(run.report.suite.files).toEqual([expect.objectContaining({ path: 'test/regression/wrap-end-7.test.ts', compiledPath: 'dist/test/regression/wrap-end-7.test.js' })])
  const kinds = Object.fromEntries(run.report.tests.filter((test) => test.file.includes('regression/')).map((test) => [test.name, test.kind]))
  expect(kinds).toEqual(expectedKinds())
  expect(run.report.verdict).toBe('fail-to-pass')
})

test('verify, where the pre-fix code does not build with the change\'s test (tsc type-checks a new export): its tests run as at head, on what tsc emitted', async () => {
  const index = "export function wrap(i: number, n: number): number {\n  return i >= n ? i % n : i\n}\n\nexport const wrapAll = (items: number[], n: number): number[] => items.map((i) => wrap(i, n))\n"
  const test = "import { strict as assert } from 'node:assert'\nimport { wrapAll } from '../index'\n\ndescribe('wrapAll', () => {\n  it('wraps every index (#7)', () => {\n    assert.deepEqual(wrapAll([5, 6], 5), [0, 1])\n  })\n})\n"
  const run = await runBundledCliOnFixture('wrap-tsc-mocha', { fixtureOptions: { headChanges: { 'src/index.ts': index, 'src/test/wrap-all.test.ts': test } } })
  expect(run.report.runner?.preFixStopped).toMatch(/started no test runner .*exit 2/s)
  expect(run.log.join('\n')).toContain("The pre-fix tree's test command (npm test) stopped before its runner")
  // tsc emitted the pre-fix tree's dist/ despite the type error: the test ran there and failed for the bug's reason.
  expect(run.report.tests).toContainEqual(expect.objectContaining({ file: 'src/test/wrap-all.test.ts', kind: 'fail-to-pass', preFixFailure: expect.any(String) }))
  expect(run.report.tests.find((entry) => entry.file === 'src/test/wrap-all.test.ts')?.preFixFailureLine).toMatch(/wrapAll|not a function/)
  expect(run.report.verdict).toBe('fail-to-pass')
})

test('verify, two hunks in compiled code: each hunk tree builds as the others did (its test command up to the runner), and the guard of each hunk is told', async () => {
  const filler = Array.from({ length: 8 }, (_, i) => `export const unit${i} = ${i}`).join('\n')
  const source = (comparison: string, fallback: string) =>
    `/** \`i\` wrapped into \`0..n-1\`. */\nexport function wrap(i: number, n: number): number {\n  if (i ${comparison} n) return i % n\n  return i\n}\n\n${filler}\n\n/** \`i\` wrapped, or the fallback for an empty range. */\nexport function wrapOr(i: number, n: number, fallback: number): number {\n  return n > 0 ? wrap(i, n) : ${fallback}\n}\n`
  const test = "import { strict as assert } from 'node:assert'\nimport { wrap, wrapOr } from '../index'\n\ndescribe('wrap', () => {\n  it('wraps the end itself (#7)', () => {\n    assert.equal(wrap(5, 5), 0)\n  })\n  it('gives the fallback for an empty range (#7)', () => {\n    assert.equal(wrapOr(1, 0, -1), -1)\n  })\n})\n"
  const run = await runBundledCliOnFixture('wrap-tsc-mocha', { fixtureOptions: { baseChanges: { 'src/index.ts': source('>', 'i') }, headChanges: { 'src/index.ts': source('>=', 'fallback'), 'src/test/wrap.test.ts': test } } })
  expect(run.report.verdict).toBe('fail-to-pass')
  expect(run.log.join('\n')).not.toContain('Could not tell which test guards which hunk')
  expect(run.report.hunks).toEqual([
    expect.objectContaining({ file: 'src/index.ts', startLine: 3, guardedBy: ['wrap › wraps the end itself (#7)'] }),
    expect.objectContaining({ file: 'src/index.ts', guardedBy: ['wrap › gives the fallback for an empty range (#7)'] })
  ])
})
