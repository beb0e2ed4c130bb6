/** Which generated files are delivered, and why each other one is not. */
import type { ClassifiedTest, SuiteFile } from '../../src/domain.js'
import { selectDeliverable, type SelectionFacts } from '../../src/deliver/select.js'

const file = (path: string): SuiteFile => ({ path, content: "test('x', () => {})\n", tests: [] })
const test_ = (file: string, kind: ClassifiedTest['kind'], flaky = false, name = 'x'): ClassifiedTest => ({ file, name, head: 'passed', preFix: 'failed', kind, flaky, message: '', scenario: null, preFixFailure: null, preFixFailureLine: null })

const facts = (tests: ClassifiedTest[], more: Partial<SelectionFacts> = {}): SelectionFacts => ({ tests, concernPaths: new Set(), changedPaths: new Set(), headFiles: new Set(['src/a.js', 'test/a.test.js']), uncollected: new Set(), ...more })
const select = (paths: string[], tests: ClassifiedTest[], more: Partial<SelectionFacts> = {}) => {
  const selection = selectDeliverable(paths.map(file), facts(tests, more))
  return { delivered: selection.files.map((f) => f.path), leftOut: Object.fromEntries(selection.leftOut.map((f) => [f.path, f.reason])) }
}

test('files whose every test is fail-to-pass or pass-to-pass are delivered', () => {
  const paths = ['test/regression/a.test.js', 'test/regression/b.test.js']
  expect(select(paths, [test_(paths[0], 'fail-to-pass'), test_(paths[0], 'pass-to-pass'), test_(paths[1], 'pass-to-pass')])).toEqual({ delivered: paths, leftOut: {} })
})

test('a file with a flaky, skipped, failing or unrun test, or none that ran, is left out', () => {
  const [flaky, skipped, failing, missing, none] = ['flaky', 'skipped', 'failing', 'missing', 'none'].map((name) => `test/regression/${name}.test.js`)
  const tests = [
    test_(flaky, 'fail-to-pass'),
    test_(flaky, 'fail-to-pass', true, 'changes its mind'),
    test_(skipped, 'skipped', false, 'later'),
    test_(failing, 'fails-at-head', false, 'wrong'),
    test_(missing, 'missing-at-pre-fix', false, 'hooked')
  ]
  expect(select([flaky, skipped, failing, missing, none], tests)).toEqual({
    delivered: [],
    leftOut: {
      [flaky]: '1 of its 2 test(s) neither fail-to-pass nor pass-to-pass (changes its mind: flaky)',
      [skipped]: '1 of its 1 test(s) neither fail-to-pass nor pass-to-pass (later: skipped)',
      [failing]: '1 of its 1 test(s) neither fail-to-pass nor pass-to-pass (wrong: fails-at-head)',
      [missing]: '1 of its 1 test(s) neither fail-to-pass nor pass-to-pass (hooked: missing-at-pre-fix)',
      [none]: 'none of its tests ran'
    }
  })
})

test('never a fix-concern test, .github/, an unsafe path, a path the PR has or the head has, one through a file, or one the tests do not collect', () => {
  const paths = [
    'test/regression/issue-7-concerns.test.js',
    '.github/workflows/x.test.js',
    '.GitHub/x.test.js',
    'test/../../etc/x.test.js',
    '/abs/x.test.js',
    'test/regression/./x.test.js',
    'test/regression/changed.test.js',
    'test/a.test.js',
    'src/a.js/x.test.js',
    'tests-elsewhere/x.test.js',
    'test/regression/ok.test.js'
  ]
  const more = { concernPaths: new Set([paths[0]]), changedPaths: new Set(['test/regression/changed.test.js']), uncollected: new Set(['tests-elsewhere/x.test.js']) }
  expect(select(paths, paths.map((path) => test_(path, 'fail-to-pass')), more)).toEqual({
    delivered: ['test/regression/ok.test.js'],
    leftOut: {
      [paths[0]]: 'a fix-concern test: it fails at head by design (listed in the message, never delivered)',
      [paths[1]]: 'under .github/: workflows and repository settings are never delivered',
      [paths[2]]: 'under .github/: workflows and repository settings are never delivered',
      [paths[3]]: 'the path contains ".."',
      [paths[4]]: 'the path is absolute',
      [paths[5]]: 'the path is not in its plain form',
      [paths[6]]: 'the pull request already has a file at this path',
      [paths[7]]: 'a file already exists at this path at head',
      [paths[8]]: 'src/a.js is a file (or a symbolic link) at head, not a folder',
      [paths[9]]: "the repository's own test command does not collect it: its CI would never run it"
    }
  })
})
