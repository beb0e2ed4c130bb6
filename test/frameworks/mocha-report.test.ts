import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join, resolve } from 'node:path'
import { findMocha } from '../../src/frameworks/mocha-install.js'
import { extractReport, readResults } from '../../src/frameworks/mocha-report.js'
import { mochaReporterArgs } from '../../src/frameworks/mocha.js'
import { createProcessRunner } from '../../src/ports/process.js'

const MOCHA_BIN = resolve('node_modules/mocha/bin/mocha.js')

const HOOKS = `describe('with a broken before', () => {
  before(() => {
    throw new Error('before exploded')
  })
  it('needs the before', () => {})
})
describe('fine', () => {
  it('runs anyway', () => {
    console.log('{\\n  "stats": "a test printing something report-like", "tests": [')
    console.error('a warning } with { braces "')
  })
})
`

describe('the JSON report printed to stdout (mocha < 9.2)', () => {
  let dir: string

  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'mocha-report-'))
    await mkdir(join(dir, 'test'))
    await writeFile(join(dir, 'test', 'hooks.js'), HOOKS)
  })

  afterAll(() => rm(dir, { recursive: true, force: true }))

  it("is found among the tests' own output, and a failed before-all hook makes its file a file error", async () => {
    // Real mocha output: the reporter prints to stdout, interleaved with stderr, as an older mocha does.
    const args = [MOCHA_BIN, '--no-config', '--no-package', '--reporter', 'json', 'test/hooks.js']
    const ran = await createProcessRunner().run({ command: process.execPath, args, cwd: dir, timeoutMs: 60000 })
    const extracted = extractReport(ran.output)
    expect(extracted).not.toBeNull()
    expect(extracted!.rest).toContain('a warning } with { braces')
    expect(extracted!.rest).not.toContain('"passes"')

    const { tests, fileErrors } = readResults(extracted!.report, ['test/hooks.js', 'test/other.js'], [dir])
    expect(tests).toEqual([{ file: 'test/hooks.js', name: 'fine › runs anyway', status: 'passed', durationMs: expect.any(Number), message: '' }])
    expect(fileErrors).toEqual([
      { file: 'test/hooks.js', message: expect.stringMatching(/^with a broken before "before all" hook[^\n]*: Error: before exploded/) },
      { file: 'test/other.js', message: expect.stringContaining('ran no test') }
    ])
  })

  it('is null when there is none', () => {
    expect(extractReport('{\n  "stats": {}, "tests": [1, 2')).toBeNull()
    expect(extractReport('all good')).toBeNull()
  })
})

describe('readResults', () => {
  it('tells apart tests with the same title, and puts an error outside any file on every file', () => {
    const test = (title: string, file?: string, err?: object) => ({ title, fullTitle: `s ${title}`, file, duration: 1, err: err ?? {} })
    const report = {
      tests: [test('same', '/t/a.js'), test('same', '/t/a.js', { message: 'boom' })],
      failures: [test('same', '/t/a.js', { message: 'boom' }), { title: 'Uncaught error outside test suite', fullTitle: 'Uncaught error outside test suite', err: { message: 'late' } }],
      pending: []
    }
    const { tests, fileErrors } = readResults(report, ['a.js', 'b.js'], ['/t'])
    expect(tests.map((t) => t.status)).toEqual(['passed', 'failed'])
    expect(tests[1].message).toBe('boom')
    expect(fileErrors).toEqual([
      { file: 'a.js', message: 'Uncaught error outside test suite: late' },
      { file: 'b.js', message: 'Uncaught error outside test suite: late' }
    ])
  })
})

describe('mochaReporterArgs', () => {
  it("follows what this project's mocha 11 supports", () => {
    const mocha = findMocha(resolve('.'))
    expect(mocha).toMatchObject({ modern: true, exitFlag: true, jsonToFile: true, failHookAffectedTests: true, readsOpts: false })
    expect(mochaReporterArgs(mocha, '/s/r.json')).toEqual(['--reporter', 'json', '--reporter-options', 'output=/s/r.json', '--exit', '--fail-hook-affected-tests'])
  })

  it('leaves the JSON on stdout, and --exit out, for a mocha without them', () => {
    const old = { dir: '/m', bin: '/m/bin/_mocha', version: '3.5.3', modern: false, exitFlag: false, jsonToFile: false, failHookAffectedTests: false, readsOpts: true }
    expect(mochaReporterArgs(old, '/s/r.json')).toEqual(['--reporter', 'json'])
  })
})
