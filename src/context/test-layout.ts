/** Where this repository keeps its tests, which one shows its style, and where a regression suite goes. */
import { basename, dirname, extname, posix } from 'node:path'
import type { BugReport, ChangedFile } from '../domain.js'

const TEST_FOLDER = /^(?:test|tests|__tests__|spec|specs)$/

export interface TestLayout {
  styleExample: string | null
  regressionDir: string
  testFileSuffix: string
}

/**
 * The repository's test that best shows how its tests look and run, for the change's first source file: a
 * test the fix changed that existed before it (the most relevant), else the nearest test it left alone.
 */
export function exampleTest(changedTests: ChangedFile[], headFiles: string[], isTestFile: (path: string) => boolean, primarySource: string): string | null {
  const changed = changedTests.filter((file) => isTestFile(file.path))
  // A test the fix deleted is no example: it is not there at head to run.
  const existedBefore = changed.filter((file) => file.basePath && file.status !== 'added' && file.status !== 'deleted').map((file) => file.path)
  const changedPaths = new Set(changed.map((file) => file.path))
  const untouched = headFiles.filter((file) => isTestFile(file) && !changedPaths.has(file))
  return nearestTest(existedBefore, primarySource) ?? nearestTest(untouched, primarySource)
}

/** The existing test that best matches a module: same base name, then the closest folder. */
export function nearestTest(testFiles: string[], sourcePath: string): string | null {
  return rankedTests(testFiles, sourcePath)[0] ?? null
}

/** Tests from the best match for a module to the worst. */
export function rankedTests(testFiles: string[], sourcePath: string): string[] {
  const stem = moduleStem(sourcePath)
  const scored = testFiles.map((file) => ({ file, score: similarity(file, sourcePath, stem) }))
  scored.sort((a, b) => b.score - a.score || a.file.length - b.file.length || a.file.localeCompare(b.file))
  return scored.map((entry) => entry.file)
}

/** How many of the nearest tests are read to find one that imports the changed module. */
const TESTS_READ = 12

/**
 * The style example: a test the fix changed that existed before it; else, of the nearest tests the
 * repository's test command collects (a helper module in a test folder is not one), the first that
 * already imports the changed code; else the nearest.
 */
export async function styleExampleTest(
  changedTests: ChangedFile[],
  headFiles: string[],
  primarySource: string,
  test: { isTestFile: (path: string) => boolean; collects: (path: string) => boolean | null; importsChangedCode: (path: string) => Promise<boolean> }
): Promise<string | null> {
  const isTestFile = (path: string) => test.isTestFile(path) && test.collects(path) !== false
  const changed = exampleTest(changedTests, [], isTestFile, primarySource)
  if (changed) return changed
  const changedPaths = new Set(changedTests.map((file) => file.path))
  const untouched = headFiles.filter((file) => test.isTestFile(file) && !changedPaths.has(file))
  const collected = untouched.filter(isTestFile)
  const ranked = rankedTests(collected.length ? collected : untouched, primarySource)
  const nearest = ranked.slice(0, TESTS_READ)
  const imports = await Promise.all(nearest.map((path) => test.importsChangedCode(path)))
  return nearest[imports.indexOf(true)] ?? ranked[0] ?? null
}

function similarity(testFile: string, sourcePath: string, stem: string): number {
  const testParts = dirname(testFile).split('/').filter((part) => !TEST_FOLDER.test(part))
  // `test/transport.test.ts` or `__tests__/response/redirect.js` for `lib/response.js`.
  const sameName = moduleStem(testFile) === stem ? 100 : testParts.includes(stem) ? 60 : basename(testFile).includes(stem) ? 50 : 0
  const sourceParts = dirname(sourcePath).split('/')
  const shared = sourceParts.filter((part) => testParts.includes(part)).length
  return sameName + shared * 5 - testParts.length
}

/** `src/streaming-transport.ts` → `streaming-transport`; `test/x.test.ts` → `x`; `test_x.py` → `x`. */
export function moduleStem(path: string): string {
  return basename(path)
    .replace(/\.(?:test|spec)(?=\.)/, '')
    .replace(extname(path), '')
    .replace(/^test_|_test$/, '')
}

/** The regression folder sits in the repo's test area, beside the style example's tests. */
export function layoutFor(styleExample: string | null, sourcePath: string): TestLayout {
  const language = extname(sourcePath)
  if (!styleExample) return { styleExample, regressionDir: 'test/regression', testFileSuffix: defaultSuffix(language) }
  const parts = dirname(styleExample).split('/')
  const testRoot = parts.findIndex((part) => TEST_FOLDER.test(part))
  const area = testRoot >= 0 ? parts.slice(0, testRoot + 1).join('/') : dirname(styleExample)
  return {
    styleExample,
    regressionDir: posix.join(area === '.' ? '' : area, 'regression'),
    testFileSuffix: suffixOf(styleExample) ?? defaultSuffix(language)
  }
}

function suffixOf(testFile: string): string | null {
  return /(\.(?:test|spec)\.[cm]?[jt]sx?)$/.exec(testFile)?.[1] ?? (testFile.endsWith('.py') ? '.py' : null) ?? moduleKindSuffix(testFile)
}

/** A test named without `.test` (`test/parse.mjs`) still says its module kind: `.test.mjs`, `.test.cts`. */
function moduleKindSuffix(testFile: string): string | null {
  const kind = /\.([cm][jt]s)$/.exec(testFile)?.[1]
  return kind ? `.test.${kind}` : null
}

function defaultSuffix(sourceExtension: string): string {
  if (sourceExtension === '.py') return '.py'
  return sourceExtension.startsWith('.t') || sourceExtension.startsWith('.mt') || sourceExtension.startsWith('.ct') ? '.test.ts' : '.test.js'
}

/** `issue-4471` when the report names an issue, else `fix-<short sha>`. */
export function suiteStem(report: BugReport | null, head: string): string {
  return report?.issue ? `issue-${report.issue}` : `fix-${head.slice(0, 7)}`
}

/**
 * The suite's file in `dir`: `issue-4471.test.ts` in a regression folder; beside the repository's own
 * tests the name says what it is, `regression-issue-4471.test.ts`. Python: `test_[regression_]issue_4471.py`.
 */
export function regressionFileName(dir: string, stem: string, suffix: string): string {
  const name = posix.basename(dir) === 'regression' ? stem : `regression-${stem}`
  return posix.join(dir, suffix === '.py' ? `test_${name.replace(/-/g, '_')}.py` : `${name}${suffix}`)
}

/**
 * The layout whose suite file the repository's own test command collects (`collects` answers true, or null
 * when its rules are unknown): the usual regression folder, else the style example's own folder, else the
 * test area's root. When none is collected, the usual one: the report then says the file is not collected.
 */
export function collectedLayout(layout: TestLayout, stem: string, collects: (path: string) => boolean | null): TestLayout {
  const candidates = [layout.regressionDir, ...(layout.styleExample ? [dirname(layout.styleExample), posix.dirname(layout.regressionDir)] : [])]
  const usable = candidates.filter((dir) => dir !== '.' && dir !== '')
  const chosen = usable.find((dir) => collects(regressionFileName(dir, stem, layout.testFileSuffix)) !== false)
  return { ...layout, regressionDir: chosen ?? layout.regressionDir }
}
