/**
 * The tidy step for real: a project in a temp folder with its own prettier and eslint (biome, xo)
 * configuration and the real tools installed (test/support/lint-tools.ts), the step found from the repository as
 * the pipeline finds it, and run on a generated file in the tree.
 */
import { lstat, mkdtemp, readFile, rm, symlink, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import type { SuiteFile } from '../../../src/domain.js'
import { TestBudget } from '../../../src/execute/test-budget.js'
import { repositoryTidy } from '../../../src/execute/tidy/repository-tidy.js'
import { tidySuite } from '../../../src/execute/tidy/tidy.js'
import { TOOLS } from '../../../src/execute/tidy/tools.js'
import { createProcessRunner } from '../../../src/ports/process.js'
import { writeInside } from '../../../src/ports/sandbox-writes.js'
import { linesLogger } from '../../support/cli-run.js'
import { installLintToolsInto, type LintTool } from '../../support/lint-tools.js'

const SUITE_PATH = 'test/regression/issue-7.test.js'
// As a model writes it: double quotes, semicolons, a `let` never reassigned, one line too long for the repository.
const WRITTEN = [
  'const { add } = require("../../src/add");',
  '',
  'test("adds two numbers", () => {',
  '  let sum = add(1, 2);',
  '  expect(sum).toBe(3); // the sum of one and two, as the bug report says it should be',
  '});',
  ''
].join('\n')
const generated: SuiteFile = { path: SUITE_PATH, content: WRITTEN, tests: [{ title: 'adds two numbers', scenario: 'sums' }] }

const PRETTIER_CONFIG = JSON.stringify({ semi: false, singleQuote: true })
const ESLINT_CONFIG = `module.exports = [{ files: ['**/*.js'], rules: { 'prefer-const': 'error', 'max-len': ['error', { code: 60 }] } }]\n`

let dir: string
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'rtg-tidy-'))
})
afterEach(async () => {
  await rm(dir, { recursive: true, force: true })
})

/** The project's tracked files written into the tree, the tools installed, and the step the pipeline would make. */
async function stepFor(tracked: Record<string, string>, tools: LintTool[]) {
  for (const [path, content] of Object.entries(tracked)) await writeInside(dir, path, content)
  if (tools.length) await installLintToolsInto(dir, tools)
  const log: string[] = []
  const head = { files: Object.keys(tracked), read: async (path: string) => tracked[path] ?? null }
  const step = await repositoryTidy({ head, treeRoot: dir, packageDir: '', processes: createProcessRunner(), share: async () => undefined, log: linesLogger(log) })
  return { step, log }
}

const project = (extra: Record<string, string> = {}) => ({ 'package.json': JSON.stringify({ name: 'adder', scripts: { test: 'jest' } }), 'src/add.js': 'exports.add = (a, b) => a + b\n', ...extra })

test("prettier formats the generated file by the repository's configuration, then eslint fixes what it can and reports what is left", async () => {
  const { step, log } = await stepFor(project({ '.prettierrc.json': PRETTIER_CONFIG, 'eslint.config.js': ESLINT_CONFIG }), ['prettier', 'eslint'])
  expect(log).toContain("Tidy: the generated tests go through prettier, as .prettierrc.json says, then eslint (its fixes), as eslint.config.js says, before they run")
  const [tidied] = await step!([generated])

  const expected = [
    "const { add } = require('../../src/add')",
    '',
    "test('adds two numbers', () => {",
    '  const sum = add(1, 2)',
    '  expect(sum).toBe(3) // the sum of one and two, as the bug report says it should be',
    '})',
    ''
  ].join('\n')
  expect(tidied.content).toBe(expected)
  // What runs next is what is in the tree.
  expect(await readFile(join(dir, SUITE_PATH), 'utf8')).toBe(expected)
  expect(tidied.tests).toEqual(generated.tests)
  expect(tidied.tidy).toEqual({
    formatter: 'prettier',
    linter: 'eslint',
    changed: true,
    remaining: [{ line: 5, rule: 'max-len', message: 'This line has a length of 84. Maximum allowed is 60.' }],
    failed: []
  })
  expect(log).toContain(`Tidy: ${SUITE_PATH}: prettier and eslint ran on it (changed); eslint still reports line 5 max-len: This line has a length of 84. Maximum allowed is 60.`)
})

test("the options the repository's own script passes are carried: `prettier --no-semi` from the format script, its globs not", async () => {
  const tracked = project({ 'package.json': JSON.stringify({ name: 'adder', scripts: { format: "prettier --write --no-semi --single-quote 'src/**/*.js'" } }) })
  const { step } = await stepFor(tracked, ['prettier'])
  const [tidied] = await step!([generated])
  expect(tidied.content.split('\n')[0]).toBe("const { add } = require('../../src/add')")
  expect(tidied.tidy).toMatchObject({ formatter: 'prettier', linter: null, changed: true, remaining: [], failed: [] })
})

