/**
 * Tests with the same full title in one file (copied `describe` blocks) are two tests: through the CLI in
 * verify mode, with real runners, the twin that fails before the fix proves it although the other twin
 * (reported after it) passes there. Keyed by file and title alone, the later twin's pass hid the failure
 * and the run ended no-fail-to-pass.
 */
import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import type { Report } from '../../src/report/report.js'
import { runBundledAction } from '../support/action-run.js'
import { runCliOnFixture } from '../support/cli-run.js'
import { buildFixtureRepo, fixturesDir } from '../support/fixture-repo.js'

const fixTestOf = (fixture: string, path: string) => readFileSync(join(fixturesDir(), fixture, 'fix', path), 'utf8')
const twinsOf = (report: Report, name: string) => report.tests.filter((test) => test.name === name).map((test) => ({ head: test.head, preFix: test.preFix, kind: test.kind }))

const JEST_TEST = 'test/streaming-transport.test.ts'
const JEST_NAME = 'StreamingTransport.stream › retries a streaming call after a 429 (#4471)'

test('jest: the twin that fails before the fix is fail-to-pass, the twin that passes there pass-to-pass; each with its line', async () => {
  // The copy passes on both trees: no 429 to retry.
  const copied = `${fixTestOf('retry-budget', JEST_TEST)}
describe('StreamingTransport.stream', () => {
  it('retries a streaming call after a 429 (#4471)', async () => {
    const transport = new StreamingTransport(replies(200))
    await expect(transport.stream({ url: '/events' })).resolves.toEqual({ status: 200 })
  })
})
`
  const run = await runCliOnFixture({ fixtureOptions: { headChanges: { [JEST_TEST]: copied } } })
  expect(run.report.verdict).toBe('fail-to-pass')
  expect(run.exitCode).toBe(0)
  expect(twinsOf(run.report, JEST_NAME)).toEqual([
    { head: 'passed', preFix: 'failed', kind: 'fail-to-pass' },
    { head: 'passed', preFix: 'passed', kind: 'pass-to-pass' }
  ])
  // jest gives each test's line (--testLocationInResults): the twins keep theirs through the shuffled runs.
  expect(run.report.tests.filter((test) => test.name === JEST_NAME).map((test) => test.line)).toEqual([9, 16])
  expect(run.markdown).toContain(`| \`${JEST_TEST}\` | \`${JEST_NAME}\` (line 16) |`)
})

test('jest in a monorepo package (--working-directory): the same, at the package\'s paths', async () => {
  const packageDir = 'packages/transport'
  const copied = `${fixTestOf('retry-budget', JEST_TEST)}
describe('StreamingTransport.stream', () => {
  it('retries a streaming call after a 429 (#4471)', async () => {
    await expect(new StreamingTransport(replies(200)).stream({ url: '/events' })).resolves.toEqual({ status: 200 })
  })
})
`
  const run = await runCliOnFixture({ fixtureOptions: { packageDir, headChanges: { [JEST_TEST]: copied } }, args: ['--working-directory', packageDir] })
  expect(run.report.verdict).toBe('fail-to-pass')
  expect(run.report.tests.filter((test) => test.name === JEST_NAME).map((test) => [test.file, test.kind])).toEqual([
    [`${packageDir}/${JEST_TEST}`, 'fail-to-pass'],
    [`${packageDir}/${JEST_TEST}`, 'pass-to-pass']
  ])
  expect(run.report.diffCoverage).toMatchObject({ covered: 2, total: 2, files: [{ file: `${packageDir}/src/streaming-transport.ts` }] })
})

