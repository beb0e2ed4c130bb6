/** The repository's own collection rules, read from real files in a temp folder. */
import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { dirname, join } from 'node:path'
import { readCollection, type Collection, type CollectionOptions } from '../../src/context/collection.js'
import { collectedLayout, layoutFor, regressionFileName } from '../../src/context/test-layout.js'

const dirs: string[] = []
afterAll(() => Promise.all(dirs.map((dir) => rm(dir, { recursive: true, force: true }))))

/** A repository folder with these files, read back as the head tree. */
async function collectionIn(framework: string, files: Record<string, string>, options: CollectionOptions = {}): Promise<Collection> {
  const dir = await mkdtemp(join(tmpdir(), 'rtg-collection-'))
  dirs.push(dir)
  for (const [path, content] of Object.entries(files)) {
    await mkdir(dirname(join(dir, path)), { recursive: true })
    await writeFile(join(dir, path), content)
  }
  const read = (path: string) => readFile(join(dir, path), 'utf8').catch(() => null)
  return readCollection(framework, { read, files: Object.keys(files) }, options)
}

const pkg = (fields: object) => JSON.stringify(fields)

describe('mocha', () => {
  test('a non-recursive glob in the test script collects only the folder it names', async () => {
    const collection = await collectionIn('mocha', { 'package.json': pkg({ scripts: { test: "mocha --require ./test/setup.js 'test/*.test.js'" } }), 'test/a.test.js': '' })
    expect(collection.collects('test/regression-issue-1.test.js')).toBe(true)
    expect(collection.collects('test/regression/issue-1.test.js')).toBe(false)
    expect(collection.source).toContain('test/*.test.js')
  })

  test('a folder without --recursive: its own files; with --recursive (or the config saying so), its subfolders too', async () => {
    const flat = await collectionIn('mocha', { 'package.json': pkg({ scripts: { test: 'mocha test/' } }), 'test/a.test.js': '' })
    expect(flat.collects('test/regression/issue-1.test.js')).toBe(false)
    expect(flat.collects('test/regression-issue-1.test.js')).toBe(true)
    const recursive = await collectionIn('mocha', { 'package.json': pkg({ scripts: { test: 'mocha --recursive test/' } }), 'test/a.test.js': '' })
    expect(recursive.collects('test/regression/issue-1.test.js')).toBe(true)
    const config = await collectionIn('mocha', { 'package.json': pkg({ scripts: { test: 'mocha' } }), '.mocharc.yml': 'recursive: true\n', 'test/a.test.js': '' })
    expect(config.collects('test/regression/issue-1.test.js')).toBe(true)
  })

  test("plain `mocha` runs mocha's default, ./test without subfolders; a spec in .mocharc.json or package.json is read", async () => {
    const plain = await collectionIn('mocha', { 'package.json': pkg({ scripts: { test: 'mocha' } }), 'test/a.js': '' })
    expect(plain.collects('test/regression/issue-1.test.js')).toBe(false)
    expect(plain.collects('test/regression-issue-1.test.js')).toBe(true)
    const json = await collectionIn('mocha', { 'package.json': pkg({ scripts: { test: 'mocha' } }), '.mocharc.json': '{ "spec": "spec/**/*.spec.js" }', 'spec/a.spec.js': '' })
    expect(json.collects('spec/regression/issue-1.spec.js')).toBe(true)
    expect(json.collects('test/regression/issue-1.test.js')).toBe(false)
    const inPackage = await collectionIn('mocha', { 'package.json': pkg({ scripts: { test: 'mocha' }, mocha: { spec: ['test/unit/*.js'] } }), 'test/unit/a.js': '' })
    expect(inPackage.collects('test/unit/regression-issue-1.test.js')).toBe(true)
    expect(inPackage.collects('test/unit/regression/issue-1.test.js')).toBe(false)
  })

  test('a JavaScript config, or a test script that never runs mocha, is unknown', async () => {
    expect((await collectionIn('mocha', { 'package.json': pkg({ scripts: { test: 'mocha' } }), '.mocharc.js': 'module.exports = {}' })).collects('test/a.test.js')).toBeNull()
    expect((await collectionIn('mocha', { 'package.json': pkg({ scripts: { test: 'make test' } }) })).collects('test/a.test.js')).toBeNull()
  })
})

