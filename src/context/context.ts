/**
 * The context stage: what the model may see and call, and how a new test must look and import. All of it
 * within CONTEXT_BUDGET characters (see budget.ts), from a bounded amount of text read (see read.ts).
 */
import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import type { BugReport, ChangeSet, ChangedFile, CodeExcerpt, ContextPack, RebasedImport, RelatedModule, SourceContext, StyleExample } from '../domain.js'
import type { FrameworkAdapter } from '../frameworks/adapter.js'
import type { GitCommands } from '../ports/git.js'
import { sourceFiles } from '../diff/change-set.js'
import { classifyFile } from '../diff/classify.js'
import { allot, Budget, CONTEXT_BUDGET, LARGE_MODULE_CODE, OUTLINE_LIMIT, PIECE_OVERHEAD, RELATED_RESERVE, RENDERING_RESERVE, STYLE_EXAMPLE_LIMIT } from './budget.js'
import { exportedNames, exportStatementLines, planExcerpts, WHOLE_FILE, WHOLE_FILE_LIMIT, type ExcerptPlan } from './functions.js'
import { diffSize, diffText, showHunks } from './hunks.js'
import { importSpecifier, importSpellings, importStyleOf } from './imports.js'
import { readRuntimeFacts } from './runtime-facts.js'
import { importedModuleNames, pythonModuleName } from './python-imports.js'
import { boundedReader, type FileReader } from './read.js'
import { capNames, filesNamedIn, rebaseImports, relatedModules, relativeImports, resolveImport } from './related.js'
import { UNKNOWN_COLLECTION, type Collection } from './collection.js'
import { collectedLayout, layoutFor, styleExampleTest, suiteStem } from './test-layout.js'
import { manifestType, moduleSuffix, nearestPackageType } from './test-extension.js'
import { calledNames, definitionLines } from './callees.js'
import { testsNamingTheChange } from './test-excerpts.js'
import { commandLineEntries, waysIn, withExampleSources } from './way-in.js'

/** Changed source files shown; a fix touching more names the rest. */
const MAX_SOURCES = 12
/** Per changed file: its hunks, its changed code after the fix (the rule in budget.ts), and before it. */
const DIFF_LIMIT = 24_000
const HEAD_LIMIT = Math.max(WHOLE_FILE_LIMIT, LARGE_MODULE_CODE + OUTLINE_LIMIT) + PIECE_OVERHEAD
const BASE_LIMIT = 16_000
/** Below this share, a file's part is cut to nothing rather than to a stub. */
const MIN_FILE_SHARE = 2_000

export interface ContextOptions {
  bugReport?: BugReport | null
  /** Which files the repository's test command collects. */
  collection?: Collection
  /** The package folder the tests run in ('' for the root): its package.json names the package entry. */
  packageDir?: string
  /** What ran the repository's tests here (RunResult.runtime), when a run said so. */
  testRuntime?: string | null
}

/** What ran the repository's tests here, as the context states it (none when no run said). */
export const testRuntimeFacts = (testRuntime: string | null): string[] => (testRuntime ? [`${testRuntime} runs the tests.`] : [])