test('the bundled action (dist/index.js, run npm run build first) on a pull request with twins: fail-to-pass, a green step', async () => {
  const copied = `${fixTestOf('retry-budget', JEST_TEST)}
describe('StreamingTransport.stream', () => {
  it('retries a streaming call after a 429 (#4471)', async () => {
    await expect(new StreamingTransport(replies(200)).stream({ url: '/events' })).resolves.toEqual({ status: 200 })
  })
})
`
  const repo = await buildFixtureRepo('retry-budget', { headChanges: { [JEST_TEST]: copied } })
  const pullRequest = { number: 8, title: 'Fix streaming retries', body: 'Fixes #4471', base: { sha: repo.base }, head: { sha: repo.head } }
  try {
    const result = await runBundledAction({ event: 'pull_request', payload: { action: 'opened', number: 8, pull_request: pullRequest }, workspace: repo.dir, inputs: { 'anthropic-api-key': '', 'on-no-fail-to-pass': 'fail' } })
    expect(result.outputs).toMatch(/verdict<<.*\nfail-to-pass\n/)
    expect(result.code).toBe(0)
    expect(twinsOf(result.report!, JEST_NAME)).toEqual([
      { head: 'passed', preFix: 'failed', kind: 'fail-to-pass' },
      { head: 'passed', preFix: 'passed', kind: 'pass-to-pass' }
    ])
  } finally {
    await repo.cleanup()
  }
})

test('vitest: the same with copied describe blocks', async () => {
  const path = 'test/slugify.test.ts'
  const name = 'slugify › maxLength › keeps a slug of exactly maxLength characters whole (#212)'
  const copied = `${fixTestOf('slugify-esm', path)}
describe('slugify', () => {
  describe('maxLength', () => {
    it('keeps a slug of exactly maxLength characters whole (#212)', () => {
      expect(slugify('Hello World', { maxLength: 40 })).toBe('hello-world')
    })
  })
})
`
  const run = await runCliOnFixture({ fixture: 'slugify-esm', fixtureOptions: { headChanges: { [path]: copied } } })
  expect(run.report.verdict).toBe('fail-to-pass')
  expect(twinsOf(run.report, name)).toEqual([
    { head: 'passed', preFix: 'failed', kind: 'fail-to-pass' },
    { head: 'passed', preFix: 'passed', kind: 'pass-to-pass' }
  ])
  // vitest 1.4+ gives each test's line (--includeTaskLocation).
  expect(run.report.tests.filter((test) => test.name === name).map((test) => test.line)).toEqual([31, 47])
})

test('mocha (no line in its report): twins told apart by their order', async () => {
  const path = 'test/parse.test.js'
  const name = 'parse long flags › keeps every "=" after the first in the value (#37)'
  const copied = `${fixTestOf('argv-cjs', path)}
describe('parse', () => {
  describe('long flags', () => {
    it('keeps every "=" after the first in the value (#37)', () => {
      assert.deepEqual(parse(['--token=abc'], { string: ['token'] }), { _: [], token: 'abc' })
    })
  })
})
`
  const run = await runCliOnFixture({ fixture: 'argv-cjs', fixtureOptions: { headChanges: { [path]: copied } } })
  expect(run.report.verdict).toBe('fail-to-pass')
  expect(twinsOf(run.report, name)).toEqual([
    { head: 'passed', preFix: 'failed', kind: 'fail-to-pass' },
    { head: 'passed', preFix: 'passed', kind: 'pass-to-pass' }
  ])
  expect(run.report.tests.filter((test) => test.name === name).map((test) => test.occurrence)).toEqual([1, 2])
  expect(run.markdown).toContain(`| \`${path}\` | \`${name}\` (#2) |`)
})

test('node:test: the same', async () => {
  const path = 'test/parse-line.test.js'
  const name = 'parseLine › keeps an empty last field after a trailing delimiter (#52)'
  const copied = `${fixTestOf('csv-esm', path)}
describe('parseLine', () => {
  it('keeps an empty last field after a trailing delimiter (#52)', () => {
    assert.deepEqual(parseLine('a,b'), ['a', 'b'])
  })
})
`
  const run = await runCliOnFixture({ fixture: 'csv-esm', fixtureOptions: { headChanges: { [path]: copied } } })
  expect(run.report.verdict).toBe('fail-to-pass')
  expect(twinsOf(run.report, name)).toEqual([
    { head: 'passed', preFix: 'failed', kind: 'fail-to-pass' },
    { head: 'passed', preFix: 'passed', kind: 'pass-to-pass' }
  ])
})
