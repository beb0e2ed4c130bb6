/**
 * Replies kept on disk by a hash of the request: the same pull request state asks the same questions, so a
 * re-run gets the same answers (and the same suite) without paying for them again.
 */
import { createHash } from 'node:crypto'
import { mkdir, readFile, rename, writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import type { ModelPort, ModelReply, ModelRequest, UsageLedger } from './model-port.js'

export interface ResponseCacheOptions {
  dir: string
  /** Everything besides the request that shapes the answer: the model's name and its settings. */
  modelIdentity: string
  ledger: UsageLedger
}

export function withResponseCache(model: ModelPort, { dir, modelIdentity, ledger }: ResponseCacheOptions): ModelPort {
  return {
    async send(request: ModelRequest): Promise<ModelReply> {
      const started = Date.now()
      const file = join(dir, `${requestHash(request, modelIdentity)}.json`)
      const stored = await readReply(file)
      if (stored) {
        ledger.recordCached(request.stage, Date.now() - started)
        return stored
      }
      const reply = await model.send(request)
      await storeReply(file, reply)
      return reply
    }
  }
}

/** The stage is a label only: the same request from another stage may share the answer. */
export function requestHash({ system, messages, tools }: ModelRequest, modelIdentity: string): string {
  return createHash('sha256').update(JSON.stringify({ modelIdentity, system, messages, tools })).digest('hex')
}

/** A missing or unreadable entry is a miss, never an error. */
async function readReply(file: string): Promise<ModelReply | null> {
  try {
    const reply = JSON.parse(await readFile(file, 'utf8')) as ModelReply
    return Array.isArray(reply.content) ? reply : null
  } catch {
    return null
  }
}

/** Written aside and renamed, so a run killed mid-write leaves no half entry. */
async function storeReply(file: string, reply: ModelReply): Promise<void> {
  await mkdir(join(file, '..'), { recursive: true })
  const partial = `${file}.${process.pid}.partial`
  await writeFile(partial, JSON.stringify(reply))
  await rename(partial, file)
}
