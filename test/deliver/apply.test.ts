/** --apply's writes on a real folder: all the files, or none when any path is in the way. */
import { existsSync, readFileSync } from 'node:fs'
import { mkdir, mkdtemp, symlink, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import type { SuiteFile } from '../../src/domain.js'
import { applyToWorkingTree } from '../../src/deliver/apply.js'

const file = (path: string, content = "test('x', () => {})\n"): SuiteFile => ({ path, content, tests: [] })
const tree = () => mkdtemp(join(tmpdir(), 'rtg-apply-'))

test('writes every file at its path, making the folders', async () => {
  const root = await tree()
  const files = [file('test/regression/a.test.js'), file('test/regression/deep/b.test.js', 'b')]
  expect(await applyToWorkingTree(root, files)).toEqual(['test/regression/a.test.js', 'test/regression/deep/b.test.js'])
  for (const f of files) expect(readFileSync(join(root, f.path), 'utf8')).toBe(f.content)
})

test('refuses them all, before writing any, when one exists, one passes through a link or a file', async () => {
  const root = await tree()
  const outside = await tree()
  await mkdir(join(root, 'test'), { recursive: true })
  await writeFile(join(root, 'test', 'taken.test.js'), 'mine\n')
  await symlink(outside, join(root, 'linked'))
  await writeFile(join(root, 'a-file'), '')
  const files = [file('test/regression/fine.test.js'), file('test/taken.test.js'), file('linked/x.test.js'), file('a-file/x.test.js')]
  await expect(applyToWorkingTree(root, files)).rejects.toThrow(
    '--apply wrote nothing: test/taken.test.js (a file already exists there); linked/x.test.js (linked is a symbolic link); a-file/x.test.js (a-file is not a folder)'
  )
  expect(existsSync(join(root, 'test', 'regression'))).toBe(false)
  expect(readFileSync(join(root, 'test', 'taken.test.js'), 'utf8')).toBe('mine\n')
  expect(existsSync(join(outside, 'x.test.js'))).toBe(false)
})

test('a link as the file itself is refused, and never followed', async () => {
  const root = await tree()
  await mkdir(join(root, 't'))
  await symlink(join(root, 'elsewhere.js'), join(root, 't', 'x.test.js'))
  await expect(applyToWorkingTree(root, [file('t/x.test.js')])).rejects.toThrow('t/x.test.js (t/x.test.js is a symbolic link)')
  expect(existsSync(join(root, 'elsewhere.js'))).toBe(false)
})
