/**
 * Before the model writes a test: does each way into the changed code load, with the repository's own
 * runner, loader and transpiler, at head and on the pre-fix tree? One test file per import, holding only
 * that import and one empty test, runs in each tree (one runner start per tree, the two at once; at head,
 * in generate mode, the preflight's start: execute/preflight.ts); the files go again after.
 */
import type { ContextPack, ImportLine, RunResult, SuiteFile } from '../domain.js'
import type { FrameworkAdapter } from '../frameworks/adapter.js'
import { firstErrorLines } from '../frameworks/output.js'
import { regressionFileName } from '../context/test-layout.js'
import type { Logger } from '../ports/logger.js'
import { together } from '../settled.js'
import type { TestBench, TreeName } from './test-bench.js'

/** Runs that already held the check's files (at head the preflight's, in its runner start; on the pre-fix tree one started beside it). */
export interface ImportCheckRuns {
  head?: RunResult | null
  preFix?: RunResult | null
}

/** `done`: the trees whose run already held the files; the others run here, together. */
export async function checkImports(bench: TestBench, framework: FrameworkAdapter, pack: ContextPack, log: Logger, done: ImportCheckRuns = {}): Promise<ImportLine[]> {
  const files = importCheckFiles(framework, pack)
  if (files.length === 0) return pack.imports
  const [head, preFix] = await together(done.head ?? runImportCheck(bench, 'head', files), done.preFix ?? runImportCheck(bench, 'preFix', files))
  const lines = judgeImports(pack.imports, files, head, preFix)
  for (const line of lines) log.info(`Import check: ${line.module} as '${line.specifier}': ${describeLoads(line)}`)
  return lines
}

/** The check's files, run in one tree and taken out again. */
export async function runImportCheck(bench: TestBench, tree: TreeName, files: ImportTestFile[]): Promise<RunResult> {
  return (await bench.runAlone(tree, files, 'Import check'))[0]
}

/** The files the import check runs; none where the adapter has no loading test or there is no way in to check. */
export function importCheckFiles(framework: FrameworkAdapter, pack: ContextPack): ImportTestFile[] {
  return framework.loadingTest && pack.imports.length > 0 ? loadingTests(pack, framework.loadingTest) : []
}

/** One test file per distinct specifier, in the regression folder: `import-check-1.test.js`. */
export function loadingTests(pack: ContextPack, loadingTest: NonNullable<FrameworkAdapter['loadingTest']>): ImportTestFile[] {
  const specifiers = [...new Set(pack.imports.map((line) => line.specifier))]
  return specifiers.map((specifier, i) => ({
    specifier,
    path: regressionFileName(pack.regressionDir, `import-check-${i + 1}`, pack.testFileSuffix),
    content: loadingTest(importStatement(specifier, pack), usesImportSyntax(pack)),
    tests: []
  }))
}

export interface ImportTestFile extends SuiteFile {
  specifier: string
}

/** Each line with whether its file loaded in each run, and the first lines of the error where it did not. */
export function judgeImports(lines: ImportLine[], files: ImportTestFile[], head: RunResult, preFix: RunResult): ImportLine[] {
  return lines.map((line) => {
    const file = files.find((entry) => entry.specifier === line.specifier)!.path
    const [atHead, beforeFix] = [loadResult(head, file), loadResult(preFix, file)]
    const error = atHead.error ?? beforeFix.error
    return { ...line, loads: { head: atHead.loads, preFix: beforeFix.loads }, ...(error ? { error } : {}) }
  })
}

export function describeLoads({ loads }: ImportLine): string {
  const where = (loaded: boolean | null) => (loaded === null ? 'not checked' : loaded ? 'loads' : 'does not load')
  return `${where(loads.head)} at head, ${where(loads.preFix)} before the fix`
}

/** The statement that imports a specifier for its effect alone: nothing it names is used, so nothing can be unused. */
function importStatement(specifier: string, pack: ContextPack): string {
  if (pack.language === 'python') return `import ${specifier}`
  return usesImportSyntax(pack) ? `import '${specifier}'` : `require('${specifier}')`
}

const usesImportSyntax = (pack: ContextPack) => pack.language === 'typescript' || pack.moduleSystem === 'esm'

/** Loaded: the file's one test ran and passed; not: it failed, or the file could not run; null: the run said nothing of it. */
function loadResult(run: RunResult, file: string): { loads: boolean | null; error?: string } {
  const tests = run.tests.filter((test) => test.file === file)
  const fileError = run.fileErrors.find((error) => error.file === file)
  if (tests.length === 0 && !fileError) return { loads: null }
  if (!fileError && tests.every((test) => test.status === 'passed')) return { loads: true }
  return { loads: false, error: loadError(fileError?.message ?? tests.find((test) => test.message)?.message ?? '') }
}

/**
 * Why a file did not load, as the conventions quote it: the error's own line (`Error [ERR_MODULE_NOT_FOUND]: …`,
 * `SyntaxError: …`, `error TS5097: …`; Node prints the throwing source line before it), else the first lines.
 */
function loadError(message: string): string {
  const named = message.split('\n').find((line) => /(?:^|[\s/])(?:[A-Z]\w*)?Error\b[^:]*:|\bTS\d{4}\b/.test(line) && !/^\s+at /.test(line))
  return named ? firstErrorLines(named, 1) : firstErrorLines(message, 2)
}
