/** Which manifest changes install other packages. */
import { changesInstall } from '../../src/execute/dependency-change.js'

const json = (value: object) => JSON.stringify(value, null, 2)

test("package.json: a release bump or a script changes no install; a dependency, an override or the engines do", () => {
  const base = { name: 'app', version: '1.0.0', scripts: { test: 'jest' }, devDependencies: { jest: '^29.0.0' } }
  expect(changesInstall('package.json', json(base), json({ ...base, version: '1.0.1', scripts: { test: 'jest --ci' } }))).toBe(false)
  expect(changesInstall('package.json', json(base), json({ ...base, devDependencies: { jest: '^30.0.0' } }))).toBe(true)
  expect(changesInstall('package.json', json(base), json({ ...base, overrides: { semver: '7.6.0' } }))).toBe(true)
  expect(changesInstall('packages/a/package.json', json(base), json({ ...base, engines: { node: '>=20' } }))).toBe(true)
})

test('package-lock.json: flags npm rewrote (peer, dev) change nothing; another version or source does (v3 and v1)', () => {
  const v3 = (entry: object) => json({ name: 'app', version: '1.0.0', lockfileVersion: 3, packages: { '': { name: 'app', version: '1.0.0' }, 'node_modules/react': { version: '16.14.0', resolved: 'https://r/react-16.14.0.tgz', ...entry } } })
  expect(changesInstall('package-lock.json', v3({ peer: true, dev: true }), v3({ dev: true }))).toBe(false)
  expect(changesInstall('package-lock.json', v3({}), v3({ version: '16.14.1' }))).toBe(true)
  const v1 = (version: string) => json({ lockfileVersion: 1, dependencies: { a: { version: '1.0.0', dependencies: { b: { version } } } } })
  expect(changesInstall('npm-shrinkwrap.json', v1('2.0.0'), v1('2.0.0'))).toBe(false)
  expect(changesInstall('npm-shrinkwrap.json', v1('2.0.0'), v1('2.0.1'))).toBe(true)
})

test('other manifests, an added or deleted one, or one that does not parse: any change counts', () => {
  expect(changesInstall('yarn.lock', 'a@1:\n  version "1.0.0"\n', 'a@1:\n  version "1.0.1"\n')).toBe(true)
  expect(changesInstall('yarn.lock', 'same\n', 'same\n')).toBe(false)
  expect(changesInstall('package.json', null, json({ name: 'app' }))).toBe(true)
  expect(changesInstall('package.json', '{ broken', json({ name: 'app' }))).toBe(true)
})
