/** The import check judged from the runner's results in each tree, and the files it runs: unit by unit. */
import type { ContextPack, ImportLine, RunResult, TestResult } from '../../src/domain.js'
import { judgeImports, loadingTests } from '../../src/execute/import-check.js'
import { jestAdapter } from '../../src/frameworks/jest.js'
import { pytestAdapter } from '../../src/frameworks/pytest.js'

const pack = (overrides: Partial<ContextPack>): ContextPack => ({
  sources: [],
  imports: [],
  styleExample: null,
  styleImports: [],
  related: [],
  regressionDir: 'test/regression',
  testFileSuffix: '.test.js',
  framework: 'jest',
  frameworkVersion: null,
  moduleSystem: 'cjs',
  language: 'javascript',
  runtime: [],
  ...overrides
})
const way = (module: string, specifier: string, through: string | null = null): ImportLine => ({ module, specifier, through, loads: { head: null, preFix: null } })
const passed = (file: string): TestResult => ({ file, name: 'loads', status: 'passed', durationMs: 1, message: '' })
const run = (tests: TestResult[], fileErrors: RunResult['fileErrors'] = []): RunResult => ({ tests, fileErrors, exitCode: 0, timedOut: false, durationMs: 5, output: '' })

test('one loading test per distinct specifier, written the way the suite will be: require for CommonJS, import for TypeScript, import for Python', () => {
  const imports = [way('src/step.js', '../../src'), way('src/step.js', '../../src/step'), way('src/range.js', '../../src')]
  const files = loadingTests(pack({ imports }), jestAdapter.loadingTest!)
  expect(files).toEqual([
    { specifier: '../../src', path: 'test/regression/import-check-1.test.js', content: "require('../../src')\n\ntest('loads', () => {})\n", tests: [] },
    { specifier: '../../src/step', path: 'test/regression/import-check-2.test.js', content: "require('../../src/step')\n\ntest('loads', () => {})\n", tests: [] }
  ])
  const typescript = loadingTests(pack({ imports: imports.slice(0, 1), language: 'typescript', testFileSuffix: '.test.ts' }), jestAdapter.loadingTest!)
  expect(typescript[0]).toMatchObject({ path: 'test/regression/import-check-1.test.ts', content: "import '../../src'\n\ntest('loads', () => {})\n" })
  const python = loadingTests(pack({ imports: [way('src/pkg/_parser.py', 'pkg')], language: 'python', testFileSuffix: '.py', regressionDir: 'tests/regression' }), pytestAdapter.loadingTest!)
  expect(python[0]).toMatchObject({ path: 'tests/regression/test_import_check_1.py', content: 'import pkg\n\n\ndef test_loads():\n    pass\n' })
})

test('loads where its one test passed; not where the file could not run (a module the fix added), with the error; null where the run said nothing', () => {
  const imports = [way('src/step.js', '../../src', 'src/index.js'), way('src/step.js', '../../src/step')]
  const files = loadingTests(pack({ imports }), jestAdapter.loadingTest!)
  const [entry, own] = files.map((file) => file.path)
  const head = run([passed(entry), passed(own)])
  const preFix = run([passed(entry)], [{ file: own, message: "Cannot find module '../../src/step' from 'test/regression/import-check-2.test.js'\n\n  at Resolver (x.js:1:1)" }])
  expect(judgeImports(imports, files, head, preFix)).toEqual([
    { ...imports[0], loads: { head: true, preFix: true } },
    { ...imports[1], loads: { head: true, preFix: false }, error: "Cannot find module '../../src/step' from 'test/regression/import-check-2.test.js'" }
  ])
  // A runner that ran nothing (it timed out, or crashed before reporting) says nothing of either way in.
  expect(judgeImports(imports, files, run([]), run([])).map((line) => line.loads)).toEqual([
    { head: null, preFix: null },
    { head: null, preFix: null }
  ])
})