export async function buildContext(changeSet: ChangeSet, git: GitCommands, framework: FrameworkAdapter, options: ContextOptions = {}): Promise<ContextPack> {
  const { bugReport = null, collection = UNKNOWN_COLLECTION, packageDir = '', testRuntime = null } = options
  const reader = boundedReader(git)
  const budget = new Budget(CONTEXT_BUDGET - RENDERING_RESERVE)
  const sources = sourceFiles(changeSet).filter((file) => file.status !== 'deleted')
  const headFiles = await git.listFiles(changeSet.head)
  const headFileSet = new Set(headFiles)
  // The style example is a test as it was before the PR: a test the fix changed is the most relevant one,
  // and its pre-fix version does not give away the fix's own new tests.
  const fixTests = changeSet.files.filter((file) => file.role === 'test')
  const changedBefore = new Map(fixTests.filter((file) => file.basePath && file.status !== 'added').map((file) => [file.path, file.basePath!]))
  const primary = sources[0]?.path ?? ''
  // Where the repository's own test command will collect the suite once copied in (see collection.ts).
  const example = await styleExampleTest(fixTests, headFiles, primary, {
    isTestFile: (path) => framework.isTestFile(path),
    collects: (path) => collection.collects(path),
    importsChangedCode: (path) => importsAny(reader, changeSet.head, path, sources.map((file) => file.path), headFileSet)
  })
  const usual = layoutFor(example, primary)
  const stem = suiteStem(bugReport, changeSet.head)
  const firstLayout = collectedLayout(usual, stem, (path) => collection.collects(path))
  const examplePath = firstLayout.styleExample
  const [styleExample, type] = await Promise.all([
    !examplePath ? null : readStyleExample(reader, examplePath, changedBefore.has(examplePath) ? { commit: changeSet.mergeBase, path: changedBefore.get(examplePath)! } : null, changeSet.head, changedNames(sources)),
    packageType(reader, changeSet.head)
  ])
  // The extension an ES module test needs where the repository's own tests have it (test-extension.ts).
  const style = importStyleOf(styleExample?.content ?? null, type)
  const testFiles = headFiles.filter((file) => framework.isTestFile(file))
  const suffix = moduleSuffix(firstLayout.testFileSuffix, { moduleSystem: style.moduleSystem, packageType: await nearestPackageType(firstLayout.regressionDir, headFileSet, (path) => reader.text(changeSet.head, path)), testFiles })
  const layout = suffix === firstLayout.testFileSuffix ? firstLayout : collectedLayout({ ...usual, testFileSuffix: suffix }, stem, (path) => collection.collects(path))
  const styleImports = styleExample ? rebaseImports(styleExample.path, styleExample.content, layout.regressionDir) : []
  budget.spend(styleCost(styleExample, styleImports))
  // Python imports by module name from the import root; JavaScript by a path relative to the regression folder.
  const importOf = (path: string) =>
    path.endsWith('.py') ? pythonModuleName(path, (file) => headFileSet.has(file), styleExample ? [styleExample.content] : []) : importSpecifier(layout.regressionDir, path, style)
  // The changed code first, leaving a reserve for the modules around it.
  const shown = await sourceContexts(sources, changeSet, reader, importOf, budget.remaining - RELATED_RESERVE)
  budget.spend(shown.reduce((sum, source) => sum + sourceCost(source), 0))
  const commandLines = await commandLineEntries(shown.map((source) => source.path), { reader, head: changeSet.head, packageDir })
  const spellings = (path: string) => (path.endsWith('.py') ? [importOf(path)] : importSpellings(layout.regressionDir, path, style))
  const wayIn = { files: headFileSet, reader, head: changeSet.head, styleExample, styleImports, packageDir, importOf, spellings, commandLines }
  const imports = await waysIn(
    shown.map((source) => source.path),
    wayIn
  )
  const language = primary.endsWith('.py') ? 'python' : /\.[cm]?tsx?$/.test(primary) ? 'typescript' : 'javascript'
  // The API the repository's tests reach the code through: its names are listed in the conventions.
  const exampleImports = await withExampleSources(wayIn)
  budget.spend(exampleImports.reduce((sum, entry) => sum + namesCost(entry.source?.exports ?? []), 0))
  return {
    sources: shown.map((source) => (commandLines.has(source.path) ? { ...source, commandLine: true } : source)),
    imports,
    styleExample,
    styleImports: exampleImports,
    related: await markCommandLines({ reader, head: changeSet.head, packageDir }, await relatedModules(
      sources.map((file) => file.path),
      imports.flatMap(({ module, through }) => (through ? [{ module, entry: through }] : [])),
      namedSources(bugReport, headFiles, changeSet, framework),
      { files: headFileSet, reader, head: changeSet.head, importOf, budget, changedCode: (path) => changedCode(shown, path) }
    )),
    regressionDir: layout.regressionDir,
    testFileSuffix: layout.testFileSuffix,
    framework: framework.name,
    frameworkVersion: installedVersion(git.repoDir, framework.name),
    moduleSystem: style.moduleSystem,
    language,
    runtime: [...testRuntimeFacts(testRuntime), ...(await readRuntimeFacts(reader, changeSet.head, headFileSet, framework.name, language))]
  }
}

