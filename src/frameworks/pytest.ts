/** pytest: not yet implemented (a stub that never detects, so detection falls through to the others). */
import type { FrameworkAdapter } from './adapter.js'

export const pytestAdapter: FrameworkAdapter = {
  name: 'pytest',
  detect: async () => false,
  isTestFile: () => false,
  run: async () => {
    throw new Error('the pytest adapter is not implemented yet')
  }
}
