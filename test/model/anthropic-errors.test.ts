/** The SDK's HTTP and connection errors, through the fake Messages API, become UserFacingErrors that say what to do. */
import { describeError, UserFacingError } from '../../src/errors.js'
import { createAnthropicModel } from '../../src/model/anthropic.js'
import { UsageLedger, type ModelRequest } from '../../src/model/model-port.js'
import { TEST_FILES_TOOL } from '../../src/model/tools.js'
import { startFakeAnthropic, type FakeAnthropic, type ScriptedReply } from '../support/fake-anthropic.js'

const API_KEY = 'sk-ant-api03-secret-0123456789'
const MODEL = 'claude-sonnet-5-5'
const RETRIES = 2

let fake: FakeAnthropic | undefined
afterEach(async () => {
  await fake?.close()
  fake = undefined
})

const request: ModelRequest = { stage: 'analyse', system: 'system', messages: [{ role: 'user', content: 'the bug' }], tools: [TEST_FILES_TOOL] }

/** The error one model call fails with, against `baseURL` (default: the fake, answering `replies`). */
async function failureOf(replies: ScriptedReply[], baseURL?: string): Promise<UserFacingError> {
  if (!baseURL) fake = await startFakeAnthropic(replies)
  const settings = { apiKey: API_KEY, model: MODEL, maxTokens: 1000, baseURL: baseURL ?? fake!.baseURL, maxRetries: RETRIES, maxCalls: 10, toolRounds: 0, responseCacheDir: null }
  const error = await createAnthropicModel(settings, new UsageLedger()).send(request).then(
    () => null,
    (caught: unknown) => caught
  )
  expect(error).toBeInstanceOf(UserFacingError)
  expect(describeError(error)).not.toContain(API_KEY)
  return error as UserFacingError
}

const status = (code: number, type: string, message: string): ScriptedReply => ({ error: { status: code, type, message } })

test('401: the key is wrong', async () => {
  const error = await failureOf([status(401, 'authentication_error', 'invalid x-api-key')])
  expect(error.message).toBe('The Anthropic API did not accept the API key (401 authentication_error): invalid x-api-key')
  expect(error.hint).toBe('the key is wrong or revoked: check anthropic-api-key (ANTHROPIC_API_KEY)')
  expect(fake!.requests).toHaveLength(1)
})

test('403: the key lacks access', async () => {
  const error = await failureOf([status(403, 'permission_error', 'Your API key does not have permission to use the specified resource.')])
  expect(error.message).toBe('The API key may not do this (403 permission_error): Your API key does not have permission to use the specified resource.')
  expect(error.hint).toBe(`the key lacks access to ${MODEL} or to the API: use a key of a workspace that has it`)
})

test('404: the model is named', async () => {
  const error = await failureOf([status(404, 'not_found_error', `model: ${MODEL}`)])
  expect(error.message).toBe(`The model ${MODEL} was not found (404 not_found_error): model: ${MODEL}`)
  expect(error.hint).toBe(`check the model name, and that ${fake!.baseURL} serves the Messages API`)
})

test('400: the API\'s message, short, on one line, without the key it may echo', async () => {
  const echo = `max_tokens: 1000000 > 64000, the maximum for this model.\nYour key ${API_KEY} was used.${' and more'.repeat(40)}`
  const error = await failureOf([status(400, 'invalid_request_error', echo)])
  expect(error.message).toMatch(/^The Anthropic API refused the request \(400 invalid_request_error\): max_tokens: 1000000 > 64000, the maximum for this model\. Your key \[key\] was used\. and more/)
  expect(error.message).not.toContain('\n')
  expect(error.message.split(': ').slice(1).join(': ')).toHaveLength(200)
  expect(error.message.endsWith('…')).toBe(true)
})

test.each([
  [429, 'rate_limit_error', `The Anthropic API rate limit was exceeded, still after ${RETRIES} retries (429 rate_limit_error): slow down`, 'wait and re-run, lower max-model-calls, or raise the rate limit'],
  [529, 'overloaded_error', `The Anthropic API is overloaded, still after ${RETRIES} retries (529 overloaded_error): slow down`, 're-run later'],
  [500, 'api_error', 'The Anthropic API failed (500 api_error): slow down', 're-run later']
])('%i after the SDK\'s retries', async (code, type, message, hint) => {
  const error = await failureOf(Array(RETRIES + 1).fill(status(code, type, 'slow down')))
  expect(fake!.requests).toHaveLength(RETRIES + 1)
  expect([error.message, error.hint]).toEqual([message, hint])
})

test('overloaded in the middle of a stream, which the SDK does not retry', async () => {
  const error = await failureOf([{ stream_error: { type: 'overloaded_error', message: 'Overloaded' } }])
  expect([error.message, error.hint]).toEqual(['The Anthropic API is overloaded (overloaded_error in the stream): Overloaded', 're-run later'])
  expect(fake!.requests).toHaveLength(1)
})

test('a connection error names the base URL, without credentials', async () => {
  fake = await startFakeAnthropic([])
  const closed = fake.baseURL
  await fake.close()
  fake = undefined
  const error = await failureOf([], closed)
  expect(error.message).toMatch(new RegExp(`^Cannot reach the Anthropic API at ${closed} \\(.*ECONNREFUSED.*\\)$`))
  expect(error.hint).toBe('check anthropic-base-url (ANTHROPIC_BASE_URL on the command line) and the network')
  const withCredentials = await failureOf([], closed.replace('http://', 'http://proxy-user:proxy-password@'))
  expect(withCredentials.message).toContain(`Cannot reach the Anthropic API at ${closed}`)
  expect(withCredentials.message).not.toContain('proxy-password')
}, 30_000)
