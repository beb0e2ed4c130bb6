import { exampleTest, layoutFor, moduleStem, nearestTest } from '../../src/context/test-layout.js'
import type { ChangedFile } from '../../src/domain.js'
import { importSpecifier, importStyleOf } from '../../src/context/imports.js'

test('the nearest test prefers the same module name, then the closest folder', () => {
  const tests = ['test/retry-budget.test.ts', 'test/streaming-transport.test.ts', 'test/other/deep.test.ts']
  expect(nearestTest(tests, 'src/streaming-transport.ts')).toBe('test/streaming-transport.test.ts')
  expect(nearestTest(['__tests__/response/redirect.js', '__tests__/request/ip.js'], 'lib/response.js')).toBe('__tests__/response/redirect.js')
  expect(nearestTest([], 'src/a.ts')).toBeNull()
})

test('module stems drop test markers and extensions', () => {
  expect(moduleStem('test/x.test.ts')).toBe('x')
  expect(moduleStem('tests/test_parser.py')).toBe('parser')
  expect(moduleStem('src/streaming-transport.ts')).toBe('streaming-transport')
})

test('the regression folder sits in the test area of the style example', () => {
  expect(layoutFor('test/retry-budget.test.ts', 'src/a.ts')).toEqual({ styleExample: 'test/retry-budget.test.ts', regressionDir: 'test/regression', testFileSuffix: '.test.ts' })
  expect(layoutFor('packages/core/__tests__/deep/x.spec.js', 'packages/core/src/a.js').regressionDir).toBe('packages/core/__tests__/regression')
  expect(layoutFor('src/util/a.test.js', 'src/util/a.js')).toMatchObject({ regressionDir: 'src/util/regression', testFileSuffix: '.test.js' })
  expect(layoutFor(null, 'src/a.ts')).toMatchObject({ regressionDir: 'test/regression', testFileSuffix: '.test.ts' })
})

test('imports follow the style example: extensions, module system', () => {
  const cjs = importStyleOf("import { RetryBudget } from '../src/retry-budget'\n", undefined)
  expect(cjs).toEqual({ moduleSystem: 'esm', extension: '' })
  expect(importSpecifier('test/regression', 'src/streaming-transport.ts', cjs)).toBe('../../src/streaming-transport')

  const nodeNext = importStyleOf("import { a } from '../src/a.js'\n", 'module')
  expect(importSpecifier('test/regression', 'src/lib/b.ts', nodeNext)).toBe('../../src/lib/b.js')
  expect(importSpecifier('test/regression', 'src/lib/b.mts', nodeNext)).toBe('../../src/lib/b.mjs')

  const required = importStyleOf("const { parse } = require('../index')\n", undefined)
  expect(required).toEqual({ moduleSystem: 'cjs', extension: '' })
  expect(importSpecifier('lib', 'lib/parse.js', required)).toBe('./parse')
  expect(importSpecifier('test/regression', 'src/plugin/customParseFormat/index.js', required)).toBe('../../src/plugin/customParseFormat')
  expect(importSpecifier('test', 'index.js', required)).toBe('..')
  expect(importSpecifier('test/regression', 'src/lib/index.ts', nodeNext)).toBe('../../src/lib/index.js')

  expect(importStyleOf(null, 'module')).toEqual({ moduleSystem: 'esm', extension: '.js' })
})

test('the example test is one that exists at head: a test the fix deleted is never chosen (the preflight runs it)', () => {
  const changed = (path: string, status: ChangedFile['status']): ChangedFile => ({ path, basePath: status === 'added' ? null : path, status, role: 'test', hunks: [] })
  const isTest = (path: string) => path.startsWith('tests/test_')
  const headFiles = ['src/parser.py', 'tests/test_misc.py', 'tests/test_extras.py']
  // The deleted file matches the changed module best, yet is gone at head.
  expect(exampleTest([changed('tests/test_parser.py', 'deleted'), changed('tests/test_misc.py', 'modified')], headFiles, isTest, 'src/parser.py')).toBe('tests/test_misc.py')
  expect(exampleTest([changed('tests/test_parser.py', 'deleted')], headFiles, isTest, 'src/parser.py')).toMatch(/^tests\/test_(misc|extras)\.py$/)
})
