/**
 * Verify mode's suite: the test files the change added or modified, and — when it changed a test helper
 * that holds no tests itself (a base class, `test/support/*.js`, `conftest.py`) — the test files using it.
 */
import { posix } from 'node:path'
import type { ChangeSet, SuiteFile } from '../domain.js'
import type { FrameworkAdapter } from '../frameworks/adapter.js'
import type { GitCommands } from '../ports/git.js'
import { UserFacingError } from '../errors.js'
import { relativeImports, resolveImport } from '../context/related.js'

/** `framework.isTestFile`: a test file by the framework's conventions or by the repository's own rules. */
export async function pullRequestTests(changeSet: ChangeSet, framework: Pick<FrameworkAdapter, 'name' | 'isTestFile'>, git: GitCommands): Promise<SuiteFile[]> {
  const changed = changeSet.files.filter((file) => file.role === 'test' && file.status !== 'deleted').map((file) => file.path)
  const helpers = changed.filter((path) => !framework.isTestFile(path))
  const users = helpers.length ? await testsUsing(helpers, framework, git, changeSet.head) : []
  const paths = [...new Set([...changed.filter((path) => framework.isTestFile(path)), ...users])]
  if (paths.length === 0) throw new UserFacingError(`The change adds or modifies no ${framework.name} test file, so there is nothing to verify`)
  return Promise.all(paths.map(async (path) => ({ path, content: (await git.fileAt(changeSet.head, path)) ?? '', tests: [] })))
}

/** The test files that import one of the helpers, or sit under a changed `conftest.py` / `__init__.py`. */
async function testsUsing(helpers: string[], framework: Pick<FrameworkAdapter, 'isTestFile'>, git: GitCommands, head: string): Promise<string[]> {
  const files = await git.listFiles(head)
  const fileSet = new Set(files)
  const tests = files.filter((file) => framework.isTestFile(file))
  const scopes = helpers.filter((helper) => /(?:^|\/)(?:conftest|__init__)\.py$/.test(helper)).map((helper) => posix.dirname(helper))
  const used: string[] = []
  for (const test of tests) {
    if (scopes.some((scope) => scope === '.' || test.startsWith(`${scope}/`))) {
      used.push(test)
      continue
    }
    const content = (await git.fileAt(head, test)) ?? ''
    if (helpers.some((helper) => imports(test, content, helper, fileSet))) used.push(test)
  }
  return used
}

function imports(test: string, content: string, helper: string, files: ReadonlySet<string>): boolean {
  if (helper.endsWith('.py')) {
    const module = helper.replace(/\.py$/, '').split('/')
    // `from tests.helpers import x`, `import tests.helpers`, or the module's own name (`from helpers import x`).
    const names = module.map((_, start) => module.slice(start).join('.').replace(/\./g, '\\.'))
    return new RegExp(`^\\s*(?:from\\s+(?:${names.join('|')})\\s+import|import\\s+(?:${names.join('|')})\\b)`, 'm').test(content) ||
      new RegExp(`^\\s*from\\s+\\.+${module[module.length - 1]}\\s+import`, 'm').test(content)
  }
  return relativeImports(content).some((specifier) => resolveImport(test, specifier, files) === helper)
}
