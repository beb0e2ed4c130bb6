/** Which framework runs a repository's tests: the test script's runner first, then what is installed. */
import { mkdtemp, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { detectFramework, runnerOfTestScript } from '../../src/frameworks/detect.js'

const dirs: string[] = []
afterAll(() => Promise.all(dirs.map((dir) => rm(dir, { recursive: true, force: true }))))

async function detected(manifest: object): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), 'rtg-detect-'))
  dirs.push(dir)
  await writeFile(join(dir, 'package.json'), JSON.stringify(manifest))
  return (await detectFramework(dir)).name
}

test("the test script's runner decides over other runners installed beside it", async () => {
  // node:test over compiled output, in a repository that also has jest.
  expect(await detected({ scripts: { test: 'tsc -p . && node --test dist/test/' }, devDependencies: { jest: '^29', typescript: '^5' } })).toBe('node-test')
  expect(await detected({ scripts: { test: 'vitest run' }, devDependencies: { jest: '^29', vitest: '^3' } })).toBe('vitest')
  expect(await detected({ scripts: { test: 'npm run lint && npm run test:unit', 'test:unit': 'c8 --reporter=lcov mocha' }, devDependencies: { jest: '^29', mocha: '^11' } })).toBe('mocha')
})

test('without a runner in the script, what the repository declares', async () => {
  expect(await detected({ scripts: { test: 'make test' }, devDependencies: { jest: '^29' } })).toBe('jest')
  expect(await detected({ devDependencies: { vitest: '^3' } })).toBe('vitest')
})

test('runnerOfTestScript reads launchers, variables and npm run, and only node --test as node:test', () => {
  const scripts = (test: string, more: Record<string, string> = {}) => ({ scripts: { test, ...more } })
  expect(runnerOfTestScript(scripts('cross-env NODE_ENV=test npx --no-install jest --ci'))).toBe('jest')
  expect(runnerOfTestScript(scripts('TZ=UTC node --test --test-reporter=spec'))).toBe('node-test')
  expect(runnerOfTestScript(scripts('node scripts/run-tests.js'))).toBeNull()
  expect(runnerOfTestScript(scripts('python -m pytest -q'))).toBe('pytest')
  expect(runnerOfTestScript(scripts('yarn unit', { unit: 'ava --verbose' }))).toBe('ava')
  expect(runnerOfTestScript(scripts('npm test'))).toBeNull()
  expect(runnerOfTestScript(null)).toBeNull()
})
