/**
 * The Actions cache as this action uses it: one folder per entry, and a failure that only warns, since every
 * cache here saves work and none is needed for a correct run.
 */
import * as cache from '@actions/cache'
import type { Logger } from '../ports/logger.js'

/** The part of @actions/cache used here. */
export interface CacheService {
  isFeatureAvailable(): boolean
  restoreCache(paths: string[], primaryKey: string, restoreKeys?: string[]): Promise<string | undefined>
  saveCache(paths: string[], key: string): Promise<number>
}

export class ActionsCache {
  constructor(
    /** Names the cache in warnings, e.g. "Model response cache". */
    private readonly purpose: string,
    private readonly log: Logger,
    private readonly service: CacheService = cache
  ) {}

  /** False off a runner, or where the runner has no cache service (such as some GHES setups). */
  get available(): boolean {
    return this.service.isFeatureAvailable()
  }

  /** The key restored from (exact or by prefix), or undefined on a miss or a failure. */
  restore(dir: string, key: string, restoreKeys?: string[]): Promise<string | undefined> {
    return this.attempt('restore', () => this.service.restoreCache([dir], key, restoreKeys))
  }

  /** Whether the entry was saved (an entry's key cannot be reused: saving it again is a no). */
  async save(dir: string, key: string): Promise<boolean> {
    const id = await this.attempt('save', () => this.service.saveCache([dir], key))
    return id !== undefined && id !== -1
  }

  private async attempt<T>(action: string, call: () => Promise<T>): Promise<T | undefined> {
    try {
      return await call()
    } catch (error) {
      this.log.warn(`${this.purpose}: could not ${action} (${(error as Error).message}); the run goes on without it`)
      return undefined
    }
  }
}
