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

test("biome's linter runs as `biome check --write` with its JSON report; xo as `xo --fix --reporter=json`", () => {
  expect(TOOLS.biomeLint.args(['--config-path', 'tools'], ['test/a.test.ts'])).toEqual(['check', '--config-path', 'tools', '--write', '--reporter=json', '--max-diagnostics=none', 'test/a.test.ts'])
  expect(TOOLS.xo.args(['--space'], ['test/a.test.js'])).toEqual(['--space', '--fix', '--reporter=json', 'test/a.test.js'])
})

// As biome 2.6.8 prints it (`biome check --write --reporter=json`), trimmed of its advices.
const BIOME_REPORT = {
  summary: { changed: 1, unchanged: 1, matches: 0, duration: 5479071, errors: 1, warnings: 1, infos: 0, skipped: 0, suggestedFixesSkipped: 4, diagnosticsNotPrinted: 0 },
  diagnostics: [
    { severity: 'error', message: 'Using == may be unsafe if you are relying on type coercion.', category: 'lint/suspicious/noDoubleEquals', location: { path: 'test/a.test.js', start: { line: 5, column: 11 }, end: { line: 5, column: 13 } }, advices: [] },
    { severity: 'warning', message: 'This import is unused.', category: 'lint/correctness/noUnusedImports', location: { path: 'test/a.test.js', start: { line: 1, column: 8 }, end: { line: 1, column: 32 } }, advices: [] }
  ],
  command: 'check'
}

test("biome's JSON report: each diagnostic by the file it was given, its line, category and message", () => {
  const remaining = TOOLS.biomeLint.remaining!(JSON.stringify(BIOME_REPORT), ['test/a.test.js', 'test/b.test.js'])
  expect(Object.fromEntries(remaining)).toEqual({
    'test/a.test.js': [
      { line: 5, rule: 'lint/suspicious/noDoubleEquals', message: 'Using == may be unsafe if you are relying on type coercion.' },
      { line: 1, rule: 'lint/correctness/noUnusedImports', message: 'This import is unused.' }
    ],
    'test/b.test.js': []
  })
})

test('a biome run that checked none of the files, or printed no report, is a failure, never a clean result', () => {
  const none = { ...BIOME_REPORT, summary: { ...BIOME_REPORT.summary, changed: 0, unchanged: 0 }, diagnostics: [] }
  expect(() => TOOLS.biomeLint.remaining!(JSON.stringify(none), ['a.js'])).toThrow(/checked none of the files/)
  expect(() => TOOLS.biomeLint.remaining!('', ['a.js'])).toThrow()
  expect(() => TOOLS.biomeLint.remaining!('[]', ['a.js'])).toThrow(/JSON report/)
  const otherShape = { ...BIOME_REPORT, diagnostics: [{ ...BIOME_REPORT.diagnostics[0], location: { path: { file: 'test/a.test.js' }, span: [10, 12] } }] }
  expect(() => TOOLS.biomeLint.remaining!(JSON.stringify(otherShape), ['test/a.test.js'])).toThrow(/form not read/)
})

test("xo's JSON report is eslint's", () => {
  const stdout = JSON.stringify([{ filePath: '/tmp/tree/test/a.test.js', messages: [{ ruleId: 'max-len', severity: 2, message: 'This line has a length of 108. Maximum allowed is 60.', line: 9, column: 1 }], errorCount: 1 }])
  expect(Object.fromEntries(TOOLS.xo.remaining!(stdout, ['test/a.test.js']))).toEqual({ 'test/a.test.js': [{ line: 9, rule: 'max-len', message: 'This line has a length of 108. Maximum allowed is 60.' }] })
})
