import { layoutFor, moduleStem, nearestTest } from '../../src/context/test-layout.js'
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
