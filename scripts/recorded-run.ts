/**
 * A run's recorded Messages API requests, as the cost scripts price them: either a folder of
 * `NNNN.request.json` files (model-bridge.py's queue, or the fake server's FAKE_ANTHROPIC_RECORD_DIR) with
 * the `NNNN.response.json` beside each, or a record of their shapes (scripts/request-shapes.ts) that keeps no
 * text of them: each prompt block's sha256, token estimate and breakpoint, the stage and the output tokens.
 * Both price alike: the caching rule (test/support/prompt-cache.ts) works on the shapes.
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import type { ModelCall } from '../src/model/model-port.js'
import { cacheUsageOfShapes, promptShape, type PromptShape } from '../test/support/prompt-cache.js'
import { stageOf } from '../test/support/scripted-model.js'

export const SHAPES_FORMAT = 'regression-testgen request shapes 1'

export interface RecordedRequest {
  /** The file's number (`0001`), in the order sent. */
  name: string
  stage: string
  /** Chars / 4 of the reply's content; 0 when no reply was recorded. */
  outputTokens: number
  shape: PromptShape
}

export interface RecordedRun {
  format: typeof SHAPES_FORMAT
  model: string
  requests: RecordedRequest[]
}

/** A folder of recorded requests, or a shapes record (a `.json` file). */
export function readRecordedRun(path: string): RecordedRun {
  return path.endsWith('.json') ? readShapes(path) : readRequestFolder(path)
}

export function readRequestFolder(dir: string): RecordedRun {
  const names = readdirSync(dir).filter((name) => /^\d+\.request\.json$/.test(name)).sort()
  const requests = names.map((file) => {
    const body = JSON.parse(readFileSync(join(dir, file), 'utf8'))
    return { name: file.split('.')[0], stage: stageLabel(body), outputTokens: outputTokens(join(dir, file.replace('.request.json', '.response.json'))), shape: promptShape(body) }
  })
  return { format: SHAPES_FORMAT, model: requests[0]?.shape.model ?? '', requests }
}

export function readShapes(file: string): RecordedRun {
  const run = JSON.parse(readFileSync(file, 'utf8'))
  if (run?.format !== SHAPES_FORMAT) throw new Error(`${file} is not a request shapes record ("format": "${SHAPES_FORMAT}"); make one with scripts/request-shapes.ts`)
  return run
}

/** Pretty JSON with each block (and any other flat object) on one line: a record stays a few KB and diffs by block. */
export function formatShapes(run: RecordedRun): string {
  const oneLine = (flat: string) => {
    try {
      return JSON.stringify(JSON.parse(flat))
    } catch {
      return flat // braces inside a string: left as it is
    }
  }
  return JSON.stringify(run, null, 2).replace(/\{[^{}[\]]*\}/g, oneLine) + '\n'
}

/** Each request as the report counts a call: tokens under the caching rule, in the order sent. */
export function callsOf(run: RecordedRun): ModelCall[] {
  const usages = cacheUsageOfShapes(run.requests.map((request) => request.shape))
  return run.requests.map((request, index) => ({
    stage: request.stage,
    durationMs: 0,
    cached: false,
    inputTokens: usages[index].input_tokens,
    cacheWriteTokens: usages[index].cache_creation_input_tokens,
    cacheReadTokens: usages[index].cache_read_input_tokens,
    outputTokens: request.outputTokens
  }))
}

function stageLabel(body: unknown): string {
  try {
    return stageOf({ body, headers: {} })
  } catch {
    return 'unknown'
  }
}

/** Chars / 4 of what a response file holds; 0 when there is none. */
function outputTokens(file: string): number {
  if (!existsSync(file)) return 0
  const response = JSON.parse(readFileSync(file, 'utf8'))
  const content = response.tool_use ? [response.tool_use] : response.content ?? (response.text === undefined ? [] : [response.text])
  return Math.ceil(JSON.stringify(content).length / 4)
}
