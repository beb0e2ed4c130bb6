/** mocha: not yet implemented (a stub that never detects, so detection falls through to the others). */
import type { FrameworkAdapter } from './adapter.js'

export const mochaAdapter: FrameworkAdapter = {
  name: 'mocha',
  detect: async () => false,
  isTestFile: () => false,
  run: async () => {
    throw new Error('the mocha adapter is not implemented yet')
  }
}
