/** The pre-fix tree's install (when the pull request changed manifests) kept in the Actions cache. */
import type { DependencyCache } from '../execute/dependencies.js'
import type { Logger } from '../ports/logger.js'
import { ActionsCache, type CacheService } from './actions-cache.js'

export function actionsDependencyCache(log: Logger, service?: CacheService): DependencyCache | null {
  const cache = new ActionsCache('Pre-fix dependency cache', log, service)
  if (!cache.available) return null
  return {
    async restore(dir, key) {
      const hit = (await cache.restore(dir, key)) === key
      if (hit) log.info(`Pre-fix tree: dependencies restored from the cache (${key})`)
      return hit
    },
    async save(dir, key) {
      await cache.save(dir, key)
    }
  }
}
