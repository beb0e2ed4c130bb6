/** The pre-fix tree's install (when the pull request changed manifests) kept in the Actions cache. A failure only warns. */
import * as cache from '@actions/cache'
import type { DependencyCache } from '../execute/dependencies.js'
import type { Logger } from '../pipeline.js'
import type { CacheService } from './response-cache-store.js'

export function actionsDependencyCache(log: Logger, service: CacheService = cache): DependencyCache | null {
  if (!service.isFeatureAvailable()) return null
  const warn = (action: string, error: unknown) => log.warn(`Pre-fix dependency cache: could not ${action} (${(error as Error).message}); installing instead`)
  return {
    async restore(dir, key) {
      try {
        const hit = (await service.restoreCache([dir], key)) === key
        if (hit) log.info(`Pre-fix tree: dependencies restored from the cache (${key})`)
        return hit
      } catch (error) {
        warn('restore', error)
        return false
      }
    },
    async save(dir, key) {
      try {
        await service.saveCache([dir], key)
      } catch (error) {
        warn('save', error)
      }
    }
  }
}
