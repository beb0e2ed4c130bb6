/**
 * Verify mode's suite: the test files the change added or modified, and — when it changed a test helper
 * that holds no tests itself (a base class, `test/support/*.js`, `conftest.py`) — the test files using it.
 */
import { posix } from 'node:path'
import type { ChangeSet, SuiteFile } from '../domain.js'
import type { FrameworkAdapter } from '../frameworks/adapter.js'
import type { GitCommands } from '../ports/git.js'
import { NotApplicable } from '../errors.js'
import { relativeImports, resolveImport } from '../context/related.js'
import { escapeRegExp } from '../regexp.js'

/** `framework.isTestFile`: a test file by the framework's conventions or by the repository's own rules. */
export async function pullRequestTests(changeSet: ChangeSet, framework: Pick<FrameworkAdapter, 'name' | 'isTestFile'>, git: GitCommands): Promise<SuiteFile[]> {
  const changed = changeSet.files.filter((file) => file.role === 'test' && file.status !== 'deleted').map((file) => file.path)
  const helpers = changed.filter((path) => !framework.isTestFile(path))
  const users = helpers.length ? await testsUsing(helpers, framework, git, changeSet.head) : []
  const paths = [...new Set([...changed.filter((path) => framework.isTestFile(path)), ...users])]
  // A change to test helpers or data alone that no test file uses: nothing to run, which is no failure.
  if (paths.length === 0) throw new NotApplicable(`verify mode runs the change's own tests, and it adds or modifies no ${framework.name} test file, nor one using the test helpers or data it changes: there is nothing to verify (generate mode writes the tests)`)
  return Promise.all(paths.map(async (path) => ({ path, content: (await git.fileAt(changeSet.head, path)) ?? '', tests: [] })))
}

/**
 * The test files that import one of the helpers, sit under a changed `conftest.py` / `__init__.py`, or
 * read a changed data file (a TOML, JSON or text case that a test collects from its folder).
 */
async function testsUsing(helpers: string[], framework: Pick<FrameworkAdapter, 'isTestFile'>, git: GitCommands, head: string): Promise<string[]> {
  const files = await git.listFiles(head)
  const fileSet = new Set(files)
  const tests = files.filter((file) => framework.isTestFile(file))
  const scopes = helpers.filter((helper) => /(?:^|\/)(?:conftest|__init__)\.py$/.test(helper)).map((helper) => posix.dirname(helper))
  const contents = new Map<string, string>()
  for (const test of tests) contents.set(test, (await git.fileAt(head, test)) ?? '')
  const used = new Set<string>()
  for (const test of tests) {
    const content = contents.get(test)!
    const inScope = scopes.some((scope) => scope === '.' || test.startsWith(`${scope}/`))
    if (inScope || helpers.some((helper) => !isData(helper) && imports(test, content, helper, fileSet))) used.add(test)
  }
  for (const data of helpers.filter(isData)) for (const test of readersOf(data, contents)) used.add(test)
  return [...used]
}

const CODE = /\.(?:[cm]?[jt]sx?|py)$/
const isData = (path: string) => !CODE.test(path)

/**
 * The tests that read a data file: in a folder above it, naming the folders on the way to it as strings
 * (`Path(__file__).parent / "data" / "extras"`, `join(__dirname, 'fixtures', 'valid')`). The tests naming
 * the most of that way win; none naming even the first folder, none.
 */
function readersOf(data: string, contents: ReadonlyMap<string, string>): string[] {
  let best = 0
  let readers: string[] = []
  for (const [test, content] of contents) {
    const way = posix.relative(posix.dirname(test), data).split('/')
    if (way[0] === '..' || way.length < 2) continue
    let named = 0
    while (named < way.length - 1 && new RegExp(`['"\`/]${escapeRegExp(way[named])}['"\`/]`).test(content)) named++
    if (named === 0 || named < best) continue
    if (named > best) readers = []
    best = named
    readers.push(test)
  }
  return readers
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
