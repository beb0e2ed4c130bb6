/** @type {import('jest').Config} */
module.exports = {
  // tsconfig.json sets isolatedModules, so ts-jest only transpiles (no type-check): fast.
  preset: 'ts-jest',
  testEnvironment: 'node',
  roots: ['<rootDir>/test']
}
