/** vitest: not yet implemented (a stub that never detects, so detection falls through to the others). */
import type { FrameworkAdapter } from './adapter.js'

export const vitestAdapter: FrameworkAdapter = {
  name: 'vitest',
  detect: async () => false,
  isTestFile: () => false,
  run: async () => {
    throw new Error('the vitest adapter is not implemented yet')
  }
}
