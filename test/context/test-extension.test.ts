/**
 * The generated test's extension follows the repository's own tests (issue 24, item 7): an ES module test
 * in a package without `"type": "module"` is `.mjs` where the repository's tests are, and the prompt says
 * the same path, suffix and module syntax. Real repositories in temp folders, their context built by buildContext.
 */
import { buildContext } from '../../src/context/context.js'
import { moduleSuffix } from '../../src/context/test-extension.js'
import { layoutFor } from '../../src/context/test-layout.js'
import { readChangeSet } from '../../src/diff/change-set.js'
import { frameworkFor } from '../../src/frameworks/detect.js'
import { renderConventions } from '../../src/model/render.js'
import { createGit } from '../../src/ports/git.js'
import { suitePathFor } from '../../src/suite/placement.js'
import { scratchRepo } from '../support/scratch-repo.js'

const scratch = scratchRepo('rtg-test-extension-')

async function contextFor(files: Record<string, string>, fix: Record<string, string>) {
  scratch.git('init', '-q')
  const base = await scratch.commit(files)
  const head = await scratch.commit(fix)
  const repo = createGit(scratch.dir)
  const pack = await buildContext(await readChangeSet(repo, base, head), repo, await frameworkFor(scratch.dir, 'node-test'))
  const suitePath = suitePathFor({ title: 't', body: '', source: 'pr', truncated: false, issue: '7' } as never, head, pack)
  return { pack, suitePath, conventions: renderConventions(pack, suitePath) }
}

const parseLine = (fixed: boolean) => `export function parseLine(line) {\n  return line.split(',')${fixed ? '' : '.filter(Boolean)'}\n}\n`
const esmTest = (from: string) => `import { test } from 'node:test'\nimport assert from 'node:assert/strict'\nimport { parseLine } from '${from}'\n\ntest('splits', () => assert.deepEqual(parseLine('a,b'), ['a', 'b']))\n`
const commonJsPackage = JSON.stringify({ name: 'csv', scripts: { test: 'node --test' } })

test('a package without "type": "module" whose tests are .mjs (named without .test): the suite is .test.mjs, and the prompt says so', async () => {
  const { pack, suitePath, conventions } = await contextFor(
    { 'package.json': commonJsPackage, 'src/parse-line.mjs': parseLine(false), 'test/parse-line.mjs': esmTest('../src/parse-line.mjs') },
    { 'src/parse-line.mjs': parseLine(true) }
  )
  expect(pack.testFileSuffix).toBe('.test.mjs')
  expect(suitePath).toBe('test/regression/issue-7.test.mjs')
  expect(conventions).toContain('module syntax: ES modules (import).')
  expect(conventions).toContain('- Write the suite to `test/regression/issue-7.test.mjs`. More files are allowed only inside `test/regression/`, named `*.test.mjs`.')
})

test('an ES module style example in .js where the repository also has .mjs tests, in a package without "type": "module": the ES module suite is .mjs', async () => {
  const { pack, conventions } = await contextFor(
    { 'package.json': commonJsPackage, 'src/parse-line.js': parseLine(false), 'test/parse-line.test.js': esmTest('../src/parse-line.js'), 'test/other.test.mjs': "import { test } from 'node:test'\ntest('x', () => {})\n" },
    { 'src/parse-line.js': parseLine(true) }
  )
  expect(pack.styleExample?.path).toBe('test/parse-line.test.js')
  expect(pack.testFileSuffix).toBe('.test.mjs')
  expect(conventions).toMatch(/module syntax: ES modules \(import\)\.\n[\s\S]*named `\*\.test\.mjs`\./)
})

test('the repository\'s own ES module tests are .js (a "type": "module" package, or no .mjs test anywhere): the suite is .js too', async () => {
  const { pack } = await contextFor(
    { 'package.json': JSON.stringify({ name: 'csv', type: 'module', scripts: { test: 'node --test' } }), 'src/parse-line.js': parseLine(false), 'test/parse-line.test.js': esmTest('../src/parse-line.js') },
    { 'src/parse-line.js': parseLine(true) }
  )
  expect(pack.testFileSuffix).toBe('.test.js')
  expect(moduleSuffix('.test.js', { moduleSystem: 'esm', packageType: undefined, testFiles: ['test/a.test.js'] })).toBe('.test.js')
})

test('moduleSuffix changes only an ES module .js suffix outside a "type": "module" package', () => {
  const mixed = ['test/a.test.js', 'test/b.test.mjs']
  expect(moduleSuffix('.test.js', { moduleSystem: 'esm', packageType: 'commonjs', testFiles: mixed })).toBe('.test.mjs')
  expect(moduleSuffix('.spec.js', { moduleSystem: 'esm', packageType: undefined, testFiles: mixed })).toBe('.spec.mjs')
  expect(moduleSuffix('.test.js', { moduleSystem: 'cjs', packageType: undefined, testFiles: mixed })).toBe('.test.js')
  expect(moduleSuffix('.test.js', { moduleSystem: 'esm', packageType: 'module', testFiles: mixed })).toBe('.test.js')
  expect(moduleSuffix('.test.ts', { moduleSystem: 'esm', packageType: undefined, testFiles: mixed })).toBe('.test.ts')
  expect(moduleSuffix('.test.jsx', { moduleSystem: 'esm', packageType: undefined, testFiles: mixed })).toBe('.test.jsx')
})

test('a style example named without .test keeps its module kind in the suffix', () => {
  expect(layoutFor('test/parse.mjs', 'src/parse.js').testFileSuffix).toBe('.test.mjs')
  expect(layoutFor('test/parse.cjs', 'src/parse.js').testFileSuffix).toBe('.test.cjs')
  expect(layoutFor('test/parse.js', 'src/parse.js').testFileSuffix).toBe('.test.js')
  expect(layoutFor('test/parse.js', 'src/parse.ts').testFileSuffix).toBe('.test.ts')
})
