#!/usr/bin/env node
// Shaped like ts-scripts `test`: no options of its own, and any other refused (`unknown or unexpected
// option: --ci`), so a runner's flags cannot go through it. It runs jest in a child process with the
// configuration this package ships (configs/jest.js), never written in the repository.
const { spawnSync } = require('node:child_process')
const path = require('node:path')

const [command, ...rest] = process.argv.slice(2)
if (command !== 'test') {
  console.error(`unit-kit: unknown command ${command}`)
  process.exit(1)
}
if (rest.length > 0) {
  console.error(`unit-kit: unknown or unexpected option: ${rest[0]}`)
  process.exit(1)
}
const config = path.join(__dirname, '..', 'configs', 'jest.js')
const jest = spawnSync(process.execPath, [require.resolve('jest/bin/jest'), '--config', config], { stdio: 'inherit' })
process.exit(jest.status ?? 1)
