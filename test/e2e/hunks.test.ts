/**
 * Which test guards which hunk: a fix of two source hunks, one the fix's test needs (range counting down)
 * and one it does not (a refactor of `last`). Each hunk is taken out alone in a tree of its own, where the
 * fail-to-pass tests run again.
 */
import { runCliOnFixture } from '../support/cli-run.js'
import { TWO_HUNK_FIX } from '../support/two-hunk-fix.js'

test('verify: one hunk is guarded by the fix\'s test, the other by none', async () => {
  const run = await runCliOnFixture({ fixture: 'range-wrapper', fixtureOptions: TWO_HUNK_FIX })
  expect(run.report.verdict).toBe('fail-to-pass')
  expect(run.report.hunks).toEqual([
    { file: 'src/range.js', startLine: 5, endLine: 6, onlyRemoves: false, guardedBy: ['range › counts down with a negative step (#7)'] },
    { file: 'src/range.js', startLine: 18, endLine: 18, onlyRemoves: false, guardedBy: [] }
  ])
  expect(run.log).toContain('warning: No test fails with 1 hunk(s) of the fix taken out alone: src/range.js:18-18')
  expect(run.log.some((line) => /^Run \d+ with hunk 1 of 2 taken out \(src\/range\.js:5-6\): 3 passed, 1 failed/.test(line))).toBe(true)
  expect(run.markdown).toMatch(/## Which test guards which hunk/)
})

test('verify: a hunk that only removes lines no test needs is told apart (dead code going needs no test)', async () => {
  const constants = 'const DEFAULT_STEP = 1\nconst UNUSED_LIMIT = 100\n\nmodule.exports = { DEFAULT_STEP }\n'
  const withDeadCode = {
    baseChanges: { ...TWO_HUNK_FIX.baseChanges, 'src/constants.js': constants },
    headChanges: { ...TWO_HUNK_FIX.headChanges, 'src/constants.js': constants.replace('const UNUSED_LIMIT = 100\n', '') }
  }
  const run = await runCliOnFixture({ fixture: 'range-wrapper', fixtureOptions: withDeadCode })
  expect(run.report.verdict).toBe('fail-to-pass')
  expect(run.report.hunks?.[0]).toEqual({ file: 'src/constants.js', startLine: 1, endLine: 1, onlyRemoves: true, guardedBy: [] })
  expect(run.log).toContain('warning: No test fails with 2 hunk(s) of the fix taken out alone: src/constants.js:1-1 (only removes lines), src/range.js:18-18')
  expect(run.markdown).toContain('`src/constants.js`:1–1 (removal)')
  expect(run.markdown).toContain('⚠️ 1 hunk(s) no test fails without: the suite does not show the fix needs them. 1 removal(s) no test fails without')
})

test('verify: a pass-to-pass test guards a hunk the rest of the fix needs (a guard for what the widened pattern now catches)', async () => {
  const extname = (pattern: string, guard: string) =>
    `const EXTENSION = ${pattern}\n\n/**\n * The extension of a path: from its last dot on.\n *\n * '.bashrc' has none; neither have '.' and '..'.\n */\nfunction extname(path) {\n${guard}  const match = EXTENSION.exec(path)\n  return (match && match[1]) || ''\n}\n\nmodule.exports = { extname }\n`
  const spec = "const { extname } = require('./ext')\n\ntest('a trailing dot is the extension', () => {\n  expect(extname('file.')).toBe('.')\n})\n\ntest('.. has no extension', () => {\n  expect(extname('..')).toBe('')\n})\n"
  const run = await runCliOnFixture({
    fixture: 'range-wrapper',
    fixtureOptions: {
      baseChanges: { 'src/ext.js': extname('/.(\\.[^./]+)$/', '') },
      headChanges: { 'src/ext.js': extname('/.(\\.[^./]+|\\.)$/', "  if (path === '..') return ''\n"), 'src/ext.spec.js': spec }
    }
  })
  expect(run.report.verdict).toBe('fail-to-pass')
  expect(run.report.tests.filter((test) => test.file === 'src/ext.spec.js').map((test) => [test.name, test.kind])).toEqual([
    ['a trailing dot is the extension', 'fail-to-pass'],
    ['.. has no extension', 'pass-to-pass']
  ])
  const extHunks = run.report.hunks?.filter((hunk) => hunk.file === 'src/ext.js')
  expect(extHunks).toEqual([
    { file: 'src/ext.js', startLine: 1, endLine: 1, onlyRemoves: false, guardedBy: ['a trailing dot is the extension'] },
    // Without the guard the widened pattern reads '..' as the extension '.': the pass-to-pass test fails.
    { file: 'src/ext.js', startLine: 9, endLine: 9, onlyRemoves: false, guardedBy: ['.. has no extension'] }
  ])
})
