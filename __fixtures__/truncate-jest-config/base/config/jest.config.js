/**
 * The jest configuration lives in config/, so bare `jest` at the root never reads it: rootDir points back
 * at the package, and ts-jest transforms the TypeScript tests (tsconfig.json's isolatedModules: transpile only).
 */
module.exports = {
  rootDir: '..',
  testEnvironment: 'node',
  testMatch: ['<rootDir>/test/**/*.test.ts'],
  transform: { '^.+\\.ts$': 'ts-jest' }
}
