/** A write_test_files answer is bounded in files and bytes; over a bound is a problem the model gets one retry for. */
import { ModelOutputError } from '../../src/errors.js'
import type { Analysis, ContextPack } from '../../src/domain.js'
import { createAnthropicModel } from '../../src/model/anthropic.js'
import { UsageLedger } from '../../src/model/model-port.js'
import { writeTests, type GenerationInput } from '../../src/model/stages.js'
import { SUITE_LIMITS, TEST_FILES_TOOL } from '../../src/model/tools.js'
import { requestText, startFakeAnthropic, type FakeAnthropic, type ScriptedReply } from '../support/fake-anthropic.js'

let fake: FakeAnthropic | undefined
afterEach(async () => fake?.close())

const context: ContextPack = {
  sources: [],
  imports: [],
  styleExample: null,
  styleImports: [],
  related: [],
  regressionDir: 'test/regression',
  testFileSuffix: '.test.ts',
  framework: 'jest',
  frameworkVersion: null,
  moduleSystem: 'esm',
  language: 'typescript',
  runtime: []
}
const input: GenerationInput = {
  bugReport: { title: 'Retries fail', body: 'The first 429 fails.', source: 'issue-text', truncated: false, issue: 1 },
  context,
  suitePath: 'test/regression/issue-1.test.ts',
  reader: null
}
const analysis: Analysis = { summary: 'x', defects: [] }

const suiteOf = (count: number, bytes: number) => ({
  files: Array.from({ length: count }, (_, index) => ({ path: `test/regression/f${index}.test.ts`, content: 'x'.repeat(bytes), tests: [] }))
})
const withContent = (content: string) => ({ files: [{ path: 'test/regression/f0.test.ts', content, tests: [] }] })
const answer = (suite: object): ScriptedReply => ({ tool_use: { name: 'write_test_files', input: suite } })

async function writeTestsWith(replies: ScriptedReply[]) {
  fake = await startFakeAnthropic(replies)
  const model = createAnthropicModel({ apiKey: 'test-key', model: 'claude-sonnet-5-5', maxTokens: 1000, baseURL: fake.baseURL, maxRetries: 0, maxCalls: 10, toolRounds: 0, responseCacheDir: null }, new UsageLedger())
  return writeTests(model, input, { analysis, scenarios: [] })
}

test('the tool tells the model the limits up front', () => {
  const files = (TEST_FILES_TOOL.input_schema.properties as Record<string, { maxItems: number; description: string }>).files
  expect(files).toMatchObject({ maxItems: 20, description: 'At most 20 files of at most 200 KB each.' })
  expect(SUITE_LIMITS).toEqual({ files: 20, fileBytes: 200 * 1024, totalBytes: 1024 * 1024 })
})

test('an answer right at the limits is used', async () => {
  // 20 files, one of them exactly fileBytes in UTF-8.
  const suite = { files: [...suiteOf(19, 10).files, { path: 'test/regression/big.test.ts', content: 'é'.repeat(SUITE_LIMITS.fileBytes / 2), tests: [] }] }
  await expect(writeTestsWith([answer(suite)])).resolves.toEqual(suite)
})

test.each([
  ['too many files', suiteOf(SUITE_LIMITS.files + 1, 10), `/files must NOT have more than ${SUITE_LIMITS.files} items`],
  ['a file too big (in bytes, not characters)', withContent('é'.repeat(SUITE_LIMITS.fileBytes / 2 + 1)), `test/regression/f0.test.ts is ${SUITE_LIMITS.fileBytes + 2} bytes: at most ${SUITE_LIMITS.fileBytes} are allowed per file`],
  ['too many bytes together', suiteOf(6, 190 * 1024), `the files hold ${6 * 190 * 1024} bytes together: at most ${SUITE_LIMITS.totalBytes} are allowed`]
])('%s: the model is told and answers again', async (_, suite, problem) => {
  const good = suiteOf(1, 10)
  await expect(writeTestsWith([answer(suite), answer(good)])).resolves.toEqual(good)
  expect(requestText(fake!.requests[1])).toContain(`- ${problem}`)
})

test('a second answer over the limits is a ModelOutputError', async () => {
  const oversized = answer(suiteOf(1, SUITE_LIMITS.fileBytes + 1))
  const error = await writeTestsWith([oversized, oversized]).catch((caught: unknown) => caught)
  expect(error).toBeInstanceOf(ModelOutputError)
  expect((error as Error).message).toContain(`test/regression/f0.test.ts is ${SUITE_LIMITS.fileBytes + 1} bytes`)
})
