/** The hunks shown within an allowance, from real git diffs. */
import { execFileSync } from 'node:child_process'
import { mkdtemp, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { readChangeSet } from '../../src/diff/change-set.js'
import type { Hunk } from '../../src/domain.js'
import { diffText, showHunks } from '../../src/context/hunks.js'
import { createGit } from '../../src/ports/git.js'

let dir = ''
beforeEach(async () => (dir = await mkdtemp(join(tmpdir(), 'rtg-hunks-'))))
afterEach(() => rm(dir, { recursive: true, force: true }))

/** The hunks of one file changed from `before` to `after`, as git diffs them. */
async function hunksOf(before: string, after: string): Promise<Hunk[]> {
  const git = (...args: string[]) => execFileSync('git', ['-c', 'user.name=t', '-c', 'user.email=t@t', ...args], { cwd: dir, encoding: 'utf8' }).trim()
  git('init', '-q')
  await writeFile(join(dir, 'a.js'), before)
  git('add', '-A')
  git('commit', '-qm', 'base')
  await writeFile(join(dir, 'a.js'), after)
  git('commit', '-qam', 'head')
  const changeSet = await readChangeSet(createGit(dir), 'HEAD~1', 'HEAD')
  return changeSet.files[0].hunks
}

const rows = (count: number, value: (i: number) => number) => Array.from({ length: count }, (_, i) => `  ${value(i)}, // row ${i}`)
const fixed = (guard: string) => ['function refund(balance, amount) {', guard, '  return balance + amount', '}']

test('hunks that fit are shown as git wrote them', async () => {
  const hunks = await hunksOf('a\nb\nc\n', 'a\nB\nc\n')
  expect(showHunks(hunks, 10_000)).toBe(diffText(hunks))
  expect(diffText(hunks)).toBe('@@ -1,3 +1,3 @@\n a\n-b\n+B\n c')
})

test("a one-line fix in the same hunk as a rewritten table keeps all its lines; the table is cut and marked", async () => {
  const before = ['const RATES = [', ...rows(3_000, (i) => i), ']', ...fixed('  if (amount < 0) return balance'), ''].join('\n')
  const after = ['const RATES = [', ...rows(3_000, (i) => i + 1), ']', ...fixed('  if (amount <= 0) return balance'), ''].join('\n')
  const hunks = await hunksOf(before, after)
  expect(hunks).toHaveLength(1)
  const shown = showHunks(hunks, 8_000)
  expect(shown.length).toBeLessThanOrEqual(8_000)
  expect(shown).toContain(' function refund(balance, amount) {\n-  if (amount < 0) return balance\n+  if (amount <= 0) return balance\n   return balance + amount\n }')
  expect(shown.startsWith('@@ -1,')).toBe(true)
  expect(shown).toMatch(/\n\[… \d+ lines left out\]\n/)
})

test('more hunks than fit: the first ones, then one marker counting the lines of the rest', async () => {
  const before = rows(20_000, (i) => i).join('\n')
  const after = rows(20_000, (i) => (i % 100 === 50 ? -i : i)).join('\n')
  const hunks = await hunksOf(before, after)
  expect(hunks).toHaveLength(200)
  const shown = showHunks(hunks, 4_000)
  expect(shown.length).toBeLessThanOrEqual(4_000)
  expect(shown.startsWith(hunks[0].text)).toBe(true)
  const shownHunks = shown.split('\n').filter((line) => line.startsWith('@@')).length
  const leftOutLines = hunks.slice(shownHunks).reduce((sum, hunk) => sum + hunk.text.split('\n').length, 0)
  expect(shown.endsWith(`\n[… ${leftOutLines} lines left out]`)).toBe(true)
})
