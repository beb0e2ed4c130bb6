import { mkdtemp, readdir, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { createAnthropicModel } from '../../src/model/anthropic.js'
import { UsageLedger, type ModelRequest } from '../../src/model/model-port.js'
import { withResponseCache } from '../../src/model/response-cache.js'
import { TEST_FILES_TOOL } from '../../src/model/tools.js'
import { startFakeAnthropic, type FakeAnthropic } from '../support/fake-anthropic.js'

let fake: FakeAnthropic
let dir: string
beforeEach(async () => {
  fake = await startFakeAnthropic((request, index) => ({ text: `answer ${index} to ${JSON.stringify(request.body.messages[0].content)}` }))
  dir = await mkdtemp(join(tmpdir(), 'response-cache-'))
})
afterEach(async () => {
  await fake.close()
  await rm(dir, { recursive: true, force: true })
})

function cachedModel(modelIdentity = 'claude-sonnet-5-5 max_tokens=1000', maxCalls = 10) {
  const ledger = new UsageLedger()
  const settings = { apiKey: 'k', model: 'claude-sonnet-5-5', maxTokens: 1000, baseURL: fake.baseURL, maxRetries: 0, maxCalls, toolRounds: 0, responseCacheDir: dir }
  return { model: withResponseCache(createAnthropicModel(settings, ledger), { dir, modelIdentity, ledger }), ledger }
}

const request = (text: string, stage = 'analyse'): ModelRequest => ({ stage, system: 'system', messages: [{ role: 'user', content: text }], tools: [TEST_FILES_TOOL] })

test('the same request is answered once by the API, then from the cache, across runs', async () => {
  const first = cachedModel()
  const answer = await first.model.send(request('the bug'))
  const second = cachedModel()
  await expect(second.model.send(request('the bug'))).resolves.toEqual(answer)
  expect(fake.requests).toHaveLength(1)
  expect(second.ledger.calls).toEqual([expect.objectContaining({ stage: 'analyse', cached: true, inputTokens: 0, outputTokens: 0 })])
  expect([second.ledger.sentCalls, second.ledger.cachedCalls]).toEqual([0, 1])
  expect((await readdir(dir)).filter((name) => name.endsWith('.json'))).toHaveLength(1)
})

test('another request, another model or other settings miss the cache', async () => {
  await cachedModel().model.send(request('the bug'))
  await cachedModel().model.send(request('another bug'))
  await cachedModel('claude-opus-5-5 max_tokens=1000').model.send(request('the bug'))
  await cachedModel('claude-sonnet-5-5 max_tokens=2000').model.send(request('the bug'))
  expect(fake.requests).toHaveLength(4)
})

test('a replayed answer does not count against max-model-calls', async () => {
  await cachedModel().model.send(request('the bug'))
  const { model, ledger } = cachedModel(undefined, 1)
  await model.send(request('the bug'))
  await model.send(request('the next question'))
  expect([ledger.sentCalls, ledger.cachedCalls]).toEqual([1, 1])
  await expect(model.send(request('one too many'))).rejects.toThrow('The model call limit (1) was reached before the analyse call')
})

test('an unreadable entry is a miss that the fresh answer replaces', async () => {
  await cachedModel().model.send(request('the bug'))
  const [entry] = await readdir(dir)
  await writeFile(join(dir, entry), '{"content": tru')
  const { model, ledger } = cachedModel()
  await model.send(request('the bug'))
  expect(fake.requests).toHaveLength(2)
  expect(ledger.sentCalls).toBe(1)
  await cachedModel().model.send(request('the bug'))
  expect(fake.requests).toHaveLength(2)
})
