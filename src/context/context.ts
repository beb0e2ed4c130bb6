/** The context stage: what the model may see and call, and how a new test must look and import. */
import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import type { BugReport, ChangeSet, ChangedFile, ContextPack, SourceContext, StyleExample } from '../domain.js'
import type { FrameworkAdapter } from '../frameworks/adapter.js'
import type { GitCommands } from '../ports/git.js'
import { sourceFiles } from '../diff/change-set.js'
import { classifyFile } from '../diff/classify.js'
import { excerptsFor, exportedNames, exportStatementLines, WHOLE_FILE_LIMIT } from './functions.js'
import { importSpecifier, importStyleOf } from './imports.js'
import { pythonModuleName } from './python-imports.js'
import { filesNamedIn, rebaseImports, relatedModules } from './related.js'
import { layoutFor, nearestTest } from './test-layout.js'

const STYLE_EXAMPLE_LIMIT = 8_000

export async function buildContext(changeSet: ChangeSet, git: GitCommands, framework: FrameworkAdapter, bugReport: BugReport | null = null): Promise<ContextPack> {
  const sources = sourceFiles(changeSet).filter((file) => file.status !== 'deleted')
  const headFiles = await git.listFiles(changeSet.head)
  // The style example is a test as it was before the PR: a test the fix changed is the most relevant one,
  // and its pre-fix version does not give away the fix's own new tests.
  const fixTests = changeSet.files.filter((file) => file.role === 'test' && framework.isTestFile(file.path))
  const changedBefore = new Map(fixTests.filter((file) => file.basePath && file.status !== 'added').map((file) => [file.path, file.basePath!]))
  const untouched = headFiles.filter((file) => framework.isTestFile(file) && !fixTests.some((test) => test.path === file))
  const primary = sources[0]?.path ?? ''
  const layout = layoutFor(nearestTest([...changedBefore.keys()], primary) ?? nearestTest(untouched, primary), primary)
  const examplePath = layout.styleExample
  const styleExample = !examplePath
    ? null
    : await readStyleExample(git, changedBefore.has(examplePath) ? changeSet.mergeBase : changeSet.head, changedBefore.get(examplePath) ?? examplePath, examplePath)
  const style = importStyleOf(styleExample?.content ?? null, await packageType(git, changeSet.head))
  const headFileSet = new Set(headFiles)
  // Python imports by module name from the import root; JavaScript by a path relative to the regression folder.
  const importOf = (path: string) =>
    path.endsWith('.py') ? pythonModuleName(path, (file) => headFileSet.has(file), styleExample ? [styleExample.content] : []) : importSpecifier(layout.regressionDir, path, style)
  return {
    sources: await Promise.all(sources.map((file) => sourceContext(file, changeSet, git, importOf))),
    styleExample,
    styleImports: styleExample ? rebaseImports(styleExample.path, styleExample.content, layout.regressionDir) : [],
    related: await relatedModules(
      sources.map((file) => file.path),
      namedSources(bugReport, headFiles, changeSet, framework),
      { files: headFileSet, git, head: changeSet.head, importOf }
    ),
    regressionDir: layout.regressionDir,
    testFileSuffix: layout.testFileSuffix,
    framework: framework.name,
    frameworkVersion: installedVersion(git.repoDir, framework.name),
    moduleSystem: style.moduleSystem,
    language: primary.endsWith('.py') ? 'python' : /\.[cm]?tsx?$/.test(primary) ? 'typescript' : 'javascript'
  }
}

async function sourceContext(file: ChangedFile, changeSet: ChangeSet, git: GitCommands, importOf: (path: string) => string): Promise<SourceContext> {
  const headContent = (await git.fileAt(changeSet.head, file.path)) ?? ''
  const baseContent = file.basePath ? await git.fileAt(changeSet.mergeBase, file.basePath) : null
  // Shown by parts, a file also shows how it exports itself: the API a test calls.
  const head = excerptsFor(headContent, [...file.hunks.flatMap((hunk) => (hunk.addedLines.length ? hunk.addedLines : [hunk.head.start])), ...exportStatementLines(headContent)])
  // A large function before the fix is the diff's other side, shown again at length.
  const showBase = baseContent !== null && head.reduce((size, excerpt) => size + excerpt.code.length, 0) <= WHOLE_FILE_LIMIT
  return {
    path: file.path,
    head,
    base: showBase ? excerptsFor(baseContent, file.hunks.flatMap((hunk) => (hunk.removedLines.length ? hunk.removedLines : [hunk.base.start]))) : [],
    exports: exportedNames(headContent),
    diff: file.hunks.map((hunk) => hunk.text).join('\n'),
    importSpecifier: importOf(file.path)
  }
}

/** Source files the bug report names, other than the changed ones (shown already). */
function namedSources(bugReport: BugReport | null, headFiles: string[], changeSet: ChangeSet, framework: FrameworkAdapter): string[] {
  if (!bugReport) return []
  const changed = new Set(changeSet.files.map((file) => file.path))
  const sources = headFiles.filter((file) => classifyFile(file) === 'source' && !framework.isTestFile(file) && !changed.has(file))
  return filesNamedIn(`${bugReport.title}\n${bugReport.body}`, sources)
}

/** The example as of `commit`, cut at a blank line when long, so no test is shown half-written. */
async function readStyleExample(git: GitCommands, commit: string, pathThere: string, path: string): Promise<StyleExample> {
  const content = (await git.fileAt(commit, pathThere)) ?? ''
  if (content.length <= STYLE_EXAMPLE_LIMIT) return { path, content }
  const cut = content.lastIndexOf('\n\n', STYLE_EXAMPLE_LIMIT)
  return { path, content: `${content.slice(0, cut > 0 ? cut : STYLE_EXAMPLE_LIMIT)}\n\n… (the rest of the file is left out)` }
}

/** The version of the framework installed in the repository (JavaScript runners), for the model's API choices. */
function installedVersion(repoDir: string, framework: string): string | null {
  try {
    return JSON.parse(readFileSync(join(repoDir, 'node_modules', framework, 'package.json'), 'utf8')).version ?? null
  } catch {
    return null
  }
}

async function packageType(git: GitCommands, head: string): Promise<string | undefined> {
  try {
    return JSON.parse((await git.fileAt(head, 'package.json')) ?? '{}').type
  } catch {
    return undefined
  }
}
