/**
 * The CLI end to end where the style example spells its import without an extension in an ES module
 * (written for a resolver Node no longer has): the import check's first round finds that spelling failing,
 * its second round loads the `.js` one, and the model is given only that, with the failure and its error.
 */
import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { fixturesDir } from '../support/fixture-repo.js'
import { requestText } from '../support/fake-anthropic.js'
import { runCliOnFixture } from '../support/cli-run.js'
import { fixtureAnswers } from '../support/scripted-model.js'

const FIXTURE = 'csv-esm'
const EXAMPLE = 'test/parse-line.test.js'

test('generate: an extensionless import that does not load is not offered; the .js spelling that loads is, with why the other failed', async () => {
  const example = readFileSync(join(fixturesDir(), FIXTURE, 'base', EXAMPLE), 'utf8').replace("from '../src/parse-line.js'", "from '../src/parse-line'")
  const run = await runCliOnFixture({
    fixture: FIXTURE,
    script: fixtureAnswers(FIXTURE),
    fixtureOptions: { baseChanges: { [EXAMPLE]: example } },
    args: ['--issue', join('__fixtures__', FIXTURE, 'issue.md')]
  })
  expect(run.report).toMatchObject({ mode: 'generate', verdict: 'fail-to-pass', framework: 'node-test' })
  expect(run.report.context!.imports).toEqual([
    { module: 'src/parse-line.js', specifier: '../../src/parse-line', through: null, loads: { head: false, preFix: false }, error: expect.stringMatching(/^Error \[ERR_MODULE_NOT_FOUND\]: Cannot find module/) },
    { module: 'src/parse-line.js', specifier: '../../src/parse-line.js', through: null, loads: { head: true, preFix: true } }
  ])
  const write = requestText(run.model!.requests[2])
  expect(write).toMatch(/^- Import `src\/parse-line\.js` as `\.\.\/\.\.\/src\/parse-line\.js`\. Checked: it loads at head and before the fix\. Not `\.\.\/\.\.\/src\/parse-line` \(Error \[ERR_MODULE_NOT_FOUND\]: Cannot find module .*\): it does not load\.$/m)
  // The example's own spelling, the one that failed, is not offered among its imports either.
  expect(write).not.toMatch(/→ `\.\.\/\.\.\/src\/parse-line`/)
})