describe('node --test', () => {
  test('a glob in the script collects its folder only; no pattern means node\'s defaults', async () => {
    const glob = await collectionIn('node-test', { 'package.json': pkg({ scripts: { test: 'node --test --import tsx test/unit/*.test.js' } }) })
    expect(glob.collects('test/unit/regression-issue-1.test.js')).toBe(true)
    expect(glob.collects('test/unit/regression/issue-1.test.js')).toBe(false)
    expect(glob.collects('test/regression/issue-1.test.js')).toBe(false)
    const defaults = await collectionIn('node-test', { 'package.json': pkg({ scripts: { test: 'node --test --test-concurrency=1' } }) })
    expect(defaults.collects('test/regression/issue-1.test.js')).toBe(true)
    expect(defaults.collects('node_modules/x/a.test.js')).toBe(false)
  })

  test('`npm run` into another script is followed; no node --test command is unknown', async () => {
    const followed = await collectionIn('node-test', { 'package.json': pkg({ scripts: { test: 'npm run unit', unit: "node --test 'test/**/*.test.mjs'" } }) })
    expect(followed.collects('test/regression/issue-1.test.mjs')).toBe(true)
    expect(followed.collects('test/regression/issue-1.test.js')).toBe(false)
    expect((await collectionIn('node-test', { 'package.json': pkg({ scripts: { test: 'make' } }) })).collects('test/a.test.js')).toBeNull()
  })
})

describe('jest', () => {
  test('testMatch in package.json', async () => {
    const collection = await collectionIn('jest', { 'package.json': pkg({ scripts: { test: 'jest' }, jest: { testMatch: ['<rootDir>/test/*.test.ts'] } }) })
    expect(collection.collects('test/regression-issue-1.test.ts')).toBe(true)
    expect(collection.collects('test/regression/issue-1.test.ts')).toBe(false)
  })

  test('the defaults, roots, testRegex and testPathIgnorePatterns', async () => {
    const defaults = await collectionIn('jest', { 'package.json': pkg({ scripts: { test: 'jest' } }) })
    expect(defaults.collects('test/regression/issue-1.test.ts')).toBe(true)
    expect(defaults.collects('test/regression/issue-1.ts')).toBe(false)
    const roots = await collectionIn('jest', { 'package.json': pkg({ jest: { roots: ['<rootDir>/src'] } }) })
    expect(roots.collects('test/regression/issue-1.test.ts')).toBe(false)
    expect(roots.collects('src/regression/issue-1.test.ts')).toBe(true)
    const regex = await collectionIn('jest', { 'package.json': pkg({ jest: { testRegex: '/test/[^/]+\\.spec\\.js$', testPathIgnorePatterns: ['/legacy/'] } }) })
    expect(regex.collects('test/a.spec.js')).toBe(true)
    expect(regex.collects('test/regression/a.spec.js')).toBe(false)
    const ignored = await collectionIn('jest', { 'package.json': pkg({ jest: { testPathIgnorePatterns: ['/regression/'] } }) })
    expect(ignored.collects('test/regression/issue-1.test.js')).toBe(false)
  })

  test('a JavaScript config file is unknown', async () => {
    const collection = await collectionIn('jest', { 'package.json': pkg({ scripts: { test: 'jest' } }), 'jest.config.js': 'module.exports = {}' })
    expect(collection.collects('test/regression/issue-1.test.ts')).toBeNull()
  })
})

