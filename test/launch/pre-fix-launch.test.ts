/**
 * When the head's captured launch stands for the pre-fix tree's (its test command is not run there again):
 * only where nothing the fix reverts can change how the runner starts.
 */
import type { Launch } from '../../src/launch/launch.js'
import { whyCaptureAgain } from '../../src/launch/pre-fix-launch.js'

const JEST_BIN = '/trees/head/node_modules/jest/bin/jest.js'

function jest(fields: Partial<Launch> = {}): Launch {
  return { runner: 'jest', executable: '/usr/bin/node', main: JEST_BIN, argv: [], execArgv: [], cwd: '/trees/head', env: {}, via: ['npm test', 'jest'], beforeRunner: [], ...fields }
}

test('`npm test` → jest, the fix in a source file: the head launch fits', () => {
  expect(whyCaptureAgain(jest(), ['src/streaming-transport.ts'])).toBeNull()
})

test('a wrapper from node_modules on the way, its own flags, the environment the script set: the head launch fits', () => {
  const launch = jest({ via: ['npm test', 'ts-scripts test --passWithNoTests', 'jest --passWithNoTests'], argv: ['--config', '/trees/head/node_modules/ts-scripts/jest.config.js'], env: { NODE_ENV: 'test' } })
  expect(whyCaptureAgain(launch, ['src/index.ts', 'src/lib/parse.ts'])).toBeNull()
})

test('a step before the runner (a build): the pre-fix tree runs its command again, which is its build', () => {
  const launch = jest({ via: ['npm test', 'jest'], beforeRunner: [{ command: 'tsc -p tsconfig.build.json', durationMs: 900 }] })
  expect(whyCaptureAgain(launch, ['src/a.ts'])).toBe('its test command ran tsc -p tsconfig.build.json before the runner')
})

test('a reverted manifest (the scripts, the installed runner): asked again', () => {
  expect(whyCaptureAgain(jest(), ['src/a.ts', 'package.json'])).toBe('the fix changes package.json')
  expect(whyCaptureAgain(jest(), ['packages/core/yarn.lock'])).toBe('the fix changes packages/core/yarn.lock')
})

test('more than one command on the way (a step the preloads may not see): asked again', () => {
  for (const step of ['./node_modules/.bin/esbuild src/index.ts --outdir=dist && jest', 'rm -rf dist; jest', 'jest | tee out.txt', 'VERSION=$(cat v) jest']) {
    expect(whyCaptureAgain(jest({ via: ['npm test', step, 'jest'] }), ['src/a.ts'])).toBe(`\`${step}\` runs more than one command on the way to the runner`)
  }
})

test("a file of the repository's run on the way (it may read a reverted file): asked again", () => {
  expect(whyCaptureAgain(jest({ via: ['npm test', 'node scripts/test.js', 'jest'] }), ['src/a.ts'])).toMatch(/^`node scripts\/test.js` names a file on the way to the runner/)
  expect(whyCaptureAgain(jest({ via: ['./run-tests.sh', 'jest'] }), ['src/a.ts'])).toMatch(/^`.\/run-tests.sh` names a file/)
})

test('a reverted file the launch names itself (a setup file a wrapper found there): asked again; a longer name is another file', () => {
  const setup = jest({ via: ['npm test', 'react-scripts test', 'jest'], argv: ['--config', '{"setupFilesAfterEnv":["/trees/head/src/setupTests.js"]}'] })
  expect(whyCaptureAgain(setup, ['src/setupTests.js'])).toBe("the runner's launch names src/setupTests.js, which the fix changes")
  expect(whyCaptureAgain(setup, ['src/setupTests.j', 'test/setupTests.js'])).toBeNull()
  expect(whyCaptureAgain(jest({ execArgv: ['--require', './src/register.js'] }), ['src/register.js'])).toBe("the runner's launch names src/register.js, which the fix changes")
  expect(whyCaptureAgain(jest({ env: { NODE_OPTIONS: '--import=src/loader.mjs' } }), ['src/loader.mjs'])).toBe("the runner's launch names src/loader.mjs, which the fix changes")
})
