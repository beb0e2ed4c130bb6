import { capNames, filesNamedIn, rebaseImports, relativeImports, resolveImport } from '../../src/context/related.js'

test('relative imports of ESM, CommonJS and side-effect imports; packages are not relative', () => {
  const code = "import { a } from './a.js'\nimport '../setup'\nconst b = require('./lib/b')\nimport x from 'lodash'\nexport * from './c'\nconst up = require('..')\n"
  expect(relativeImports(code)).toEqual(['./a.js', '../setup', './lib/b', './c', '..'])
})

test('specifiers resolve to repository files, TypeScript `.js` to `.ts`, folders to their index', () => {
  const files = new Set(['src/a.ts', 'src/lib/b.js', 'src/c/index.ts', 'setup.js'])
  expect(resolveImport('src/x.ts', './a.js', files)).toBe('src/a.ts')
  expect(resolveImport('src/x.ts', './lib/b', files)).toBe('src/lib/b.js')
  expect(resolveImport('src/x.ts', './c', files)).toBe('src/c/index.ts')
  expect(resolveImport('src/x.ts', '../setup', files)).toBe('setup.js')
  expect(resolveImport('src/x.ts', './missing', files)).toBeNull()
})

test("the style example's imports are rewritten for the regression folder", () => {
  expect(rebaseImports('test/plugin/a.test.js', "import dayjs from '../../src'\nimport '../../src/locale/zh-cn'\n", 'test/regression')).toEqual([
    { original: '../../src', rebased: '../../src' },
    { original: '../../src/locale/zh-cn', rebased: '../../src/locale/zh-cn' }
  ])
  expect(rebaseImports('test/a.test.ts', "import { a } from '../src/a.js'\nimport { h } from './helpers'\n", 'test/regression')).toEqual([
    { original: '../src/a.js', rebased: '../../src/a.js' },
    { original: './helpers', rebased: '../helpers' }
  ])
})

test("a Python style example's relative imports become absolute, as the regression folder is no package", () => {
  const example = 'from . import CountedLock, CountedCondition\nfrom .helpers import make_cache\nfrom ..conftest import clock\nimport pytest\nfrom cachetools import cached\n'
  expect(rebaseImports('tests/test_cachedmethod.py', example, 'tests/regression')).toEqual([
    { original: 'from . import', rebased: 'from tests import' },
    { original: 'from .helpers import', rebased: 'from tests.helpers import' }
  ])
  expect(rebaseImports('tests/unit/test_a.py', 'from ..conftest import clock\n', 'tests/regression')).toEqual([{ original: 'from ..conftest import', rebased: 'from tests.conftest import' }])
})

test('files the bug report names: by path, file name or module name, never by a plain word', () => {
  const sources = ['src/index.js', 'src/locale/zh-cn.js', 'src/locale/en.js', 'src/plugin/localizedFormat/index.js', 'src/parse.js', 'lib/url_utils.py']
  const report = "With the localizedFormat plugin and the zh-cn locale, parse of 'A' fails (en works). See src/index.js."
  expect(filesNamedIn(report, sources)).toEqual(['src/index.js', 'src/locale/zh-cn.js'])
  expect(filesNamedIn('The localizedFormat plugin breaks.', sources)).toEqual(['src/plugin/localizedFormat/index.js'])
  expect(filesNamedIn('url_utils.py drops the port; parse and index are fine', sources)).toEqual(['lib/url_utils.py'])
  expect(filesNamedIn('index.js fails', sources)).toEqual([])
})

test('a long list of exports is capped, the names the shown code uses first, with a marker for the rest', () => {
  const names = Array.from({ length: 500 }, (_, i) => `helper${i}`)
  expect(capNames(names.slice(0, 10))).toEqual(names.slice(0, 10))
  const capped = capNames(names, () => 'return helper499(helper7)')
  expect(capped.slice(0, 2)).toEqual(['helper7', 'helper499'])
  expect(capped[capped.length - 1]).toBe(`[… ${500 - (capped.length - 1)} more names left out]`)
  expect(capped.join(', ').length).toBeLessThan(2_000)
})
