import type { ClassifiedTest, SuiteFile } from '../../src/domain.js'
import { withScenarios } from '../../src/verdict/scenarios.js'

const ran = (file: string, name: string): ClassifiedTest => ({ file, name, head: 'passed', preFix: 'failed', kind: 'fail-to-pass', flaky: false, message: '', scenario: null, preFixFailure: 'assertion', preFixFailureLine: 'expected 1 to be 2' })
const written = (path: string, tests: Array<[title: string, scenario: string]>): SuiteFile => ({ path, content: '', tests: tests.map(([title, scenario]) => ({ title, scenario })) })

test.each([
  ['jest / vitest', 'a.test.ts', 'retry budget (#1) › retries after a 429'],
  ['mocha', 'a.test.ts', 'retry budget (#1) retries after a 429'],
  ['pytest class', 'a.test.ts', 'TestRetry::retries after a 429'],
  ['bare', 'a.test.ts', 'retries after a 429']
])('a %s test name ends with the title the model wrote', (_runner, file, name) => {
  const [test] = withScenarios([ran(file, name)], [written('a.test.ts', [['retries after a 429', 'a single 429']])])
  expect(test.scenario).toBe('a single 429')
})

test('a parametrized pytest case is its function; the longest fitting title wins; other files and unknown titles get none', () => {
  const files = [
    written('tests/test_a.py', [['test_rounds', 'rounding'], ['test_rounds_half_up', 'half up']]),
    written('tests/test_b.py', [['test_other', 'other']])
  ]
  const tests = withScenarios(
    [ran('tests/test_a.py', 'test_rounds_half_up[0.5-1]'), ran('tests/test_a.py', 'test_rounds'), ran('tests/test_a.py', 'test_other'), ran('tests/test_c.py', 'test_rounds')],
    files
  )
  expect(tests.map((test) => test.scenario)).toEqual(['half up', 'rounding', null, null])
})

test('a title is matched whole, not as the end of a word', () => {
  const [test] = withScenarios([ran('a.test.ts', 'suite › test_unretried')], [written('a.test.ts', [['retried', 'retried']])])
  expect(test.scenario).toBeNull()
})
