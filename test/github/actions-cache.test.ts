/** The two Actions caches, through the real @actions/cache against the fake results service. */
import { mkdir, mkdtemp, readFile, readdir, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { actionsDependencyCache } from '../../src/github/dependency-cache.js'
import { ResponseCacheStore } from '../../src/github/response-cache-store.js'
import type { Logger } from '../../src/pipeline.js'
import { actionsEnv, startFakeActionsServices, type FakeActionsServices } from '../support/fake-actions-services.js'

let services: FakeActionsServices | undefined
let work = ''
let lines: string[] = []
let savedEnv: NodeJS.ProcessEnv = {}
const realWrite = process.stdout.write.bind(process.stdout)
const log: Logger = { info: (m) => lines.push(m), warn: (m) => lines.push(`warning: ${m}`), debug: () => {} }

// @actions/cache reads the runner's variables at each call, and logs workflow commands on stdout: keep those out of jest's output.
beforeEach(async () => {
  work = await mkdtemp(join(tmpdir(), 'rtg-actions-cache-'))
  lines = []
  savedEnv = { ...process.env }
  process.stdout.write = (() => true) as typeof process.stdout.write
})
afterEach(async () => {
  process.stdout.write = realWrite
  process.env = savedEnv
  await services?.close()
  services = undefined
  await rm(work, { recursive: true, force: true })
})

async function onRunner(failCache?: number): Promise<FakeActionsServices> {
  services = await startFakeActionsServices({ failCache })
  process.env = { ...process.env, ...actionsEnv(services), RUNNER_TEMP: work }
  return services
}

async function writeFiles(dir: string, files: Record<string, string>): Promise<void> {
  await mkdir(dir, { recursive: true })
  for (const [name, contents] of Object.entries(files)) await writeFile(join(dir, name), contents)
}

test('the dependency cache restores an install saved under the same key, and only that key', async () => {
  await onRunner()
  const modules = join(work, 'tree', 'node_modules')
  await writeFiles(modules, { 'left-pad.js': 'module.exports = 1' })
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
  await new ResponseCacheStore(join(work, 'replies'), { repository: 'a/b', base: '1', head: '2', model: 'm' }, log).restore()
  expect(lines).toEqual(['Model response cache: the Actions cache service is not available here'])
})

test('the response cache saves a new entry only when a run learnt replies, and restores the newest', async () => {
  const fake = await onRunner()
  const scope = { repository: 'acme/transport', base: 'b1', head: 'h1', model: 'claude-sonnet-5-5' }
  const dir = join(work, 'replies')
  // A job on a fresh runner: the folder starts empty, restores, runs (writing replies), saves.
  const job = async (newReplies: Record<string, string>) => {
    await rm(dir, { recursive: true, force: true })
    const store = new ResponseCacheStore(dir, scope, log)
    await store.restore()
    if (Object.keys(newReplies).length) await writeFiles(dir, newReplies)
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
  const fake = await onRunner(400)
  const modules = join(work, 'node_modules')
  await writeFiles(modules, { 'x.js': '' })
  const cache = actionsDependencyCache(log)!
  await expect(cache.save(modules, 'deps-key')).resolves.toBeUndefined()
  await expect(cache.restore(modules, 'deps-key')).resolves.toBe(false)

  const store = new ResponseCacheStore(join(work, 'replies'), { repository: 'a/b', base: '1', head: '2', model: 'm' }, log)
  await store.restore()
  await writeFiles(join(work, 'replies'), { 'a.json': '{}' })
  await store.save()
  expect(fake.cacheEntries).toEqual([])
  expect(lines).toEqual(['Model response cache: nothing saved for this pull request state yet'])
})
