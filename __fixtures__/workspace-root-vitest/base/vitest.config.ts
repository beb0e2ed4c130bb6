import { fileURLToPath } from 'node:url'
import { defineConfig } from 'vitest/config'

// One configuration for every package: the packages have no test script of their own.
export default defineConfig({
  resolve: {
    // The tests import the packages by name, from their sources (no build).
    alias: { '@acme/core': fileURLToPath(new URL('./packages/core/src/index.ts', import.meta.url)) }
  },
  test: {
    include: ['packages/*/test/**/*.test.ts'],
    // describe/it/expect without an import: only this configuration provides them.
    globals: true
  }
})
