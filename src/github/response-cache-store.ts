/**
 * Carries the model's response cache (a folder of replies by request hash) from run to run in the Actions
 * cache, so re-running the same pull request state costs no tokens and gives the same suite.
 * Cache entries cannot be overwritten: each run that learnt new replies saves a new entry under the same
 * prefix, and the next run restores the newest. A cache failure only warns.
 */
import { createHash } from 'node:crypto'
import { existsSync } from 'node:fs'
import { readdir } from 'node:fs/promises'
import type { Logger } from '../ports/logger.js'
import { ActionsCache, type CacheService } from './actions-cache.js'

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
  private readonly cache: ActionsCache

  constructor(
    private readonly dir: string,
    scope: ResponseCacheScope,
    private readonly log: Logger,
    service?: CacheService
  ) {
    this.prefix = `${KEY_PREFIX}-${shortHash(JSON.stringify(scope))}-`
    this.cache = new ActionsCache('Model response cache', log, service)
  }

  async restore(): Promise<void> {
    if (!this.cache.available) return this.log.info('Model response cache: the Actions cache service is not available here')
    const key = await this.cache.restore(this.dir, this.prefix, [this.prefix])
    this.restoredEntries = new Set(await entriesIn(this.dir))
    this.log.info(key ? `Model response cache: ${this.restoredEntries.size} repl(ies) restored from ${key}` : 'Model response cache: nothing saved for this pull request state yet')
  }

  /** Saves only when the run added replies: an unchanged folder is already in the cache. */
  async save(): Promise<void> {
    if (!this.cache.available) return
    const entries = await entriesIn(this.dir)
    if (entries.every((entry) => this.restoredEntries.has(entry))) return
    const key = this.prefix + shortHash(entries.join('\n'))
    if (await this.cache.save(this.dir, key)) this.log.info(`Model response cache: ${entries.length} repl(ies) saved as ${key}`)
  }
}

async function entriesIn(dir: string): Promise<string[]> {
  if (!existsSync(dir)) return []
  return (await readdir(dir)).filter((name) => name.endsWith('.json')).sort()
}

const shortHash = (text: string) => createHash('sha256').update(text).digest('hex').slice(0, 16)