/** Related modules that are command-line entries are marked: no test imports them. */
async function markCommandLines(source: Parameters<typeof commandLineEntries>[1], modules: RelatedModule[]): Promise<RelatedModule[]> {
  const commandLines = await commandLineEntries(modules.map((module) => module.path), source)
  return modules.map((module) => (commandLines.has(module.path) ? { ...module, commandLine: true } : module))
}

/** A changed file being shown: its context so far, and its code after and before the fix, worked out once. */
interface SourceDraft {
  file: ChangedFile
  context: SourceContext
  head: ExcerptPlan | null
  base: ExcerptPlan | null
  /** The size of a head version too large to read: the file is shown by its hunks. */
  unreadSize: number | null
  /** The diff was cut to its share: the code before the fix then shows what it lost. */
  diffCut: boolean
}

/**
 * The changed files within `allowance`: every file's name, import and exports, then all hunks, then the
 * changed code after the fix, then before it; each part shared among the files, each capped per file.
 */
async function sourceContexts(files: ChangedFile[], changeSet: ChangeSet, reader: FileReader, importOf: (path: string) => string, allowance: number): Promise<SourceContext[]> {
  const drafts = await Promise.all(files.slice(0, MAX_SOURCES).map((file) => draftSource(file, changeSet, reader, importOf)))
  const budget = new Budget(allowance)
  const shown = drafts.filter((draft) => budget.claim(headingCost(draft.context)))
  share(budget, shown, DIFF_LIMIT, (draft) => diffSize(draft.file.hunks) + PIECE_OVERHEAD, (draft, allowance) => {
    draft.diffCut = diffSize(draft.file.hunks) > allowance - PIECE_OVERHEAD
    draft.context.diff = withUnreadNote(draft, showHunks(draft.file.hunks, allowance - PIECE_OVERHEAD))
    return draft.context.diff.length + PIECE_OVERHEAD
  })
  share(budget, shown, HEAD_LIMIT, (draft) => draft.head?.cost ?? 0, (draft, allowance) => excerptsCost((draft.context.head = draft.head!.show(allowance))))
  // With the whole diff and the code after the fix, the code before it adds nothing: beside the whole file
  // it is not rendered, so it costs nothing and is kept as it always was (a file under the read limit, so
  // bounded); beside parts of the file it is left out.
  const showsBase = (draft: SourceDraft) => draft.base !== null && !isWhole(draft.context.head) && draft.diffCut
  share(budget, shown.filter(showsBase), BASE_LIMIT, (draft) => draft.base!.cost, (draft, allowance) => excerptsCost((draft.context.base = draft.base!.show(allowance))))
  for (const draft of shown.filter((draft) => draft.base !== null && isWhole(draft.context.head))) draft.context.base = draft.base!.show(Infinity)
  const contexts = shown.map((draft) => draft.context)
  noteLeftOut(contexts, files.filter((file) => !contexts.some((context) => context.path === file.path)))
  return contexts
}

