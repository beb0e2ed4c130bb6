import { exampleTest, layoutFor, moduleStem, nearestTest, styleExampleTest } from '../../src/context/test-layout.js'
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

describe('styleExampleTest', () => {
  const isTestFile = (path: string) => /\.test\.js$|(^|\/)test_\w+\.py$/.test(path) || path.startsWith('__tests__/')
  const everything = () => true

  it('prefers, of the nearest tests, one that already imports the changed code over one only named like it', async () => {
    const files = ['src/cart.js', 'test/cart.test.js', 'test/checkout.test.js', 'test/other.test.js']
    const importsChangedCode = async (path: string) => path === 'test/checkout.test.js'
    expect(await styleExampleTest([], files, 'src/cart.js', { isTestFile, collects: everything, importsChangedCode })).toBe('test/checkout.test.js')
    // None imports it: the nearest by name.
    expect(await styleExampleTest([], files, 'src/cart.js', { isTestFile, collects: everything, importsChangedCode: async () => false })).toBe('test/cart.test.js')
  })

  it('skips a file the repository\'s test command does not collect, such as a helper module in a test folder', async () => {
    const files = ['src/cart.js', '__tests__/helpers/cart.js', '__tests__/cart.spec.js']
    const collects = (path: string) => !path.includes('/helpers/')
    expect(await styleExampleTest([], files, 'src/cart.js', { isTestFile, collects, importsChangedCode: async () => true })).toBe('__tests__/cart.spec.js')
  })

  it('keeps a test the fix changed first, whatever the others import', async () => {
    const changed = [{ path: 'test/cart.test.js', basePath: 'test/cart.test.js', status: 'modified', role: 'test', hunks: [] } as unknown as ChangedFile]
    const files = ['src/cart.js', 'test/cart.test.js', 'test/checkout.test.js']
    expect(await styleExampleTest(changed, files, 'src/cart.js', { isTestFile, collects: everything, importsChangedCode: async (path) => path === 'test/checkout.test.js' })).toBe('test/cart.test.js')
  })
})
