/** The two Actions caches, through the real @actions/cache against the fake results service. */
import { readFile, readdir, rm } from 'node:fs/promises'
import { join } from 'node:path'
import { actionsDependencyCache } from '../../src/github/dependency-cache.js'
import { ResponseCacheStore } from '../../src/github/response-cache-store.js'
import { linesLogger } from '../support/cli-run.js'
import { useFakeRunner, writeTree } from '../support/fake-runner.js'

const runner = useFakeRunner()
const lines: string[] = []
const log = linesLogger(lines)
beforeEach(() => void lines.splice(0))

test('the dependency cache restores an install saved under the same key, and only that key', async () => {
  await runner.start()
  const modules = join(runner.work(), 'tree', 'node_modules')
  await writeTree(modules, { 'left-pad.js': 'module.exports = 1' })
  const cache = actionsDependencyCache(log)!
  await cache.save(modules, 'deps-linux-node20-abc')
  await rm(modules, { recursive: true })

  expect(await cache.restore(modules, 'deps-linux-node20-other')).toBe(false)
  expect(await cache.restore(modules, 'deps-linux-node20-abc')).toBe(true)
  expect(await readFile(join(modules, 'left-pad.js'), 'utf8')).toBe('module.exports = 1')
  expect(lines).toEqual(['Pre-fix tree: dependencies restored from the cache (deps-linux-node20-abc)'])
})

test('off a runner there is no dependency cache, and the response cache says why it is idle', async () => {
  delete process.env.ACTIONS_RESULTS_URL
  delete process.env.ACTIONS_CACHE_URL
  expect(actionsDependencyCache(log)).toBeNull()
  await new ResponseCacheStore(join(runner.work(), 'replies'), { repository: 'a/b', base: '1', head: '2', model: 'm' }, log).restore()
  expect(lines).toEqual(['Model response cache: the Actions cache service is not available here'])
})

test('the response cache saves a new entry only when a run learnt replies, and restores the newest', async () => {
  const fake = await runner.start()
  const scope = { repository: 'acme/transport', base: 'b1', head: 'h1', model: 'claude-sonnet-5-5' }
  const dir = join(runner.work(), 'replies')
  // A job on a fresh runner: the folder starts empty, restores, runs (writing replies), saves.
  const job = async (newReplies: Record<string, string>) => {
    await rm(dir, { recursive: true, force: true })
    const store = new ResponseCacheStore(dir, scope, log)
    await store.restore()
    if (Object.keys(newReplies).length) await writeTree(dir, newReplies)
    await store.save()
    return (await readdir(dir)).sort()
  }

  await job({ 'a.json': '{}', 'b.json': '{}' })
  expect(await job({})).toEqual(['a.json', 'b.json'])
  expect(fake.cacheEntries).toHaveLength(1)
  await job({ 'c.json': '{}' })
  expect(fake.cacheEntries).toHaveLength(2)
  expect(await job({})).toEqual(['a.json', 'b.json', 'c.json'])

  // Another pull request state shares nothing.
  await rm(dir, { recursive: true, force: true })
  await new ResponseCacheStore(dir, { ...scope, head: 'h2' }, log).restore()
  expect(lines.at(-1)).toBe('Model response cache: nothing saved for this pull request state yet')
})

test('a failing cache service only costs the cache: nothing restored, nothing saved, no error', async () => {
  const fake = await runner.start({ failCache: 400 })
  const modules = join(runner.work(), 'node_modules')
  await writeTree(modules, { 'x.js': '' })
  const cache = actionsDependencyCache(log)!
  await expect(cache.save(modules, 'deps-key')).resolves.toBeUndefined()
  await expect(cache.restore(modules, 'deps-key')).resolves.toBe(false)

  const store = new ResponseCacheStore(join(runner.work(), 'replies'), { repository: 'a/b', base: '1', head: '2', model: 'm' }, log)
  await store.restore()
  await writeTree(join(runner.work(), 'replies'), { 'a.json': '{}' })
  await store.save()
  expect(fake.cacheEntries).toEqual([])
  expect(lines).toEqual(['Model response cache: nothing saved for this pull request state yet'])
})
