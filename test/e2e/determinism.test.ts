/**
 * The determinism gate: the suite runs three times at head (as it is, with coverage, shuffled where the
 * runner can) and twice on the pre-fix tree. A test whose result changes between runs of one tree is flaky:
 * reported with its results, never fail-to-pass.
 */
import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { runCliOnFixture } from '../support/cli-run.js'
import { fixturesDir } from '../support/fixture-repo.js'

const fixTest = readFileSync(join(fixturesDir(), 'retry-budget', 'fix', 'test', 'streaming-transport.test.ts'), 'utf8')
const FIX_TEST = 'StreamingTransport.stream › retries a streaming call after a 429 (#4471)'

test('verify: three runs at head, two on the pre-fix tree, the second of those shuffled (jest 29.2+)', async () => {
  const run = await runCliOnFixture({})
  expect(run.report).toMatchObject({ verdict: 'fail-to-pass', runs: { head: 3, preFix: 2 } })
  expect(run.report.tests).toEqual([expect.objectContaining({ name: FIX_TEST, kind: 'fail-to-pass', flaky: false })])
  expect(run.log.filter((line) => /^Run \d/.test(line)).map((line) => line.replace(/:.*/, ''))).toEqual([
    'Run 1 at head (with coverage)',
    'Run 2 at head (shuffled)',
    'Run 3 on the pre-fix tree',
    'Run 4 on the pre-fix tree (shuffled)'
  ])
})

test('a test that fails on the pre-fix tree only once in two runs is flaky, never fail-to-pass', async () => {
  // Fails the first time it runs in the pre-fix tree (a marker in the sandbox's temporary folder), then passes.
  const sometimes = `${fixTest}
describe('beside the fix', () => {
  it('fails before the fix only the first time', () => {
    const fs = require('fs')
    const marker = require('path').join(require('os').tmpdir(), 'ran-in-pre-fix-tree')
    const inPreFixTree = __dirname.split(require('path').sep).includes('pre-fix')
    const first = inPreFixTree && !fs.existsSync(marker)
    if (inPreFixTree) fs.writeFileSync(marker, 'x')
    expect(first).toBe(false)
  })
})
`
  const run = await runCliOnFixture({ fixtureOptions: { headChanges: { 'test/streaming-transport.test.ts': sometimes } }, args: ['--reruns', '2'] })
  expect(run.report.runs).toEqual({ head: 2, preFix: 2 })
  const flaky = run.report.tests.find((test) => test.name === 'beside the fix › fails before the fix only the first time')
  expect(flaky).toMatchObject({ head: 'passed', kind: 'flaky', flaky: true, message: expect.stringMatching(/^flaky: failed, then on run 2 on the pre-fix tree passed/) })
  // The fix's own test still proves it.
  expect(run.report).toMatchObject({ verdict: 'fail-to-pass' })
  expect(run.report.tests.find((test) => test.name === FIX_TEST)).toMatchObject({ kind: 'fail-to-pass', flaky: false })
})
