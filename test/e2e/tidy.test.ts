/**
 * The bundled CLI in generate mode on a repository with its own prettier and eslint (issue 24, item 7): the
 * generated suite is formatted by the repository's prettier, then fixed by its eslint, in the sandbox,
 * before it runs at head; the suite delivered is that file, proven; what eslint still says is in
 * report.json and report.md. The scripted model (csv-esm's answers), real git, real node, prettier 3.10.1
 * and eslint 9.39.5 from this repository's devDependencies. Run `npm run build` first.
 */
import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { runBundledCliOnFixture } from '../support/cli-run.js'
import { fixtureAnswers } from '../support/scripted-model.js'

const FIXTURE = 'csv-esm'
const SUITE_PATH = 'test/regression/issue-52.test.js'
const scripted = (fixtureAnswers(FIXTURE)['write-tests'] as { tool_use: { input: { files: Array<{ content: string }> } } }).tool_use.input.files[0].content

// The repository's lint step: prettier wants semicolons; its eslint wants single quotes (a fix, applied after
// prettier's double quotes) and lines of at most 110 characters (no fix: two of the model's comments are longer).
const baseChanges = {
  'package.json': JSON.stringify({ name: 'csv-lite', private: true, type: 'module', scripts: { test: 'node --test --test-concurrency=1', lint: 'eslint . && prettier --check .' } }, null, 2),
  '.prettierrc.json': JSON.stringify({ semi: true, printWidth: 100 }),
  'eslint.config.js': "export default [{ files: ['**/*.js'], rules: { quotes: ['error', 'single'], 'max-len': ['error', { code: 110 }] } }]\n"
}

test("generate: the suite is formatted by the repository's prettier and fixed by its eslint before it runs; what eslint still says is reported", async () => {
  const run = await runBundledCliOnFixture(FIXTURE, { generate: true, fixtureOptions: { baseChanges } })
  expect(run.exitCode).toBe(0)
  expect(run.report).toMatchObject({ verdict: 'fail-to-pass', mode: 'generate' })
  const suite = readFileSync(join(run.outDir, 'suite', SUITE_PATH), 'utf8')
  // prettier's semicolons, eslint's single quotes: nothing else of the model's file changed.
  expect(suite).toContain("import { describe, it } from 'node:test';\n")
  expect(suite).not.toBe(scripted)
  expect(suite.replace(/;$/gm, '')).toBe(scripted)
  const [file] = run.report.suite.files
  expect(file).toMatchObject({ path: SUITE_PATH, collectedByRepoTests: true })
  expect(file.tidy).toEqual({
    formatter: 'prettier',
    linter: 'eslint',
    changed: true,
    remaining: [
      { line: 11, rule: 'max-len', message: 'This line has a length of 112. Maximum allowed is 110.' },
      { line: 26, rule: 'max-len', message: 'This line has a length of 111. Maximum allowed is 110.' }
    ],
    failed: []
  })
  // The formatted file is the one proven: its tests ran at head and before the fix.
  expect(run.report.tests.filter((test) => test.kind === 'fail-to-pass').length).toBeGreaterThan(0)
  expect(run.report.tests.every((test) => test.file === SUITE_PATH)).toBe(true)
  expect(run.runLog).toContain('Tidy: the generated tests go through prettier, as the "lint" script says, then eslint (its fixes), as the "lint" script says, before they run')
  expect(run.markdown).toContain('eslint still reports `line 11 max-len: This line has a length of 112. Maximum allowed is 110.`; `line 26 max-len')
})
