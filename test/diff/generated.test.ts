/** Generated files by the head commit's .gitattributes, through the tool's own git, on a real repository. */
import { scratchRepo } from '../support/scratch-repo.js'
import { readChangeSet, generatedFiles } from '../../src/diff/change-set.js'
import { briefList, isGenerated } from '../../src/diff/generated.js'
import { createGit } from '../../src/ports/git.js'
import { writeFile } from 'node:fs/promises'
import { join } from 'node:path'

const repo = scratchRepo('rtg-generated-')
beforeEach(() => repo.git('init', '-q'))

async function fixWithAttributes(attributes: Record<string, string>) {
  const base = await repo.commit({ 'src/fix.js': 'module.exports = 1\n', 'src/keep.js': 'a\n' })
  const head = await repo.commit({
    ...attributes,
    'src/fix.js': 'module.exports = 2\n',
    'src/keep.js': 'b\n',
    'src/parser/table.js': 'module.exports = [\n' + '  0,\n'.repeat(5000) + ']\n',
    'dist/bundle.min.js': 'x\n',
    'lib/sub/out.js': 'y\n',
    'test/fixtures/generated.test.js': "test('t', () => {})\n",
    'docs/api.md': '# API\n'
  })
  return { base, head }
}

test('linguist-generated and -diff files (root and nested .gitattributes) are generated: no hunks, not source; tests stay tests', async () => {
  const { base, head } = await fixWithAttributes({
    '.gitattributes': 'src/parser/** linguist-generated\n*.min.js -diff\nsrc/keep.js linguist-generated=false\ntest/** linguist-generated\ndocs/** linguist-generated=true\n',
    'lib/.gitattributes': 'sub/*.js binary\n'
  })
  const changeSet = await readChangeSet(createGit(repo.dir), base, head)
  expect(generatedFiles(changeSet).sort()).toEqual(['dist/bundle.min.js', 'docs/api.md', 'lib/sub/out.js', 'src/parser/table.js'])
  const byPath = Object.fromEntries(changeSet.files.map((file) => [file.path, file]))
  expect(byPath['src/parser/table.js']).toMatchObject({ role: 'generated', status: 'added', hunks: [] })
  expect(byPath['src/fix.js']).toMatchObject({ role: 'source', hunks: [expect.objectContaining({ addedLines: [1] })] })
  expect(byPath['src/keep.js'].role).toBe('source')
  expect(byPath['test/fixtures/generated.test.js'].role).toBe('test')
})

test("the head commit's attributes count, not the work tree's nor the index's", async () => {
  const { base, head } = await fixWithAttributes({ '.gitattributes': 'src/parser/** linguist-generated\n' })
  await writeFile(join(repo.dir, '.gitattributes'), 'src/fix.js linguist-generated\n')
  repo.git('add', '.gitattributes')
  const changeSet = await readChangeSet(createGit(repo.dir), base, head)
  expect(generatedFiles(changeSet)).toEqual(['src/parser/table.js'])
  // The repository's own index is left as it was.
  expect(repo.git('diff', '--cached', '--name-only')).toBe('.gitattributes')
})

test('without .gitattributes nothing is generated', async () => {
  const { base, head } = await fixWithAttributes({})
  const changeSet = await readChangeSet(createGit(repo.dir), base, head)
  expect(generatedFiles(changeSet)).toEqual([])
  expect(changeSet.files.find((file) => file.path === 'src/parser/table.js')).toMatchObject({ role: 'source', hunks: [expect.objectContaining({ addedLines: expect.any(Array) })] })
})

test('attributes of more paths than one call takes', async () => {
  const files = Object.fromEntries(Array.from({ length: 1200 }, (_, index) => [`gen/file-${index}.js`, `${index}\n`]))
  const base = await repo.commit({ 'a.js': '1\n' })
  const head = await repo.commit({ ...files, '.gitattributes': 'gen/file-1*.js linguist-generated\n' })
  const attributes = await createGit(repo.dir).attributesAt(head, Object.keys(files), ['linguist-generated'])
  expect(attributes.size).toBe(1200)
  const generated = [...attributes].filter(([, values]) => isGenerated(values)).map(([path]) => path)
  expect(generated).toHaveLength(1 + 10 + 100 + 200)
  expect(base).not.toBe(head)
})

test('isGenerated and briefList', () => {
  const generated: Array<Record<string, string>> = [{ 'linguist-generated': 'set' }, { 'linguist-generated': 'true' }, { diff: 'unset' }]
  const not: Array<Record<string, string> | undefined> = [{ 'linguist-generated': 'unset' }, { 'linguist-generated': 'false' }, { 'linguist-generated': 'unspecified', diff: 'unspecified' }, undefined]
  expect(generated.map(isGenerated)).toEqual([true, true, true])
  expect(not.map(isGenerated)).toEqual([false, false, false, false])
  expect(briefList(['a', 'b', 'c'], (path) => `\`${path}\``, 2)).toBe('`a`, `b` and 1 more')
})
