// unit-kit's own jest configuration. `~/…` names the package's src/ folder: only this configuration maps it.
module.exports = {
  rootDir: process.cwd(),
  testEnvironment: 'node',
  roots: ['<rootDir>/src'],
  testMatch: ['**/*.spec.js'],
  moduleNameMapper: { '^~/(.*)$': '<rootDir>/src/$1' }
}
