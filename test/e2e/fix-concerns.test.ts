/**
 * What the fix still gets wrong: the analysis's fix concerns, each checked by a test run at head alone.
 * The range-wrapper fixture's fix counts down with a negative step, but a NaN step still gives [] where
 * step 0 throws a RangeError (`step > 0` is false for NaN, so the loop runs while `0 > 5`: never).
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import { requestText, type ScriptedReply } from '../support/fake-anthropic.js'
import { runCliOnFixture } from '../support/cli-run.js'
import { fixtureAnswers, stageOf, type StageScript } from '../support/scripted-model.js'

const answers = fixtureAnswers('range-wrapper')
const analysis = (answers.analyse as { tool_use: { input: Record<string, unknown> } }).tool_use.input
const SUITE_PATH = 'src/regression/issue-7.spec.js'
const CONCERNS_PATH = 'src/regression/issue-7-concerns.spec.js'
const issue = join('__fixtures__', 'range-wrapper', 'issue.md')

const NAN_STEP = {
  input: 'range(0, 5, NaN)',
  expected: 'a RangeError, as for step 0: no step can count with NaN',
  actual: 'returns []: `step > 0` is false for NaN, so it counts down and `0 > 5` ends the loop at once',
  where: { file: 'src/range.js', function: 'range' }
}
// Traced wrongly: the fixed code does count down by 2.
const STEP_OF_TWO = {
  input: 'range(5, 0, -2)',
  expected: '[5, 3, 1]',
  actual: 'returns [5, 3, 1, -1]',
  where: { file: 'src/range.js', function: 'range' }
}

// Broken by the fix: before it, no number lay between 5 and 0 counting up; now a NaN step counts down once.
const NAN_STEP_DOWN = {
  input: 'range(5, 0, NaN)',
  expected: '[], as before the fix: a NaN step reaches no number',
  actual: 'returns [5]: `step > 0` is false for NaN, so it counts down, pushes 5, and NaN > 0 ends the loop',
  where: { file: 'src/range.js', function: 'range' }
}

const withConcerns = (...concerns: object[]): ScriptedReply => ({ tool_use: { name: 'record_root_cause', input: { ...analysis, fixConcerns: concerns } } })

const NAN_TEST = { title: 'concern 1: range(0, 5, NaN) throws a RangeError', body: "expect(() => range(0, 5, NaN)).toThrow(RangeError)" }
const NAN_DOWN_TEST = { title: 'concern 3: range(5, 0, NaN) is empty', body: 'expect(range(5, 0, NaN)).toEqual([])' }
const TWO_TEST = { title: 'concern 2: range(5, 0, -2) counts down by two', body: 'expect(range(5, 0, -2)).toEqual([5, 3, 1])' }

function concernTests(...tests: Array<{ title: string; body: string; concern?: string }>): ScriptedReply {
  const content = [
    "const { range } = require('../range')",
    '',
    "describe('what the fix may still get wrong (#7)', () => {",
    ...tests.map((test) => `  // ${test.title.split(':')[0]}: ${test.title}\n  it('${test.title}', () => {\n    ${test.body}\n  })\n`),
    '})',
    ''
  ].join('\n')
  const listed = tests.map((test) => ({ title: test.title, scenario: test.concern ?? test.title.split(':')[0] }))
  return { tool_use: { name: 'write_test_files', input: { files: [{ path: CONCERNS_PATH, content, tests: listed }] } } }
}

const script = (analyse: ScriptedReply, concerns?: ScriptedReply): StageScript => ({ ...answers, analyse, ...(concerns ? { concerns } : {}) })
const run = (stages: StageScript, args: string[] = []) =>
  runCliOnFixture({ fixture: 'range-wrapper', script: stages, fixtureOptions: { withFixTest: false }, args: ['--issue', issue, ...args] })

const SUITE_KINDS = {
  'range with a negative step (#7) › counts down with a step of -1': 'fail-to-pass',
  'range with a negative step (#7) › gives the start alone when the step passes end': 'fail-to-pass',
  'range with a negative step (#7) › is empty when start equals end': 'pass-to-pass',
  'range with a negative step (#7) › still counts up with a positive step': 'pass-to-pass'
}

test('a concern its test confirms at head is reported apart from the suite, with its result before the fix; one whose test passes is dropped', async () => {
  const result = await run(script(withConcerns(NAN_STEP, STEP_OF_TWO, NAN_STEP_DOWN), concernTests(NAN_TEST, TWO_TEST, NAN_DOWN_TEST)))
  const { report } = result
  // The suite and its verdict are as without concerns; the concerns change neither.
  expect(result.exitCode).toBe(0)
  expect(report).toMatchObject({ verdict: 'fail-to-pass', reason: null, rounds: { repair: 0, strengthen: 0 } })
  expect(Object.fromEntries(report.tests.map((test) => [test.name, test.kind]))).toEqual(SUITE_KINDS)
  expect(report.suite.files.map((file) => file.path)).toEqual([SUITE_PATH])
  expect(readdirSync(join(result.outDir, 'suite', 'src', 'regression'))).toEqual(['issue-7.spec.js'])

  // One more model call: analyse, scenarios, write-tests, concerns.
  expect(report.model.calls).toBe(4)
  expect(report.model.perCall.map((call) => call.stage)).toEqual(['analyse', 'scenarios', 'write-tests', 'concerns'])
  const concerns = result.model!.requests.find((request) => stageOf(request) === 'concerns')!
  expect(requestText(concerns)).toContain(`in one file at \`${CONCERNS_PATH}\``)
  expect(requestText(concerns)).toContain('"label": "concern 1"')
  expect(requestText(concerns)).toContain('"input": "range(0, 5, NaN)"')
  // It reuses the run's cached prefix: the context, the analysis and the scenarios as the test writer sent them.
  const blocks = (request: typeof concerns) => (request.body.messages[0].content as Array<{ text: string }>).map((block) => block.text)
  const write = result.model!.requests.find((request) => stageOf(request) === 'write-tests')!
  expect(blocks(concerns).slice(0, -1)).toEqual(blocks(write).slice(0, -1))
  expect(JSON.stringify([concerns.body.tools, concerns.body.system])).toBe(JSON.stringify([write.body.tools, write.body.system]))
  expect(report.model.perCall[3].cacheReadTokens).toBeGreaterThan(report.model.perCall[2].cacheReadTokens)

  expect(report.fixConcerns).toEqual([
    {
      ...NAN_STEP,
      test: { path: CONCERNS_PATH, name: `what the fix may still get wrong (#7) › ${NAN_TEST.title}` },
      failure: 'assertion',
      failureLine: expect.stringMatching(/^expect\(received\)\.toThrow\(expected\)/),
      preFixResult: 'failed'
    },
    {
      ...NAN_STEP_DOWN,
      test: { path: CONCERNS_PATH, name: `what the fix may still get wrong (#7) › ${NAN_DOWN_TEST.title}` },
      failure: 'assertion',
      failureLine: expect.stringMatching(/^expect\(received\)\.toEqual\(expected\)/),
      preFixResult: 'passed'
    }
  ])
  expect(result.log).toContainEqual(expect.stringMatching(/^Fix concern 1 \(range\(0, 5, NaN\)\) confirmed: its test fails at head by assertion: expect\(received\)\.toThrow/))
  expect(result.log).toContain('Fix concern 2 (range(5, 0, -2)) dropped: its test passes at head, so the fixed code handles it')
  expect(result.log).toContainEqual(expect.stringMatching(/^Concern tests at head: (1 passed, 2 failed|2 failed, 1 passed) in /))
  // The files with a confirmed concern once on the pre-fix tree: the NaN step down passed there, so the fix broke it.
  expect(result.log).toContainEqual(expect.stringMatching(/^Confirmed concern tests on the pre-fix tree: (1 passed, 2 failed|2 failed, 1 passed) in /))
  expect(result.log).toContain('Fix concern 1 (range(0, 5, NaN)): its test fails on the pre-fix tree too: wrong before and after the fix')
  expect(result.log).toContain('warning: Fix concern 3 (range(5, 0, NaN)): its test passes on the pre-fix tree: the fix broke this input')

  // report.md: a section of its own, right after the hunks (none here) and before the tests.
  expect(result.markdown).toContain('## The fix may be incomplete')
  expect(result.markdown).toContain('| `range(0, 5, NaN)` | a RangeError, as for step 0: no step can count with NaN |')
  expect(result.markdown).toMatch(/\| `range\(5, 0, NaN\)` \|.*\| \*\*passed\*\*: the fix broke this \|\n/)
  expect(result.markdown.indexOf('## The fix may be incomplete')).toBeLessThan(result.markdown.indexOf('## Tests'))
  expect(result.markdown).not.toContain('range(5, 0, -2)`')

  // The concern tests are in the output folder's concerns/, never in the suite, and in neither tree's suite runs.
  expect(readFileSync(join(result.outDir, 'concerns', CONCERNS_PATH), 'utf8')).toContain(NAN_TEST.title)
  expect(existsSync(join(result.outDir, 'suite', CONCERNS_PATH))).toBe(false)
  expect(report.tests.some((test) => test.file === CONCERNS_PATH)).toBe(false)
  expect(report.runs).toEqual({ head: 3, preFix: 2 })
})

test('--on-fix-concern fail: a confirmed concern makes a proven fix exit 1; an unconfirmed one does not', async () => {
  const failing = await run(script(withConcerns(NAN_STEP), concernTests(NAN_TEST)), ['--on-fix-concern', 'fail'])
  expect(failing.report.verdict).toBe('fail-to-pass')
  expect(failing.report.fixConcerns).toHaveLength(1)
  expect(failing.exitCode).toBe(1)

  const unconfirmed = await run(script(withConcerns({ ...STEP_OF_TWO }), concernTests({ ...TWO_TEST, title: TWO_TEST.title.replace('concern 2', 'concern 1') })), ['--on-fix-concern', 'fail'])
  expect(unconfirmed.exitCode).toBe(0)
  expect(unconfirmed.report).toMatchObject({ verdict: 'fail-to-pass', fixConcerns: [] })
  expect(unconfirmed.markdown).not.toContain('## The fix may be incomplete')
  expect(existsSync(join(unconfirmed.outDir, 'concerns'))).toBe(false)
})

test('no concerns in the analysis: no concerns call; a concerns call past max-model-calls is skipped, never an error', async () => {
  const plain = await run(answers)
  expect(plain.report).toMatchObject({ verdict: 'fail-to-pass', fixConcerns: [], model: { calls: 3 } })
  expect(plain.model!.requests.map(stageOf)).toEqual(['analyse', 'scenarios', 'write-tests'])

  const capped = await run(script(withConcerns(NAN_STEP), concernTests(NAN_TEST)), ['--max-model-calls', '3'])
  expect(capped.exitCode).toBe(0)
  expect(capped.report).toMatchObject({ verdict: 'fail-to-pass', fixConcerns: [], model: { calls: 3 } })
  expect(capped.log).toContain('Fix concerns: the model call limit was reached before the concerns call; 1 concern(s) left unchecked, none reported')
  expect(Object.fromEntries(capped.report.tests.map((test) => [test.name, test.kind]))).toEqual(SUITE_KINDS)
})

test('a concern test that cannot load at head confirms nothing', async () => {
  const broken: ScriptedReply = {
    tool_use: { name: 'write_test_files', input: { files: [{ path: CONCERNS_PATH, content: "const { range } = require('../no-such-module')\n\nit('concern 1: range(0, 5, NaN) throws', () => {\n  expect(() => range(0, 5, NaN)).toThrow(RangeError)\n})\n", tests: [{ title: 'concern 1: range(0, 5, NaN) throws', scenario: 'concern 1' }] }] } }
  }
  const result = await run(script(withConcerns(NAN_STEP), broken))
  expect(result.report).toMatchObject({ verdict: 'fail-to-pass', fixConcerns: [], model: { calls: 4 } })
  expect(result.log).toContainEqual(expect.stringMatching(/^Fix concern 1 \(range\(0, 5, NaN\)\) dropped: its test failed at head by load, not on the behaviour \(.*Cannot find module/))
})

test('a concern found while planning the scenarios is checked like the analysis\'s, after them, the same input once', async () => {
  const planned = (answers.scenarios as { tool_use: { name: string; input: Record<string, unknown> } }).tool_use
  // The scenario stage finds the NaN step down, which the analysis missed, and repeats the analysis's own concern.
  const scenarios: ScriptedReply = { tool_use: { ...planned, input: { ...planned.input, fixConcerns: [{ ...NAN_STEP, input: 'range(0,5,NaN)' }, NAN_STEP_DOWN] } } }
  const downAsSecond = { ...NAN_DOWN_TEST, title: NAN_DOWN_TEST.title.replace('concern 3', 'concern 2') }
  const result = await run({ ...script(withConcerns(NAN_STEP), concernTests(NAN_TEST, downAsSecond)), scenarios })

  expect(result.log).toContain('Fix concerns: planning the scenarios found 2 more input(s) the fixed code may get wrong')
  const concerns = requestText(result.model!.requests.find((request) => stageOf(request) === 'concerns')!)
  expect(concerns).toContain('"label": "concern 2",\n    "input": "range(5, 0, NaN)"')
  expect(concerns).not.toContain('"label": "concern 3"')
  expect(result.report).toMatchObject({ verdict: 'fail-to-pass', model: { calls: 4 } })
  expect(result.report.fixConcerns.map((concern) => [concern.input, concern.preFixResult])).toEqual([
    ['range(0, 5, NaN)', 'failed'],
    ['range(5, 0, NaN)', 'passed']
  ])
})
