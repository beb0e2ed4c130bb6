import { importedModuleNames, importedTopLevelNames, importRootDepth, pythonModuleName } from '../../src/context/python-imports.js'

const repo = (...files: string[]) => {
  const set = new Set(files)
  return (path: string) => set.has(path)
}

describe('pythonModuleName', () => {
  it('drops src/ in a src layout, never `src.…`', () => {
    const has = repo('pyproject.toml', 'src/pricing/__init__.py', 'src/pricing/discounts.py', 'src/pricing/rules/__init__.py', 'src/pricing/rules/tiers.py')
    expect(pythonModuleName('src/pricing/discounts.py', has)).toBe('pricing.discounts')
    expect(pythonModuleName('src/pricing/rules/tiers.py', has)).toBe('pricing.rules.tiers')
    expect(pythonModuleName('src/pricing/__init__.py', has)).toBe('pricing')
    // Even where a test wrongly imports through src, the canonical name stays.
    expect(pythonModuleName('src/pricing/discounts.py', has, ['from src.pricing.discounts import apply_discount\n'])).toBe('pricing.discounts')
  })

  it('keeps a flat layout as it is', () => {
    const has = repo('setup.py', 'quickcache/__init__.py', 'quickcache/memoize.py', 'quickcache/backends/__init__.py', 'quickcache/backends/memory.py')
    expect(pythonModuleName('quickcache/memoize.py', has)).toBe('quickcache.memoize')
    expect(pythonModuleName('quickcache/backends/memory.py', has)).toBe('quickcache.backends.memory')
    expect(pythonModuleName('settings.py', has)).toBe('settings')
  })

  it('names a module of a monorepo package from that package\'s own root', () => {
    const has = repo(
      'pyproject.toml',
      'packages/billing/pyproject.toml',
      'packages/billing/src/billing/__init__.py',
      'packages/billing/src/billing/invoice.py',
      'services/api/setup.cfg',
      'services/api/api/__init__.py',
      'services/api/api/routes/__init__.py',
      'services/api/api/routes/orders.py'
    )
    expect(pythonModuleName('packages/billing/src/billing/invoice.py', has)).toBe('billing.invoice')
    expect(pythonModuleName('services/api/api/routes/orders.py', has)).toBe('api.routes.orders')
  })

  it('treats folders without __init__.py as namespace packages from the project root', () => {
    const has = repo('pyproject.toml', 'quickcache/memoize.py')
    expect(pythonModuleName('quickcache/memoize.py', has)).toBe('quickcache.memoize')
  })

  it('takes the root from the top of the __init__.py chain inside a project', () => {
    const has = repo('pyproject.toml', 'lib/cache/__init__.py', 'lib/cache/lru.py')
    expect(importRootDepth('lib/cache/lru.py', has)).toBe(1)
    expect(pythonModuleName('lib/cache/lru.py', has)).toBe('cache.lru')
  })

  it("follows what the repository's tests import when the layout says otherwise", () => {
    const has = repo('pyproject.toml', 'lib/cache/__init__.py', 'lib/cache/lru.py')
    const styleExample = 'import pytest\n\nfrom lib.cache.lru import LRU\n'
    expect(pythonModuleName('lib/cache/lru.py', has, [styleExample])).toBe('lib.cache.lru')
  })
})

describe('importedTopLevelNames', () => {
  it('reads from-imports and plain imports, with aliases and lists, not relative imports', () => {
    const source = [
      'from __future__ import annotations',
      'import os, sys as system',
      'import pricing.discounts as d',
      '    from quickcache.memoize import memoize',
      'from . import helpers',
      'from .conftest import fixture',
      '# import commented'
    ].join('\n')
    expect([...importedTopLevelNames([source])].sort()).toEqual(['__future__', 'os', 'pricing', 'quickcache', 'sys'])
  })
})

test('the dotted module names test code imports, with what it takes from each', () => {
  const source = 'import tomli\nimport pkg.sub as s, os\nfrom pricing.discounts import apply_discount, Rate as R\nfrom pricing import (rates,\n'
  expect([...importedModuleNames(source)].sort()).toEqual(['os', 'pkg.sub', 'pricing', 'pricing.discounts', 'pricing.discounts.Rate', 'pricing.discounts.apply_discount', 'pricing.rates', 'tomli'])
})