test('a linter that fails changes nothing and is reported; the formatter\'s work stays and the run goes on', async () => {
  const broken = "module.exports = [{ rules: { 'no-such-rule-anywhere': 'error' } }]\n"
  const { step, log } = await stepFor(project({ '.prettierrc.json': PRETTIER_CONFIG, 'eslint.config.js': broken }), ['prettier', 'eslint'])
  const [tidied] = await step!([generated])
  expect(tidied.content).toContain("  let sum = add(1, 2)\n")
  expect(tidied.tidy).toMatchObject({ formatter: 'prettier', linter: null, changed: true, remaining: [] })
  expect(tidied.tidy!.failed).toEqual([expect.stringMatching(/^eslint: exit 2: .*no-such-rule-anywhere/)])
  expect(log.some((line) => line.startsWith('warning: Tidy: eslint failed on the generated tests, which stay as they were: exit 2'))).toBe(true)
  expect(await readFile(join(dir, SUITE_PATH), 'utf8')).toBe(tidied.content)
})

test('a tool the repository configures but has not installed is not used: no step, nothing installed', async () => {
  const { step } = await stepFor(project({ '.prettierrc.json': PRETTIER_CONFIG, 'eslint.config.js': ESLINT_CONFIG }), [])
  expect(step).toBeNull()
})

test('installed but never asked for by the repository (no configuration, no script): not used', async () => {
  const { step } = await stepFor(project(), ['prettier', 'eslint'])
  expect(step).toBeNull()
})

test('a file the formatter replaced by a link is never read through it', async () => {
  const { step } = await stepFor(project({ '.prettierrc.json': PRETTIER_CONFIG, 'eslint.config.js': ESLINT_CONFIG }), ['prettier', 'eslint'])
  await writeFile(join(dir, 'secret.txt'), 'not for the tool\n')
  // A "formatter" of the repository's that swaps the file for a link to another.
  await rm(join(dir, 'node_modules', '.bin', 'prettier'))
  const swap = `#!/usr/bin/env node\nconst fs = require('fs'); const f = process.argv.at(-1); fs.rmSync(f); fs.symlinkSync(${JSON.stringify(join(dir, 'secret.txt'))}, f)\n`
  await writeFile(join(dir, 'swap.js'), swap, { mode: 0o755 })
  await symlink(join(dir, 'swap.js'), join(dir, 'node_modules', '.bin', 'prettier'))
  await expect(step!([generated])).rejects.toThrow(/Refused to read .*issue-7\.test\.js.*symbolic link/)
  expect((await lstat(join(dir, SUITE_PATH))).isSymbolicLink()).toBe(true)
})

test('a formatter that times out changes nothing and is reported; its time is charged to the test budget', async () => {
  await writeInside(dir, 'package.json', '{}')
  // A "formatter" that empties the file, then hangs past its time.
  const hang = `#!/usr/bin/env node\nrequire('fs').writeFileSync(process.argv.at(-1), '')\nsetTimeout(() => {}, 60000)\n`
  await writeFile(join(dir, 'hang.js'), hang, { mode: 0o755 })
  const log: string[] = []
  const budget = new TestBudget(10, linesLogger(log))
  const plan = { formatter: { spec: TOOLS.prettier, program: join(dir, 'hang.js'), options: [], evidence: '.prettierrc' }, linter: null }
  const [tidied] = await tidySuite([generated], { plan, treeRoot: dir, packageDir: '', processes: createProcessRunner(), share: async () => undefined, budget, timeoutMs: 500, log: linesLogger(log) })
  expect(tidied.content).toBe(WRITTEN)
  expect(await readFile(join(dir, SUITE_PATH), 'utf8')).toBe(WRITTEN)
  expect(tidied.tidy).toEqual({ formatter: null, linter: null, changed: false, remaining: [], failed: ['prettier: timed out after 1 s'] })
  expect(budget.report().spentMs).toBeGreaterThanOrEqual(500)
})

// biome's own settings: single quotes, no semicolons; its recommended lint rules.
const BIOME_CONFIG = JSON.stringify({ formatter: { indentStyle: 'space', indentWidth: 2 }, javascript: { formatter: { quoteStyle: 'single', semicolons: 'asNeeded' } }, linter: { rules: { recommended: true } } })
const BIOME_WRITTEN = [
  'import { it, expect } from "vitest";',
  'import { add } from "../../src/add.js";',
  '',
  'it("adds two numbers", () => {',
  '  let sum = add(1, 2);',
  '  expect(sum == 3).toBe(true);',
  '});',
  ''
].join('\n')

