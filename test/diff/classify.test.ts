import { classifyFile, isManifest } from '../../src/diff/classify.js'

test.each([
  ['src/streaming-transport.ts', 'source'],
  ['lib/response.js', 'source'],
  ['index.js', 'source'],
  ['pkg/module.py', 'source'],
  ['test/streaming-transport.test.ts', 'test'],
  ['src/a.spec.js', 'test'],
  ['lib/parse_test.js', 'test'],
  ['lib/test-utils.js', 'source'],
  ['__tests__/response/redirect.js', 'test'],
  ['tests/test_parse.py', 'test'],
  ['pkg/parse_test.py', 'test'],
  ['conftest.py', 'test'],
  ['README.md', 'other'],
  ['package-lock.json', 'other'],
  ['.github/workflows/ci.yml', 'other'],
  ['jest.config.js', 'other'],
  ['docs/example.js', 'other'],
  ['types/index.d.ts', 'other']
])('%s is %s', (path, role) => {
  expect(classifyFile(path)).toBe(role)
})

test('manifests and lockfiles are recognised anywhere in the tree', () => {
  expect(isManifest('package.json')).toBe(true)
  expect(isManifest('packages/a/pnpm-lock.yaml')).toBe(true)
  expect(isManifest('pyproject.toml')).toBe(true)
  expect(isManifest('src/package.ts')).toBe(false)
})
