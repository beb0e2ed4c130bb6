/** ESM TypeScript under ts-jest: the @actions/* packages are ESM-only. Run with --experimental-vm-modules. */
export default {
  testEnvironment: 'node',
  extensionsToTreatAsEsm: ['.ts'],
  moduleNameMapper: { '^(\\.{1,2}/.*)\\.js$': '$1' },
  transform: {
    '^.+\\.ts$': ['ts-jest', { useESM: true, tsconfig: 'tsconfig.json', diagnostics: { ignoreCodes: ['TS151001'] } }]
  },
  roots: ['<rootDir>/test', '<rootDir>/src'],
  testMatch: ['**/*.test.ts'],
  modulePathIgnorePatterns: ['<rootDir>/dist/', '<rootDir>/__fixtures__/', '<rootDir>/demo-out/'],
  testTimeout: 120000,
  // Once before the run: the Python the Python tests need (installed when it may be), and one folder for
  // everything the tests write to the temporary folder, removed at the end.
  globalSetup: '<rootDir>/test/support/test-python.ts',
  globalTeardown: '<rootDir>/test/support/temp-root-teardown.js'
}