test('biome: formatted by biome.json, its lint fixes and import sorting applied, and what biome still reports is in tidy.remaining', async () => {
  const { step, log } = await stepFor(project({ 'package.json': JSON.stringify({ name: 'adder', type: 'module', scripts: { check: 'biome check --write .', test: 'vitest run' } }), 'biome.json': BIOME_CONFIG }), ['@biomejs/biome'])
  expect(log).toContain('Tidy: the generated tests go through biome, as biome.json says, then biome (its fixes), as the "check" script says, before they run')
  const [tidied] = await step!([{ ...generated, content: BIOME_WRITTEN }])

  const expected = [
    "import { expect, it } from 'vitest'",
    "import { add } from '../../src/add.js'",
    '',
    "it('adds two numbers', () => {",
    '  const sum = add(1, 2)',
    '  expect(sum == 3).toBe(true)',
    '})',
    ''
  ].join('\n')
  expect(tidied.content).toBe(expected)
  expect(await readFile(join(dir, SUITE_PATH), 'utf8')).toBe(expected)
  expect(tidied.tidy).toEqual({
    formatter: 'biome',
    linter: 'biome',
    changed: true,
    remaining: [{ line: 6, rule: 'lint/suspicious/noDoubleEquals', message: 'Using == may be unsafe if you are relying on type coercion.' }],
    failed: []
  })
  expect(log).toContain(`Tidy: ${SUITE_PATH}: biome ran on it (changed); biome still reports line 6 lint/suspicious/noDoubleEquals: Using == may be unsafe if you are relying on type coercion.`)
})

test("biome's linter beside prettier leaves the formatting to prettier", async () => {
  const { step } = await stepFor(project({ '.prettierrc.json': JSON.stringify({ semi: true, singleQuote: false }), 'biome.json': BIOME_CONFIG }), ['prettier', '@biomejs/biome'])
  const [tidied] = await step!([{ ...generated, content: BIOME_WRITTEN }])
  // prettier's double quotes and semicolons stay; biome's fixes and import order are applied.
  expect(tidied.content.split('\n').slice(0, 5)).toEqual(['import { expect, it } from "vitest";', 'import { add } from "../../src/add.js";', '', 'it("adds two numbers", () => {', '  const sum = add(1, 2);'])
  expect(tidied.tidy).toMatchObject({ formatter: 'prettier', linter: 'biome', remaining: [{ line: 6, rule: 'lint/suspicious/noDoubleEquals' }], failed: [] })
})

test('biome leaving the generated file out by its configuration is reported as a failure, the file as it was', async () => {
  const { step } = await stepFor(project({ 'biome.json': JSON.stringify({ files: { includes: ['src/**'] } }) }), ['@biomejs/biome'])
  const [tidied] = await step!([{ ...generated, content: BIOME_WRITTEN }])
  expect(tidied.content).toBe(BIOME_WRITTEN)
  // The formatter says so on its exit 1; the linter's report says it checked nothing.
  expect(tidied.tidy!.failed).toEqual([expect.stringMatching(/^biome: exit 1: .*No files were processed/), expect.stringMatching(/^biome: .*checked none of the files/)])
})

test("xo: its --fix applied by the repository's `xo` settings, and the rule it still reports", async () => {
  const xoSettings = { space: true, rules: { 'max-len': ['error', { code: 60 }] } }
  const { step, log } = await stepFor(project({ 'package.json': JSON.stringify({ name: 'adder', type: 'module', scripts: { test: 'xo && node --test' }, xo: xoSettings }) }), ['xo'])
  expect(log).toContain('Tidy: the generated tests go through xo (its fixes), as the "test" script says, before they run')
  const written = [
    'import test from "node:test"',
    'import assert from "node:assert/strict"',
    'import { add } from "../../src/add.js"',
    '',
    'test("adds two numbers", () => {',
    '  let sum = add(1, 2)',
    '  assert.equal(sum, 3) // the sum of one and two, as the bug report says it should be',
    '})',
    ''
  ].join('\n')
  const [tidied] = await step!([{ ...generated, path: 'test/regression/issue-7.test.mjs', content: written }])
  // xo's own style (semicolons, single quotes, no spaces in braces) and its fixes (const, a capital comment).
  const expected = [
    "import test from 'node:test';",
    "import assert from 'node:assert/strict';",
    "import {add} from '../../src/add.js';",
    '',
    "test('adds two numbers', () => {",
    '  const sum = add(1, 2);',
    '  assert.equal(sum, 3); // The sum of one and two, as the bug report says it should be',
    '});',
    ''
  ].join('\n')
  expect(tidied.content).toBe(expected)
  expect(await readFile(join(dir, 'test/regression/issue-7.test.mjs'), 'utf8')).toBe(expected)
  expect(tidied.tidy).toEqual({ formatter: null, linter: 'xo', changed: true, remaining: [{ line: 7, rule: 'max-len', message: 'This line has a length of 86. Maximum allowed is 60.' }], failed: [] })
  expect(log).toContain('Tidy: test/regression/issue-7.test.mjs: xo ran on it (changed); xo still reports line 7 max-len: This line has a length of 86. Maximum allowed is 60.')
})
