/**
 * A scripted model for the fake Messages API: answers by pipeline stage (read from the prompt's
 * `# Task:` heading), so a test scripts "what the model says at each stage", not request order.
 */
import { existsSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import type { RecordedRequest, Script, ScriptedReply } from './fake-anthropic.js'
import { fixturesDir } from './fixture-repo.js'

export type Stage = 'analyse' | 'scenarios' | 'write-tests' | 'repair' | 'strengthen' | 'concerns'
export type StageScript = Partial<Record<Stage, ScriptedReply | ScriptedReply[]>>

const HEADINGS: Array<[string, Stage]> = [
  ['# Task: root-cause analysis', 'analyse'],
  ['# Task: ranked regression scenarios', 'scenarios'],
  ['# Task: write the regression tests', 'write-tests'],
  ['# Task: repair the regression tests', 'repair'],
  ['# Task: strengthen the regression tests', 'strengthen'],
  ['# Task: tests for what the fix may still get wrong', 'concerns']
]

/** The stage of a request, from the `# Task:` heading of a text block in its first message. */
export function stageOf(request: RecordedRequest): Stage {
  const first = request.body.messages?.[0]?.content
  const texts: string[] = typeof first === 'string' ? [first] : (first ?? []).filter((block: { type: string }) => block.type === 'text').map((block: { text: string }) => block.text)
  const stage = HEADINGS.find(([heading]) => texts.some((text) => text.startsWith(heading)))?.[1]
  if (!stage) throw new Error(`The scripted model does not know this prompt: ${texts.join(' ').slice(0, 80)}`)
  return stage
}

/** Each stage's replies in order; a stage asked more often than scripted gets an error reply. */
export function byStage(script: StageScript): Script {
  const asked = new Map<Stage, number>()
  return (request) => {
    const stage = stageOf(request)
    const count = asked.get(stage) ?? 0
    asked.set(stage, count + 1)
    const replies = [script[stage] ?? []].flat()
    return replies[count] ?? { error: { status: 400, type: 'invalid_request_error', message: `no scripted answer for ${stage} #${count + 1}` } }
  }
}

/** The tool inputs stored in `__fixtures__/<name>/model/<stage>.json`, as tool_use replies. */
export function fixtureAnswers(name: string): StageScript {
  const tools: Record<Stage, string> = {
    analyse: 'record_root_cause',
    scenarios: 'record_scenarios',
    'write-tests': 'write_test_files',
    repair: 'write_test_files',
    strengthen: 'write_test_files',
    concerns: 'write_test_files'
  }
  const answers: StageScript = {}
  for (const [stage, tool] of Object.entries(tools) as Array<[Stage, string]>) {
    const file = join(fixturesDir(), name, 'model', `${stage}.json`)
    if (existsSync(file)) answers[stage] = { tool_use: { name: tool, input: JSON.parse(readFileSync(file, 'utf8')) } }
  }
  return answers
}
