import { DefaultArtifactClient } from '@actions/artifact'
import * as cache from '@actions/cache'
import { readFile, readdir, rm } from 'node:fs/promises'
import { join } from 'node:path'
import { useFakeRunner, writeTree } from './fake-runner.js'

const runner = useFakeRunner()

async function readTree(dir: string, prefix = ''): Promise<Record<string, string>> {
  const files: Record<string, string> = {}
  for (const entry of await readdir(join(dir, prefix), { withFileTypes: true })) {
    const path = prefix ? `${prefix}/${entry.name}` : entry.name
    if (entry.isDirectory()) Object.assign(files, await readTree(dir, path))
    else files[path] = await readFile(join(dir, path), 'utf8')
  }
  return files
}

test('a saved cache restores the same files into an emptied directory', async () => {
  const services = await runner.start()
  const dir = await writeTree(join(runner.work(), 'deps'), { 'a.txt': 'alpha', 'nested/b.txt': 'beta' })
  expect(await cache.saveCache([dir], 'deps-linux-abc')).toBe(1)
  expect(services.cacheEntries).toEqual([{ key: 'deps-linux-abc', version: expect.stringMatching(/^[0-9a-f]{64}$/), archive: expect.any(Buffer) }])

  await rm(dir, { recursive: true })
  expect(await cache.restoreCache([dir], 'deps-linux-abc')).toBe('deps-linux-abc')
  expect(await readTree(dir)).toEqual({ 'a.txt': 'alpha', 'nested/b.txt': 'beta' })
  expect(runner.output()).not.toContain('::warning::')
  expect(services.requests.map((request) => `${request.method} ${request.path.replace(/[0-9a-f-]{36}$/, '<id>')}`)).toEqual([
    'POST /twirp/github.actions.results.api.v1.CacheService/CreateCacheEntry',
    'PUT /devstoreaccount1/cache/<id>',
    'POST /twirp/github.actions.results.api.v1.CacheService/FinalizeCacheEntryUpload',
    'POST /twirp/github.actions.results.api.v1.CacheService/GetCacheEntryDownloadURL',
    'GET /devstoreaccount1/cache/entry-0'
  ])
})

test('a restore key matches as a prefix, newest entry first; an unknown key restores nothing', async () => {
  await runner.start()
  const dir = join(runner.work(), 'deps')
  await writeTree(dir, { 'which.txt': 'old' })
  await cache.saveCache([dir], 'deps-linux-1')
  await writeTree(dir, { 'which.txt': 'new' })
  await cache.saveCache([dir], 'deps-linux-2')
  // Newer, but cached for other paths: another version, which a restore for `dir` must not match.
  await cache.saveCache([await writeTree(join(runner.work(), 'other'), { 'x.txt': 'x' })], 'deps-linux-3')

  await rm(dir, { recursive: true })
  expect(await cache.restoreCache([dir], 'deps-linux-9', ['deps-mac-', 'deps-linux-'])).toBe('deps-linux-2')
  expect(await readTree(dir)).toEqual({ 'which.txt': 'new' })
  expect(await cache.restoreCache([dir], 'deps-windows-1', ['deps-win'])).toBeUndefined()
  expect(await cache.restoreCache([dir], 'deps-linux')).toBeUndefined()
})

test('a failing cache service only warns: save gives -1 and restore undefined', async () => {
  const services = await runner.start({ failCache: 400 })
  const dir = await writeTree(join(runner.work(), 'deps'), { 'a.txt': 'alpha' })
  await expect(cache.saveCache([dir], 'deps-linux-abc')).resolves.toBe(-1)
  await expect(cache.restoreCache([dir], 'deps-linux-abc')).resolves.toBeUndefined()
  expect(runner.output()).toMatch(/Failed to save: Unable to reserve cache with key deps-linux-abc/)
  expect(runner.output()).toMatch(/::warning::Failed to restore: .*400/)
  expect(services.cacheEntries).toEqual([])
})

test('an uploaded artifact holds its files at their paths relative to the root, with the retention asked', async () => {
  const services = await runner.start()
  const root = await writeTree(join(runner.work(), 'report'), { 'report.json': '{"ok":true}', 'tests/regression.test.ts': 'test()\n' })
  const files = [join(root, 'report.json'), join(root, 'tests/regression.test.ts')]
  const { id } = await new DefaultArtifactClient().uploadArtifact('regression-report', files, root, { retentionDays: 3 })
  expect(id).toBe(1)
  expect(services.artifacts).toEqual([
    { id: 1, name: 'regression-report', retentionDays: 3, files: { 'report.json': Buffer.from('{"ok":true}'), 'tests/regression.test.ts': Buffer.from('test()\n') } }
  ])
  expect(services.requests.map((request) => `${request.method} ${request.path.replace(/[0-9a-f-]{36}/, '<id>')}`)).toEqual([
    'POST /twirp/github.actions.results.api.v1.ArtifactService/CreateArtifact',
    'PUT /devstoreaccount1/artifacts/<id>?comp=block',
    'PUT /devstoreaccount1/artifacts/<id>?comp=blocklist',
    'POST /twirp/github.actions.results.api.v1.ArtifactService/FinalizeArtifact'
  ])
})
