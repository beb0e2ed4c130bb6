import { execFileSync } from 'node:child_process'
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { dirname, join } from 'node:path'
import { readChangeSet } from '../../src/diff/change-set.js'
import { jestAdapter } from '../../src/frameworks/jest.js'
import { pytestAdapter } from '../../src/frameworks/pytest.js'
import { createGit } from '../../src/ports/git.js'
import { NotApplicable } from '../../src/errors.js'
import { pullRequestTests } from '../../src/suite/pull-request-tests.js'

const dirs: string[] = []
afterAll(() => dirs.forEach((dir) => rmSync(dir, { recursive: true, force: true })))

/** A repository with `before` committed, then `after` written on top as the fix commit. */
async function change(before: Record<string, string>, after: Record<string, string>) {
  const dir = mkdtempSync(join(tmpdir(), 'rtg-pr-tests-'))
  dirs.push(dir)
  const git = (...args: string[]) => execFileSync('git', ['-c', 'user.name=t', '-c', 'user.email=t@t', ...args], { cwd: dir, encoding: 'utf8' }).trim()
  const write = (files: Record<string, string>) => {
    for (const [path, content] of Object.entries(files)) {
      mkdirSync(dirname(join(dir, path)), { recursive: true })
      writeFileSync(join(dir, path), content)
    }
  }
  git('init', '-q', '-b', 'main')
  write(before)
  git('add', '-A')
  git('commit', '-q', '-m', 'base')
  const base = git('rev-parse', 'HEAD')
  write(after)
  git('add', '-A')
  git('commit', '-q', '-m', 'fix')
  const repo = createGit(dir)
  return { repo, changeSet: await readChangeSet(repo, base, 'HEAD') }
}

test('a changed JavaScript helper brings in the test files that import it', async () => {
  const { repo, changeSet } = await change(
    {
      'src/a.js': 'module.exports = 1\n',
      'test/support/fake-clock.js': 'module.exports = () => 0\n',
      'test/uses-clock.test.js': "const clock = require('./support/fake-clock')\ntest('x', () => {})\n",
      'test/nested/also.test.js': "import clock from '../support/fake-clock.js'\ntest('y', () => {})\n",
      'test/other.test.js': "test('z', () => {})\n"
    },
    { 'src/a.js': 'module.exports = 2\n', 'test/support/fake-clock.js': 'module.exports = () => 1\n' }
  )
  const files = await pullRequestTests(changeSet, jestAdapter, repo)
  expect(files.map((file) => file.path).sort()).toEqual(['test/nested/also.test.js', 'test/uses-clock.test.js'])
})

test('a changed conftest.py or Python helper module brings in the tests it serves', async () => {
  const before = {
    'pyproject.toml': '[tool.pytest.ini_options]\n',
    'pkg/core.py': 'X = 1\n',
    'tests/__init__.py': '',
    'tests/helpers.py': 'def make():\n    return 1\n',
    'tests/test_uses_helper.py': 'from tests.helpers import make\n\ndef test_a():\n    assert make()\n',
    'tests/test_plain.py': 'def test_b():\n    assert True\n',
    'tests/api/conftest.py': '',
    'tests/api/test_api.py': 'def test_c():\n    assert True\n'
  }
  const helper = await change(before, { 'pkg/core.py': 'X = 2\n', 'tests/helpers.py': 'def make():\n    return 2\n' })
  expect((await pullRequestTests(helper.changeSet, pytestAdapter, helper.repo)).map((file) => file.path)).toEqual(['tests/test_uses_helper.py'])

  const conftest = await change(before, { 'pkg/core.py': 'X = 2\n', 'tests/api/conftest.py': 'import pytest\n' })
  expect((await pullRequestTests(conftest.changeSet, pytestAdapter, conftest.repo)).map((file) => file.path)).toEqual(['tests/api/test_api.py'])
})

test('the changed test files themselves come first, each once', async () => {
  const { repo, changeSet } = await change(
    { 'src/a.js': '1\n', 'test/support/h.js': '1\n', 'test/a.test.js': "require('./support/h')\n" },
    { 'src/a.js': '2\n', 'test/support/h.js': '2\n', 'test/a.test.js': "require('./support/h')\ntest('new', () => {})\n" }
  )
  expect((await pullRequestTests(changeSet, jestAdapter, repo)).map((file) => file.path)).toEqual(['test/a.test.js'])
})

test('changed data files bring in the tests that read their folder: those naming the most of the way to them', async () => {
  const { repo, changeSet } = await change(
    {
      'tomlkit/parser.py': 'def parse(text):\n    return {}\n',
      'tests/__init__.py': '',
      'tests/test_extras.py': 'from pathlib import Path\n\nDATA_DIR = Path(__file__).parent / "data" / "extras"\n\ndef test_valid():\n    pass\n',
      'tests/test_compliance.py': 'from pathlib import Path\n\nDATA_DIR = Path(__file__).parent / "data" / "compliance"\n\ndef test_valid():\n    pass\n',
      'tests/test_misc.py': 'def test_misc():\n    pass\n',
      'tests/data/extras/valid/dates.toml': 'a = 1\n'
    },
    { 'tomlkit/parser.py': 'def parse(text):\n    return {"a": 1}\n', 'tests/data/extras/invalid/dotted-keys/extend-table.toml': 'a.b = 1\n[a]\n' }
  )
  const files = await pullRequestTests(changeSet, pytestAdapter, repo)
  expect(files.map((file) => file.path)).toEqual(['tests/test_extras.py'])
})

test('test data that no test reads, and no test file: not-applicable, saying there is nothing to verify', async () => {
  const { repo, changeSet } = await change(
    { 'src/a.js': '1\n', 'test/a.test.js': "test('plain', () => {})\n" },
    { 'src/a.js': '2\n', 'test/cases/unused.json': '{}\n' }
  )
  const rejection = pullRequestTests(changeSet, jestAdapter, repo)
  await expect(rejection).rejects.toBeInstanceOf(NotApplicable)
  await expect(rejection).rejects.toThrow("verify mode runs the change's own tests, and it adds or modifies no jest test file, nor one using the test helpers or data it changes")
})