describe('as the runner reports its configuration', () => {
  // What `jest --showConfig` printed, made <rootDir>-relative by the adapter (a wrapper's hidden config).
  const resolved = { source: 'tiny-scripts test --showConfig', values: { rootDir: '', roots: ['<rootDir>/src'], testMatch: ['**/*.spec.js'], testRegex: [], testPathIgnorePatterns: ['/node_modules/'], moduleFileExtensions: ['js'] } }

  test("jest's resolved roots and testMatch win over what the files say", async () => {
    const collection = await collectionIn('jest', { 'package.json': pkg({ scripts: { test: 'tiny-scripts test' } }) }, { resolved })
    expect(collection.source).toBe('tiny-scripts test --showConfig')
    expect(collection.collects('src/regression/issue-7.spec.js')).toBe(true)
    expect(collection.collects('test/regression/issue-7.spec.js')).toBe(false)
    expect(collection.collects('src/regression/issue-7.test.js')).toBe(false)
  })

  test("jest's glob dialect: a bare group such as tsdx's `*.(spec|test).{ts,tsx}`", async () => {
    const tsdx = { ...resolved, values: { ...resolved.values, roots: ['<rootDir>'], testMatch: ['<rootDir>/**/*.(spec|test).{ts,tsx,js,jsx}'], moduleFileExtensions: ['ts', 'tsx', 'js', 'jsx'] } }
    const collection = await collectionIn('jest', { 'package.json': pkg({ scripts: { test: 'tsdx test' } }) }, { resolved: tsdx })
    expect(collection.collects('test/utils.test.tsx')).toBe(true)
    expect(collection.collects('test/regression/issue-7.spec.ts')).toBe(true)
    expect(collection.collects('test/utils.tsx')).toBe(false)
  })

  test('a package of a monorepo: its own configuration, and nothing outside it is collected', async () => {
    const files = { 'package.json': pkg({ workspaces: ['packages/*'] }), 'packages/core/package.json': pkg({ jest: { testMatch: ['**/*.check.js'] } }) }
    const collection = await collectionIn('jest', files, { packageDir: 'packages/core' })
    expect(collection.source).toBe('jest (package.json)')
    expect(collection.collects('packages/core/test/issue-7.check.js')).toBe(true)
    expect(collection.collects('packages/core/test/issue-7.test.js')).toBe(false)
    expect(collection.collects('test/issue-7.check.js')).toBe(false)
    const withResolved = await collectionIn('jest', files, { packageDir: 'packages/core', resolved })
    expect(withResolved.collects('packages/core/src/a.spec.js')).toBe(true)
    expect(withResolved.collects('src/a.spec.js')).toBe(false)
  })
})

describe('pytest', () => {
  test('testpaths and python_files from pyproject.toml', async () => {
    const collection = await collectionIn('pytest', { 'pyproject.toml': '[project]\nname = "x"\n\n[tool.pytest.ini_options]\ntestpaths = [\n  "tests/unit",\n]\npython_files = "check_*.py test_*.py"\n' })
    expect(collection.collects('tests/unit/regression/test_issue_1.py')).toBe(true)
    expect(collection.collects('tests/regression/test_issue_1.py')).toBe(false)
    expect(collection.collects('tests/unit/regression/issue_1.py')).toBe(false)
  })

  test('pytest.ini comes first, with its continuation lines; setup.cfg is read when it holds [tool:pytest]', async () => {
    const ini = await collectionIn('pytest', { 'pytest.ini': '[pytest]\ntestpaths =\n    tests\n    integration\npython_files = *_check.py\n', 'setup.cfg': '[tool:pytest]\ntestpaths = other\n' })
    expect(ini.collects('integration/regression/issue_check.py')).toBe(true)
    expect(ini.collects('tests/regression/test_issue_1.py')).toBe(false)
    const cfg = await collectionIn('pytest', { 'setup.cfg': '[metadata]\nname = x\n[tool:pytest]\ntestpaths = tests\n' })
    expect(cfg.collects('tests/regression/test_issue_1.py')).toBe(true)
    expect(cfg.collects('test_issue_1.py')).toBe(false)
  })

  test('with no configuration: every test_*.py and *_test.py, out of hidden and build folders', async () => {
    const collection = await collectionIn('pytest', {})
    expect(collection.collects('tests/regression/test_issue_1.py')).toBe(true)
    expect(collection.collects('build/tests/test_issue_1.py')).toBe(false)
  })
})

