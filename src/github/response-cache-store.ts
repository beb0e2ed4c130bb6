/**
 * Carries the model's response cache (a folder of replies by request hash) from run to run in the Actions
 * cache, so re-running the same pull request state costs no tokens and gives the same suite.
 * Cache entries cannot be overwritten: each run that learnt new replies saves a new entry under the same
 * prefix, and the next run restores the newest. A cache failure only warns.
 */
import * as cache from '@actions/cache'
import { createHash } from 'node:crypto'
import { existsSync } from 'node:fs'
import { readdir } from 'node:fs/promises'
import type { Logger } from '../pipeline.js'

/** The part of @actions/cache used here, so tests can watch what is restored and saved. */
export interface CacheService {
  isFeatureAvailable(): boolean
  restoreCache(paths: string[], primaryKey: string, restoreKeys?: string[]): Promise<string | undefined>
  saveCache(paths: string[], key: string): Promise<number>
}

const KEY_PREFIX = 'regression-testgen-responses-v1'

export interface ResponseCacheScope {
  repository: string
  base: string
  head: string
  model: string
}

export class ResponseCacheStore {
  private restoredEntries = new Set<string>()
  private readonly prefix: string

  constructor(
    private readonly dir: string,
    scope: ResponseCacheScope,
    private readonly log: Logger,
    private readonly service: CacheService = cache
  ) {
    this.prefix = `${KEY_PREFIX}-${shortHash(JSON.stringify(scope))}-`
  }

  async restore(): Promise<void> {
    if (!this.service.isFeatureAvailable()) return this.log.info('Model response cache: the Actions cache service is not available here')
    const key = await this.attempt('restore', () => this.service.restoreCache([this.dir], this.prefix, [this.prefix]))
    this.restoredEntries = new Set(await entriesIn(this.dir))
    this.log.info(key ? `Model response cache: ${this.restoredEntries.size} repl(ies) restored from ${key}` : 'Model response cache: nothing saved for this pull request state yet')
  }

  /** Saves only when the run added replies: an unchanged folder is already in the cache. */
  async save(): Promise<void> {
    if (!this.service.isFeatureAvailable()) return
    const entries = await entriesIn(this.dir)
    if (entries.every((entry) => this.restoredEntries.has(entry))) return
    const key = this.prefix + shortHash(entries.join('\n'))
    const id = await this.attempt('save', () => this.service.saveCache([this.dir], key))
    if (id !== undefined && id !== -1) this.log.info(`Model response cache: ${entries.length} repl(ies) saved as ${key}`)
  }

  private async attempt<T>(action: string, call: () => Promise<T>): Promise<T | undefined> {
    try {
      return await call()
    } catch (error) {
      this.log.warn(`Model response cache: could not ${action} (${(error as Error).message}); the run goes on without it`)
      return undefined
    }
  }
}

async function entriesIn(dir: string): Promise<string[]> {
  if (!existsSync(dir)) return []
  return (await readdir(dir)).filter((name) => name.endsWith('.json')).sort()
}

const shortHash = (text: string) => createHash('sha256').update(text).digest('hex').slice(0, 16)
