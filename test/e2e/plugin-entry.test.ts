/**
 * The CLI end to end on a fix inside a plugin that the package entry loads (a CommonJS package tested
 * with jest): the model is given one import line, the entry's, checked by loading it with jest in both trees.
 */
import { join } from 'node:path'
import { requestText } from '../support/fake-anthropic.js'
import { runCliOnFixture } from '../support/cli-run.js'
import { fixtureAnswers } from '../support/scripted-model.js'

const FIXTURE = 'numfmt-plugin'

test('generate: a fix in a plugin is reached through the package entry, and that import loads at head and before the fix', async () => {
  const run = await runCliOnFixture({ fixture: FIXTURE, script: fixtureAnswers(FIXTURE), args: ['--issue', join('__fixtures__', FIXTURE, 'issue.md')] })
  expect(run.log.join('\n')).not.toContain('could not finish')
  expect(run.exitCode).toBe(0)
  const { report } = run
  expect(report).toMatchObject({ verdict: 'fail-to-pass', mode: 'generate', framework: 'jest' })
  // The entry (package.json's main, `dist/index.js`, is build output: its source `src/index.js`) reaches the
  // plugin; the style example imports the entry. The plugin's own path is the second choice.
  expect(report.context!.imports).toEqual([
    { module: 'src/plugins/ordinal.js', specifier: '../../src', through: 'src/index.js', loads: { head: true, preFix: true } },
    { module: 'src/plugins/ordinal.js', specifier: '../../src/plugins/ordinal', through: null, loads: { head: true, preFix: true } }
  ])
  const write = requestText(run.model!.requests[2])
  expect(write).toContain(
    '- Reach `src/plugins/ordinal.js` through `src/index.js`, which imports it: import `../../src`. Checked: it loads at head and before the fix. Only for a name it does not export: `../../src/plugins/ordinal`.'
  )
  expect(write).not.toMatch(/^- Import `src\/plugins\/ordinal\.js` as/m)
  // One line for the entry: not a second one for the entry as a related module.
  expect(write).not.toMatch(/^- Import `src\/index\.js` as/m)
  // The entry is shown, whole (it is small): the API a test calls, and how it reaches the plugin.
  expect(write).toContain('### src/index.js (the public API around the changed module: test through it)')
  expect(write).toContain("const ordinal = require('./plugins/ordinal')")
  expect(report.context).toMatchObject({ files: ['src/plugins/ordinal.js', 'src/index.js', 'test/format.test.js'] })
  expect(report.context!.tokens).toBeGreaterThan(500)
  const kinds = Object.fromEntries(report.tests.map((test) => [test.name.replace('ordinals of the teens (#31) › ', ''), test.kind]))
  expect(kinds).toEqual({
    '11, 12 and 13 take th': 'fail-to-pass',
    '111, 112 and 113 take th': 'fail-to-pass',
    '1, 22, 101 and 1003 keep st, nd, rd': 'pass-to-pass',
    '10, 14, 19 and 20 take th': 'pass-to-pass'
  })
  // The check's files are gone: only the suite is delivered.
  expect(report.suite.files.map((file) => file.path)).toEqual(['test/regression/issue-31.test.js'])
})
