/** The settings that override detection: working-directory, test-command, build-command, framework. */
import { runCli } from '../../src/cli.js'
import { linesLogger, runCliOnFixture } from '../support/cli-run.js'
import { fixtureAnswers } from '../support/scripted-model.js'

test('working-directory runs the tests of one package of a monorepo, and reports repository paths', async () => {
  const packageDir = 'packages/transport'
  const run = await runCliOnFixture({ fixtureOptions: { packageDir }, args: ['--working-directory', `${packageDir}/`] })
  expect(run.report).toMatchObject({ verdict: 'fail-to-pass', preFixTree: { reverted: [`${packageDir}/src/streaming-transport.ts`], dependencies: 'reused' } })
  expect(run.report.tests).toEqual([expect.objectContaining({ file: `${packageDir}/test/streaming-transport.test.ts`, kind: 'fail-to-pass' })])
  expect(run.report.diffCoverage).toMatchObject({ covered: 2, total: 2, files: [{ file: `${packageDir}/src/streaming-transport.ts` }] })
})

test("test-command runs the repository's own command, without a shell, with its variables", async () => {
  const run = await runCliOnFixture({ args: ['--test-command', `TZ=UTC ${process.execPath} node_modules/jest/bin/jest.js --testTimeout=5000 {files}`] })
  expect(run.report.verdict).toBe('fail-to-pass')
  expect(run.report.tests).toEqual([expect.objectContaining({ file: 'test/streaming-transport.test.ts', kind: 'fail-to-pass' })])
})

test("a bare runner name in test-command is the repository's own: node_modules/.bin comes first on PATH, as npm run puts it", async () => {
  const run = await runCliOnFixture({ args: ['--test-command', 'jest --testTimeout=5000 {files}'] })
  expect(run.report.verdict).toBe('fail-to-pass')
  expect(run.report.preflight?.command).toMatch(/^jest --testTimeout=5000 /)
})

test('build-command runs in each tree before its tests', async () => {
  const answers = fixtureAnswers('retry-budget')
  const suite = (answers['write-tests'] as { tool_use: { input: { files: Array<{ content: string }> } } }).tool_use.input.files[0].content
  const checksBuild = `${suite}
// Scenario: the build ran in this tree — a harness check, bug #4471.
test('sees the build output of its own tree', () => {
  const fs = require('fs')
  const built = fs.readFileSync(require('path').join(__dirname, '..', '..', 'BUILT.txt'), 'utf8')
  expect(built).toBe(require('path').resolve(__dirname, '..', '..'))
})
`
  const build = `${process.execPath} -e "require('fs').writeFileSync('BUILT.txt', process.cwd())"`
  const run = await runCliOnFixture({
    script: { ...answers, 'write-tests': { tool_use: { name: 'write_test_files', input: { files: [{ path: 'test/regression/issue-4471.test.ts', content: checksBuild, tests: [] }] } } } },
    args: ['--build-command', build]
  })
  expect(run.report.tests.find((t) => t.name === 'sees the build output of its own tree')).toMatchObject({ head: 'passed', preFix: 'passed' })
  expect(run.report.verdict).toBe('fail-to-pass')
  expect(Object.keys(run.report.timings)).toContain('build')
})

test('a failing build is an error that shows its output', async () => {
  const run = await runCliOnFixture({ args: ['--build-command', `${process.execPath} -e "console.error('tsc: 3 errors'); process.exit(3)"`] })
  expect(run.exitCode).toBe(2)
  expect(run.report.reason).toMatch(/^The build at head failed \(.* exit 3\):\ntsc: 3 errors/)
})

test('framework names the adapter; an unknown one is refused with the list', async () => {
  const named = await runCliOnFixture({ args: ['--framework', 'jest'] })
  expect(named.report).toMatchObject({ framework: 'jest', verdict: 'fail-to-pass' })
  const log: string[] = []
  const code = await runCli(['verify', '--base', 'a', '--head', 'b', '--framework', 'karma'], {}, linesLogger(log))
  expect(code).toBe(2)
  expect(log[0]).toMatch(/^error: regression-testgen: Invalid --framework: "karma" is not one of vitest, jest, mocha, ava, tap, node-test, pytest/)
})