async function draftSource(file: ChangedFile, changeSet: ChangeSet, reader: FileReader, importOf: (path: string) => string): Promise<SourceDraft> {
  // Both asked for before either is awaited: the reader admits reads in the order they are asked for.
  const [head, baseContent] = await Promise.all([reader.read(changeSet.head, file.path), file.basePath ? reader.text(changeSet.mergeBase, file.basePath) : null])
  // A missing file reads as empty, as before; one too large to read is shown by its hunks.
  const headContent = head.content ?? (head.size === null ? '' : null)
  // When a module exports more names than are listed, those the diff uses come first.
  const exports = headContent === null ? [] : capNames(exportedNames(headContent), () => diffText(file.hunks))
  const context: SourceContext = { path: file.path, head: [], base: [], exports, diff: '', importSpecifier: importOf(file.path), addedByFix: file.status === 'added' }
  // Shown by parts, a file also shows how it exports itself (the API a test calls), the definitions in it
  // that its changed lines call (one level deep, nested ones too), and an outline of the rest.
  const called = calledNames(diffText(file.hunks))
  const alsoShown = (lines: readonly string[]) => [...exportStatementLines(lines), ...definitionLines(lines, called, { nested: true })]
  const headPlan = headContent === null ? null : planExcerpts(headContent, file.hunks.flatMap((hunk) => (hunk.addedLines.length ? hunk.addedLines : [hunk.head.start])), alsoShown, { outline: true })
  // A large function before the fix is the diff's other side, shown again at length.
  const showBase = baseContent !== null && headPlan !== null && headPlan.codeSize <= WHOLE_FILE_LIMIT
  const basePlan = showBase ? planExcerpts(baseContent, file.hunks.flatMap((hunk) => (hunk.removedLines.length ? hunk.removedLines : [hunk.base.start]))) : null
  return { file, context, head: headPlan, base: basePlan, unreadSize: headContent === null ? head.size : null, diffCut: false }
}

/** Shares what `budget` has left among the drafts, each capped at `limit`: `show` fills a draft's part and says what it cost. */
function share(budget: Budget, drafts: SourceDraft[], limit: number, demand: (draft: SourceDraft) => number, show: (draft: SourceDraft, allowance: number) => number): void {
  const wanted = drafts.map((draft) => Math.min(limit, demand(draft)))
  const shares = allot(wanted, budget.remaining, MIN_FILE_SHARE)
  drafts.forEach((draft, i) => {
    if (wanted[i] > 0) budget.spend(show(draft, Math.min(shares[i], budget.remaining)))
  })
}

function withUnreadNote(draft: SourceDraft, diff: string): string {
  return draft.unreadSize === null ? diff : `[${draft.file.path} is ${draft.unreadSize} bytes, too large to read: shown by its hunks only]\n${diff}`
}

/** Changed files not shown are named at the end of the last one's diff, so the model knows they exist. */
function noteLeftOut(contexts: SourceContext[], leftOut: ChangedFile[]): void {
  const last = contexts[contexts.length - 1]
  if (!last || leftOut.length === 0) return
  const names = leftOut.slice(0, 10).map((file) => file.path.slice(0, 200))
  last.diff += `\n[… ${leftOut.length} more changed source files left out: ${names.join(', ')}${leftOut.length > names.length ? ', …' : ''}]`
}

/** A changed file's code after the fix as shown: its changed functions (or the whole file), and its hunks' lines at head. */
function changedCode(shown: SourceContext[], path: string): string {
  const source = shown.find((entry) => entry.path === path)
  if (!source) return ''
  // Not the hunk headers (their function context may be any line) nor the removed lines.
  const hunkLines = source.diff.split('\n').filter((line) => !line.startsWith('@@') && !line.startsWith('-'))
  return [...hunkLines, ...source.head.map((excerpt) => excerpt.code)].join('\n')
}

const isWhole = (excerpts: CodeExcerpt[]) => excerpts.length === 1 && excerpts[0].name === WHOLE_FILE
const excerptsCost = (excerpts: CodeExcerpt[]) => excerpts.reduce((sum, excerpt) => sum + excerpt.code.length + excerpt.name.length + PIECE_OVERHEAD, 0)
const namesCost = (names: string[]) => names.reduce((sum, name) => sum + name.length + 4, 0)

/** A file's heading, exports line and import convention: its path three times. */
const headingCost = (source: SourceContext) => 3 * source.path.length + source.importSpecifier.length + namesCost(source.exports) + 2 * PIECE_OVERHEAD

/** What a changed file costs as rendered (its code before the fix is not rendered beside the whole file). */
function sourceCost(source: SourceContext): number {
  return headingCost(source) + source.diff.length + PIECE_OVERHEAD + excerptsCost(source.head) + (isWhole(source.head) ? 0 : excerptsCost(source.base))
}