describe('ava', () => {
  test('files in package.json', async () => {
    const collection = await collectionIn('ava', { 'package.json': pkg({ scripts: { test: 'ava' }, ava: { files: ['test/*.test.js', '!test/skip.test.js'] } }) })
    expect(collection.collects('test/regression-issue-1.test.js')).toBe(true)
    expect(collection.collects('test/regression/issue-1.test.js')).toBe(false)
    expect(collection.collects('test/skip.test.js')).toBe(false)
  })

  test("ava's default files; underscored helpers never; an ava.config.js is unknown", async () => {
    const defaults = await collectionIn('ava', { 'package.json': pkg({ scripts: { test: 'ava' } }) })
    expect(defaults.collects('test/regression/issue-1.test.js')).toBe(true)
    expect(defaults.collects('test/regression/_helper.js')).toBe(false)
    expect(defaults.collects('test/helpers/issue-1.js')).toBe(false)
    expect(defaults.collects('test/regression/issue-1.test.ts')).toBe(false)
    expect((await collectionIn('ava', { 'package.json': pkg({}), 'ava.config.js': 'export default {}' })).collects('test/a.test.js')).toBeNull()
  })
})

describe('vitest', () => {
  test("its defaults, a plain include literal, and an unreadable config", async () => {
    const defaults = await collectionIn('vitest', { 'package.json': pkg({ scripts: { test: 'vitest run' } }) })
    expect(defaults.collects('test/regression/issue-1.test.ts')).toBe(true)
    const literal = await collectionIn('vitest', { 'vitest.config.ts': "export default defineConfig({ test: { include: ['test/*.test.ts'] } })\n" })
    expect(literal.collects('test/regression-issue-1.test.ts')).toBe(true)
    expect(literal.collects('test/regression/issue-1.test.ts')).toBe(false)
    const computed = await collectionIn('vitest', { 'vitest.config.ts': 'export default defineConfig({ test: { include: patterns } })\n' })
    expect(computed.collects('test/regression/issue-1.test.ts')).toBeNull()
  })
})

describe('collectedLayout', () => {
  const example = 'test/parse.test.js'
  const layout = layoutFor(example, 'lib/parse.js')

  test('keeps the usual regression folder when it is collected or the rules are unknown', async () => {
    expect(collectedLayout(layout, 'issue-1', () => true).regressionDir).toBe('test/regression')
    expect(collectedLayout(layout, 'issue-1', () => null).regressionDir).toBe('test/regression')
  })

  test("moves beside the example's tests, with a name that says regression, when only they are collected", async () => {
    const collection = await collectionIn('mocha', { 'package.json': pkg({ scripts: { test: 'mocha test/*.test.js' } }), [example]: '' })
    const moved = collectedLayout(layout, 'issue-1', (path) => collection.collects(path))
    expect(moved.regressionDir).toBe('test')
    expect(regressionFileName(moved.regressionDir, 'issue-1', moved.testFileSuffix)).toBe('test/regression-issue-1.test.js')
    expect(regressionFileName('tests', 'issue-1', '.py')).toBe('tests/test_regression_issue_1.py')
  })

  test('keeps the usual folder when nothing it could choose is collected', () => {
    expect(collectedLayout(layout, 'issue-1', () => false).regressionDir).toBe('test/regression')
  })
})

describe('a script that runs the runner more than once', () => {
  test('jest: one narrowed run (a single file, per time zone) and a plain one — the plain one collects everything', async () => {
    const scripts = { test: 'TZ=Pacific/Auckland npm run test-tz && npm run test-tz && jest', 'test-tz': 'jest test/timezone.test --coverage=false' }
    const collection = await collectionIn('jest', { 'package.json': pkg({ scripts, jest: { roots: ['test'], testRegex: 'test/(.*?/)?.*test.js$' } }), 'test/a.test.js': '' })
    expect(collection.collects('test/plugin/parse.test.js')).toBe(true)
    expect(collection.collects('test/regression/issue-1.test.js')).toBe(true)
    expect(collection.collects('src/plugin/parse.js')).toBe(false)
  })

  test('vitest: type tests first (`vitest --run typecheck`), then the tests (`vitest run`)', async () => {
    const collection = await collectionIn('vitest', { 'package.json': pkg({ scripts: { test: 'pnpm lint && vitest --run typecheck && vitest run' } }), 'test/join.test.ts': '' })
    expect(collection.collects('test/join.test.ts')).toBe(true)
    expect(collection.collects('test/regression/issue-35.test.ts')).toBe(true)
  })
})
