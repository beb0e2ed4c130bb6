/** Each tool's run and what a linter's machine-readable report says is left. */
import { TOOLS, takes } from '../../../src/execute/tidy/tools.js'

test('the write and fix runs: options from the script first, the files after `--`', () => {
  expect(TOOLS.prettier.args(['--config', 'p.json'], ['test/a.test.js'])).toEqual(['--config', 'p.json', '--write', '--log-level', 'warn', '--', 'test/a.test.js'])
  expect(TOOLS.eslint.args([], ['test/a.test.js'])).toEqual(['--fix', '--format', 'json', '--', 'test/a.test.js'])
  expect(TOOLS.ruffCheck.args(['--line-length', '90'], ['tests/test_a.py'])).toEqual(['check', '--line-length', '90', '--fix', '--output-format', 'json', '--', 'tests/test_a.py'])
  expect(TOOLS.ruffFormat.args([], ['tests/test_a.py'])).toEqual(['format', '--', 'tests/test_a.py'])
  expect(TOOLS.black.args(['-l', '100'], ['tests/test_a.py'])).toEqual(['-l', '100', '--quiet', '--', 'tests/test_a.py'])
  expect(TOOLS.biome.args([], ['test/a.test.ts'])).toEqual(['format', '--write', 'test/a.test.ts'])
})

test('a tool takes the files of its language only', () => {
  expect(['a.test.js', 'a.test.mjs', 'a.spec.tsx', 'test_a.py'].filter((path) => takes(TOOLS.prettier, path))).toEqual(['a.test.js', 'a.test.mjs', 'a.spec.tsx'])
  expect(['a.test.js', 'test_a.py'].filter((path) => takes(TOOLS.black, path))).toEqual(['test_a.py'])
})

test("ruff's JSON: each diagnostic by the file it was given, its row, code and message", () => {
  const stdout = JSON.stringify([
    { cell: null, code: 'E501', filename: '/tmp/tree/tests/regression/test_issue_7.py', location: { column: 89, row: 12 }, message: 'Line too long (97 > 88)' },
    { code: null, filename: '/tmp/tree/tests/regression/test_issue_7.py', location: { column: 1, row: 3 }, message: 'SyntaxError: Expected an expression' }
  ])
  const remaining = TOOLS.ruffCheck.remaining!(stdout, ['tests/regression/test_issue_7.py', 'tests/regression/test_other.py'])
  expect(Object.fromEntries(remaining)).toEqual({
    'tests/regression/test_issue_7.py': [
      { line: 12, rule: 'E501', message: 'Line too long (97 > 88)' },
      { line: 3, rule: null, message: 'SyntaxError: Expected an expression' }
    ],
    'tests/regression/test_other.py': []
  })
  // Nothing printed: nothing left.
  expect(Object.fromEntries(TOOLS.ruffCheck.remaining!('', ['t.py']))).toEqual({ 't.py': [] })
})

test("eslint's JSON that is not a report is a failure to read, never an empty result", () => {
  expect(() => TOOLS.eslint.remaining!('Oops! Something went wrong', ['a.js'])).toThrow()
  expect(() => TOOLS.eslint.remaining!('{"not": "an array"}', ['a.js'])).toThrow(/JSON array/)
})
