/** The context stage: what the model may see and call, and how a new test must look and import. */
import type { ChangeSet, ChangedFile, ContextPack, SourceContext, StyleExample } from '../domain.js'
import type { FrameworkAdapter } from '../frameworks/adapter.js'
import type { GitCommands } from '../ports/git.js'
import { sourceFiles } from '../diff/change-set.js'
import { excerptsFor, exportedNames } from './functions.js'
import { importSpecifier, importStyleOf } from './imports.js'
import { pythonModuleName } from './python-imports.js'
import { layoutFor, nearestTest } from './test-layout.js'

const STYLE_EXAMPLE_LIMIT = 8_000

export async function buildContext(changeSet: ChangeSet, git: GitCommands, framework: FrameworkAdapter): Promise<ContextPack> {
  const sources = sourceFiles(changeSet).filter((file) => file.status !== 'deleted')
  const headFiles = await git.listFiles(changeSet.head)
  const fixTests = new Set(changeSet.files.filter((file) => file.role === 'test').map((file) => file.path))
  // The style example comes from tests that existed before the PR: the fix's own tests may be what we replace.
  const existingTests = headFiles.filter((file) => framework.isTestFile(file) && !fixTests.has(file))
  const primary = sources[0]?.path ?? ''
  const layout = layoutFor(nearestTest(existingTests, primary), primary)
  const styleExample = await readStyleExample(git, changeSet.head, layout.styleExample)
  const style = importStyleOf(styleExample?.content ?? null, await packageType(git, changeSet.head))
  const headFileSet = new Set(headFiles)
  // Python imports by module name from the import root; JavaScript by a path relative to the regression folder.
  const importOf = (path: string) =>
    path.endsWith('.py') ? pythonModuleName(path, (file) => headFileSet.has(file), styleExample ? [styleExample.content] : []) : importSpecifier(layout.regressionDir, path, style)
  return {
    sources: await Promise.all(sources.map((file) => sourceContext(file, changeSet, git, importOf))),
    styleExample,
    regressionDir: layout.regressionDir,
    testFileSuffix: layout.testFileSuffix,
    framework: framework.name,
    moduleSystem: style.moduleSystem,
    language: primary.endsWith('.py') ? 'python' : /\.[cm]?tsx?$/.test(primary) ? 'typescript' : 'javascript'
  }
}

async function sourceContext(file: ChangedFile, changeSet: ChangeSet, git: GitCommands, importOf: (path: string) => string): Promise<SourceContext> {
  const headContent = (await git.fileAt(changeSet.head, file.path)) ?? ''
  const baseContent = file.basePath ? await git.fileAt(changeSet.mergeBase, file.basePath) : null
  return {
    path: file.path,
    head: excerptsFor(headContent, file.hunks.flatMap((hunk) => hunk.addedLines.length ? hunk.addedLines : [hunk.head.start])),
    base: baseContent === null ? [] : excerptsFor(baseContent, file.hunks.flatMap((hunk) => hunk.removedLines.length ? hunk.removedLines : [hunk.base.start])),
    exports: exportedNames(headContent),
    diff: file.hunks.map((hunk) => hunk.text).join('\n'),
    importSpecifier: importOf(file.path)
  }
}

async function readStyleExample(git: GitCommands, head: string, path: string | null): Promise<StyleExample | null> {
  if (!path) return null
  const content = (await git.fileAt(head, path)) ?? ''
  return { path, content: content.length > STYLE_EXAMPLE_LIMIT ? `${content.slice(0, STYLE_EXAMPLE_LIMIT)}\n// … (truncated)` : content }
}

async function packageType(git: GitCommands, head: string): Promise<string | undefined> {
  try {
    return JSON.parse((await git.fileAt(head, 'package.json')) ?? '{}').type
  } catch {
    return undefined
  }
}
