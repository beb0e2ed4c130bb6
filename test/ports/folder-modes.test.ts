/** Folders above the checkout opened for the sandbox's user (o+x), and given their mode back by the last run needing them. */
import { spawnSync } from 'node:child_process'
import { chmodSync, mkdirSync, mkdtempSync, readdirSync, rmSync, statSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { makeTraversable } from '../../src/ports/folder-modes.js'

let root: string
let registryParent: string
beforeEach(() => {
  root = mkdtempSync(join(tmpdir(), 'rtg-modes-'))
  // Open itself (mkdtemp makes it 0700): only the folder each test closes is on the way.
  chmodSync(root, 0o755)
  registryParent = mkdtempSync(join(tmpdir(), 'rtg-modes-registry-'))
})
afterEach(() => [root, registryParent].forEach((dir) => rmSync(dir, { recursive: true, force: true })))

const modeOf = (path: string) => statSync(path).mode & 0o777

/** A checkout in a folder closed to others. */
function checkoutInClosedFolder(): { closed: string; checkout: string } {
  const closed = join(root, 'home')
  const checkout = join(closed, 'repo')
  mkdirSync(checkout, { recursive: true })
  chmodSync(closed, 0o750)
  return { closed, checkout }
}

test('a closed folder on the way is opened (o+x) for the run, and given its mode back at the end', () => {
  const { closed, checkout } = checkoutInClosedFolder()
  const run = makeTraversable([checkout], registryParent)
  expect(modeOf(closed)).toBe(0o751)
  expect(run.notes).toEqual([`made ${closed} traversable by other users (o+x) for this run, so the sandbox's user can reach ${checkout}`])
  expect(run.restore()).toEqual([`gave ${closed} its mode back`])
  expect(modeOf(closed)).toBe(0o750)
})

test('a folder open already is left alone, and nothing is recorded for it', () => {
  const checkout = join(root, 'open', 'repo')
  mkdirSync(checkout, { recursive: true })
  const run = makeTraversable([checkout], registryParent)
  expect(run.notes).toEqual([])
  expect(run.restore()).toEqual([])
  expect(readdirSync(registryParent)).toEqual([])
})

test('the last of two runs needing the folder closes it; the first leaves it open for the second', () => {
  const { closed, checkout } = checkoutInClosedFolder()
  const first = makeTraversable([checkout], registryParent)
  const second = makeTraversable([checkout], registryParent)
  expect(second.notes).toEqual([])
  expect(first.restore()).toEqual([])
  expect(modeOf(closed)).toBe(0o751)
  expect(second.restore()).toEqual([`gave ${closed} its mode back`])
  expect(modeOf(closed)).toBe(0o750)
})

test('a run killed outright does not keep the folder open for good: its hold counts no more once its pid is gone', () => {
  const { closed, checkout } = checkoutInClosedFolder()
  const run = makeTraversable([checkout], registryParent)
  const registry = join(registryParent, readdirSync(registryParent)[0])
  const record = readdirSync(registry).find((name) => !name.includes('.'))!
  const gonePid = spawnSync(process.execPath, ['-e', 'console.log(process.pid)'], { encoding: 'utf8' }).stdout.trim()
  writeFileSync(join(registry, `${record}.${gonePid}.deadbeef`), '')
  expect(run.restore()).toEqual([`gave ${closed} its mode back`])
  expect(modeOf(closed)).toBe(0o750)
})

test('a mode changed during the run is the user\'s: left as it is', () => {
  const { closed, checkout } = checkoutInClosedFolder()
  const run = makeTraversable([checkout], registryParent)
  chmodSync(closed, 0o755)
  expect(run.restore()).toEqual([])
  expect(modeOf(closed)).toBe(0o755)
})

test('a registry someone else could write is not trusted: the run gives back only what it opened itself', () => {
  const { closed, checkout } = checkoutInClosedFolder()
  mkdirSync(join(registryParent, `.regression-testgen-folder-modes-${process.getuid?.()}`), { mode: 0o777 })
  chmodSync(join(registryParent, `.regression-testgen-folder-modes-${process.getuid?.()}`), 0o777)
  const run = makeTraversable([checkout], registryParent)
  expect(modeOf(closed)).toBe(0o751)
  expect(run.restore()).toEqual([`gave ${closed} its mode back`])
  expect(modeOf(closed)).toBe(0o750)
})
