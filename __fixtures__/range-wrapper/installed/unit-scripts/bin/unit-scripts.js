#!/usr/bin/env node
// Shaped like `react-scripts test` / `kcd-scripts test` / `tsdx test`: jest with a configuration built here,
// never written in the repository, and watching unless CI is set. Other arguments go to jest as they are.
const [command, ...args] = process.argv.slice(2)
if (command === 'lint') process.exit(0)
if (command !== 'test') {
  console.error(`unit-scripts: unknown command ${command}`)
  process.exit(1)
}
// UNIT_SCRIPTS_CHECKS=1: like ts-scripts `test`, its own checks first, then the whole suite with the
// repository's own jest configuration; the arguments are not passed on.
if (process.env.UNIT_SCRIPTS_CHECKS) {
  console.log('unit-scripts: checks passed')
  require('jest').run([])
  return
}
const config = {
  rootDir: process.cwd(),
  roots: ['<rootDir>/src'],
  testMatch: ['**/*.spec.js'],
  moduleNameMapper: { '^@units/(.*)$': '<rootDir>/src/$1' }
}
const watch = process.env.CI ? [] : ['--watchAll']
require('jest').run(['--config', JSON.stringify(config), ...watch, ...args])
