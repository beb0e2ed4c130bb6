import { parseTapTree, readTapResults } from '../../src/frameworks/tap-report.js'

// tap 18+'s report of three files (its own shape, trimmed): one whose process failed after its tests
// passed, one that crashed before any test, one cut off mid-test (the run's timeout ends the report).
const TAP = `TAP version 14
# Subtest: test/a.test.js
    # Subtest: passes (\\#12)
        ok 1 - should be equal
        1..1
    ok 1 - passes (\\#12) # time=2ms

    1..1
not ok 1 - test/a.test.js # time=90ms
  ---
  exitCode: 3
  signal: null
  ...

# Subtest: test/c.test.js
    1..0 # no tests found
not ok 2 - test/c.test.js # time=1400ms
  ---
  exitCode: null
  signal: SIGSEGV
  ...

# Subtest: test/b.test.js
    # Subtest: outer
        # Subtest: finished
            ok 1 - fine
            1..1
        ok 1 - finished # time=1ms

        # Subtest: cut off
            ok 1 - started
`

describe('reading tap’s report', () => {
  it('is no report when tap never started one', () => {
    expect(parseTapTree('')).toBeNull()
    expect(parseTapTree('Error: Cannot find module tap\n    at x (y.js:1:1)\n')).toBeNull()
  })

  it('says which files failed outside their tests, finds a crashed file’s error in the output, and names what did not run', () => {
    const output = 'some other output\nSegmentation fault in native code\n  at load (/tmp/tree/test/c.test.js:2:1)\nmore\n'
    const { tests, fileErrors } = readTapResults(parseTapTree(TAP)!, ['test/a.test.js', 'test/b.test.js', 'test/c.test.js', 'test/d.test.js'], output)
    expect(tests.map((test) => `${test.file}: ${test.name}: ${test.status}`)).toEqual([
      // TAP's escaped `#` is the title's own.
      'test/a.test.js: passes (#12): passed',
      'test/b.test.js: outer › finished: passed',
      // Cut off before its end: no result of its own, never a pass.
      'test/b.test.js: outer › cut off: failed'
    ])
    expect(tests[2].message).toBe('tap reported no result for this test')
    expect(fileErrors).toEqual([
      { file: 'test/a.test.js', message: 'tap failed this file after its tests passed: its process exited with code 3' },
      { file: 'test/c.test.js', message: expect.stringMatching(/^tap ran no test from this file: its process was killed by SIGSEGV\n[\s\S]*Segmentation fault in native code\n {2}at load \(\/tmp\/tree\/test\/c\.test\.js:2:1\)/) },
      { file: 'test/d.test.js', message: 'tap did not run this file (is it one of the files its configuration runs?)' }
    ])
  })
})
