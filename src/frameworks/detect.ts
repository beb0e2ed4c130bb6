/** Which framework runs this repository's tests. */
import { UserFacingError } from '../errors.js'
import type { FrameworkAdapter } from './adapter.js'
import { jestAdapter } from './jest.js'

export const ADAPTERS: readonly FrameworkAdapter[] = [jestAdapter]

export async function detectFramework(repoDir: string): Promise<FrameworkAdapter> {
  for (const adapter of ADAPTERS) if (await adapter.detect(repoDir)) return adapter
  throw new UserFacingError(
    `No supported test framework found in ${repoDir}`,
    `supported: ${ADAPTERS.map((adapter) => adapter.name).join(', ')}`
  )
}