function styleCost(example: StyleExample | null, imports: RebasedImport[]): number {
  if (!example) return PIECE_OVERHEAD
  return example.content.length + example.path.length + imports.reduce((sum, entry) => sum + entry.original.length + entry.rebased.length + 10, 0) + 2 * PIECE_OVERHEAD
}

/** Source files the bug report names, other than the changed ones (shown already). */
function namedSources(bugReport: BugReport | null, headFiles: string[], changeSet: ChangeSet, framework: FrameworkAdapter): string[] {
  if (!bugReport) return []
  const changed = new Set(changeSet.files.map((file) => file.path))
  const sources = headFiles.filter((file) => classifyFile(file) === 'source' && !framework.isTestFile(file) && !changed.has(file))
  return filesNamedIn(`${bugReport.title}\n${bugReport.body}`, sources)
}

/** Whether a test imports any of `modules`: by a relative path (JavaScript), or by module name (Python). */
async function importsAny(reader: FileReader, head: string, testPath: string, modules: string[], files: ReadonlySet<string>): Promise<boolean> {
  const content = (await reader.text(head, testPath)) ?? ''
  if (testPath.endsWith('.py')) {
    const imported = importedModuleNames(content)
    return modules.some((module) => module.endsWith('.py') && imported.has(pythonModuleName(module, (file) => files.has(file))))
  }
  return relativeImports(content).some((specifier) => modules.includes(resolveImport(testPath, specifier, files) ?? ''))
}

/**
 * The example at `path` — as the fix found it when the fix changed it (`beforeFix`: where, maybe under
 * another name), else at head. A long one by its head and the tests naming the changed code (`names`),
 * else cut at a blank line, so no test is shown half-written.
 */
async function readStyleExample(reader: FileReader, path: string, beforeFix: { commit: string; path: string } | null, head: string, names: string[]): Promise<StyleExample> {
  const from = beforeFix ?? { commit: head, path }
  const changed = beforeFix ? { changedByFix: true } : {}
  const content = (await reader.text(from.commit, from.path)) ?? ''
  const byParts = testsNamingTheChange(content, names, STYLE_EXAMPLE_LIMIT)
  if (byParts !== null) return { path, content: byParts, ...changed }
  // Room kept for the note saying what is left out.
  const cut = content.lastIndexOf('\n\n', STYLE_EXAMPLE_LIMIT - 80)
  const shown = content.slice(0, cut > 0 ? cut : STYLE_EXAMPLE_LIMIT - 80)
  // Where the rest starts (past the blank line it was cut at, or the line cut through), so a model that can
  // read asks for exactly that.
  const next = shown.split('\n').length + (cut > 0 ? 2 : 0)
  const total = content.split('\n').length - (content.endsWith('\n') ? 1 : 0)
  return { path, content: `${shown}\n\n… (lines ${next}-${total} of the file are left out)`, ...changed }
}

/**
 * The names the fix's changed lines call, and those its hunks declare (with their context lines and
 * headers: the functions the changes are in): what a test of the changed code names.
 */
function changedNames(files: ChangedFile[]): string[] {
  const text = files.map((file) => diffText(file.hunks)).join('\n')
  const changedLines = text.split('\n').filter((line) => /^[+-]/.test(line)).join('\n')
  // Around the changes only functions and classes: a local variable there names nothing a test calls.
  const declared = [...text.matchAll(/\b(?:function\*?|def|class)\s+([A-Za-z_$][\w$]*)/g), ...changedLines.matchAll(/\b(?:const|let|var)\s+([A-Za-z_$][\w$]*)/g)].map((match) => match[1])
  return [...new Set([...declared, ...calledNames(changedLines)])]
}

/** The version of the framework installed in the repository (JavaScript runners), for the model's API choices. */
function installedVersion(repoDir: string, framework: string): string | null {
  try {
    return JSON.parse(readFileSync(join(repoDir, 'node_modules', framework, 'package.json'), 'utf8')).version ?? null
  } catch {
    return null
  }
}

async function packageType(reader: FileReader, head: string): Promise<string | undefined> {
  return manifestType(await reader.text(head, 'package.json'))
}
