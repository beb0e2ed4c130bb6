import { fileTitle, parseTap, readAvaResults } from '../../src/frameworks/ava-report.js'

// ava 7's --tap report of a run of three files (its own words, trimmed to what the mapping reads).
const TAP = `TAP version 13
ok 1 - a › skipped one # SKIP
not ok 2 - a › later # TODO
ok 3 - a › passes
not ok 4 - a › fails
  ---
    name: AssertionError
    assertion: t.is()
    details:
      'Difference (- actual, + expected):': |-
        - 2
        + 3
    message: math
    at: 'ExecutionContext.is (file:///work/main/node_modules/ava/lib/assert.js:309:16)'
  ...
not ok 5 - a › throws
  ---
    name: AssertionError
    details:
      'Error thrown in test:': |-
        TypeError {
          message: 'boom',
        }
    message: Error thrown in test
    at: 'file:///tmp/tree/test/a.test.js:6:30'
  ...
not ok 6 - Error [ERR_MODULE_NOT_FOUND]: Cannot find module '/tmp/tree/test/missing.js' imported from /tmp/tree/test/crash.test.js
  ---
    name: Error
    message: >-
      Cannot find module '/tmp/tree/test/missing.js' imported from
      /tmp/tree/test/crash.test.js
    at: 'finalizeResolution (node:internal/modules/esm/resolve:283:11)'
  ...
not ok 7 - test/crash.test.js exited with a non-zero exit code: 1
not ok 8 - No tests found in test/empty.test.js, make sure to import "ava" at the top of your test file

1..5
# tests 4
# pass 1
# skip 1
# fail 5
`
const FILES = ['test/a.test.js', 'test/crash.test.js', 'test/empty.test.js']

describe('readAvaResults', () => {
  const { tests, fileErrors } = readAvaResults(parseTap(TAP)!, FILES)
  const byName = Object.fromEntries(tests.map((test) => [test.name, test]))

  it('maps passed, skipped and todo tests to their file, by their title without the file title', () => {
    expect(tests.map((test) => test.file)).toEqual(Array(5).fill('test/a.test.js'))
    expect(byName['passes']).toMatchObject({ status: 'passed', message: '' })
    expect(byName['skipped one']).toMatchObject({ status: 'skipped', message: '' })
    // `not ok … # TODO` is a todo test, not a failure.
    expect(byName['later']).toMatchObject({ status: 'skipped', message: '' })
  })

  it("keeps ava's description of a failure: message, assertion, details; not ava's own frames", () => {
    expect(byName['fails']).toMatchObject({ status: 'failed' })
    expect(byName['fails'].message).toBe('math\nassertion: t.is()\nDifference (- actual, + expected):\n- 2\n+ 3')
    // A frame of the test itself stays, as a path.
    expect(byName['throws'].message).toContain("TypeError {\n  message: 'boom',\n}")
    expect(byName['throws'].message).toContain('at /tmp/tree/test/a.test.js:6:30')
  })

  it('makes a file that crashed on import, or has no tests, a file error, never a test', () => {
    expect(fileErrors.map((error) => error.file)).toEqual(['test/crash.test.js', 'test/empty.test.js'])
    expect(fileErrors[0].message).toContain('test/crash.test.js exited with a non-zero exit code: 1')
    // The import error names its importer, so it goes to that file.
    expect(fileErrors[0].message).toContain("Cannot find module '/tmp/tree/test/missing.js'")
    expect(fileErrors[1].message).toContain('No tests found in test/empty.test.js')
  })

  it('takes a lone file\'s points as they are: ava gives no file title to a run of one file', () => {
    const one = readAvaResults(parseTap('TAP version 13\nok 1 - a › b\nnot ok 2 - before hook\n  ---\n    name: AssertionError\n    message: no db\n  ...\n1..1\n')!, ['test/a.test.js'])
    expect(one.tests).toEqual([{ file: 'test/a.test.js', name: 'a › b', status: 'passed', durationMs: null, message: '' }])
    // A failed hook kept tests from running: the file did not run as it should.
    expect(one.fileErrors).toEqual([{ file: 'test/a.test.js', message: 'before hook failed: no db' }])
  })

  it('says so for a requested file ava did not run', () => {
    const none = readAvaResults(parseTap('TAP version 13\n\n1..0\n')!, ['lib/helper.js'])
    expect(none.tests).toEqual([])
    expect(none.fileErrors[0].message).toContain('ava ran no test from this file')
  })
})

describe('parseTap', () => {
  it('is null when there is no TAP report at all', () => {
    expect(parseTap('✘ Couldn’t find any files to test\n')).toBeNull()
  })
})

describe('fileTitle', () => {
  it("titles a file as ava does: below the files' common folder, without test markers and extension", () => {
    const files = ['test/regression/issue-18.test.js', 'test/pages.spec.mjs', 'test/__tests__/test-sum.js']
    expect(files.map((file) => fileTitle(file, files))).toEqual(['regression › issue-18', 'pages', 'sum'])
    expect(fileTitle('src/a.test.js', ['src/a.test.js', 'test/b.test.js'])).toBe('src › a')
  })
})
