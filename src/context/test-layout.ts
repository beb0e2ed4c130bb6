/** Where this repository keeps its tests, which one shows its style, and where a regression suite goes. */
import { basename, dirname, extname, posix } from 'node:path'

const TEST_FOLDER = /^(?:test|tests|__tests__|spec|specs)$/

export interface TestLayout {
  styleExample: string | null
  regressionDir: string
  testFileSuffix: string
}

/** The existing test that best matches a module: same base name, then the closest folder. */
export function nearestTest(testFiles: string[], sourcePath: string): string | null {
  const stem = moduleStem(sourcePath)
  const scored = testFiles.map((file) => ({ file, score: similarity(file, sourcePath, stem) }))
  scored.sort((a, b) => b.score - a.score || a.file.length - b.file.length || a.file.localeCompare(b.file))
  return scored[0]?.file ?? null
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
  return /(\.(?:test|spec)\.[cm]?[jt]sx?)$/.exec(testFile)?.[1] ?? (testFile.endsWith('.py') ? '.py' : null)
}

function defaultSuffix(sourceExtension: string): string {
  if (sourceExtension === '.py') return '.py'
  return sourceExtension.startsWith('.t') || sourceExtension.startsWith('.mt') || sourceExtension.startsWith('.ct') ? '.test.ts' : '.test.js'
}
