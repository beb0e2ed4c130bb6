/** Where the suite may go: a safe path (file-path.ts) inside the regression folder, never over an existing file. */
import { posix } from 'node:path'
import type { BugReport, ContextPack, SuiteFile } from '../domain.js'
import { regressionFileName, suiteStem } from '../context/test-layout.js'
import { unsafePathProblem } from './file-path.js'

export interface RefusedFile {
  path: string
  reason: string
}

export interface Placement {
  accepted: SuiteFile[]
  refused: RefusedFile[]
}

/** `test/regression/issue-4471.test.ts` when the report names an issue, else `…/fix-<short sha>.test.ts`. */
export function suitePathFor(report: BugReport, head: string, context: ContextPack): string {
  return regressionFileName(context.regressionDir, suiteStem(report, head), context.testFileSuffix)
}

/** pytest imports a test file as a module: its name must be one. */
const PYTHON_MODULE = /^[A-Za-z_][A-Za-z0-9_]*\.py$/

export function placeSuite(files: SuiteFile[], context: ContextPack, existingFiles: ReadonlySet<string>): Placement {
  const accepted: SuiteFile[] = []
  const refused: RefusedFile[] = []
  const taken = new Set<string>()
  for (const file of files) {
    const reason = refusal(file.path, context, existingFiles, taken)
    if (reason) refused.push({ path: file.path, reason })
    else {
      const path = posix.normalize(file.path)
      taken.add(path)
      accepted.push({ ...file, path })
    }
  }
  return { accepted, refused }
}

function refusal(path: string, context: ContextPack, existing: ReadonlySet<string>, taken: ReadonlySet<string>): string | null {
  const unsafe = unsafePathProblem(path)
  if (unsafe) return unsafe
  const normalized = posix.normalize(path)
  if (existing.has(normalized)) return 'a file already exists at that path'
  if (!normalized.startsWith(`${context.regressionDir}/`)) return `the path is outside the regression folder ${context.regressionDir}/`
  if (!normalized.endsWith(context.testFileSuffix)) return `the file name does not end in ${context.testFileSuffix}`
  if (context.testFileSuffix === '.py' && !PYTHON_MODULE.test(posix.basename(normalized))) return 'the file name is not an importable Python module name (letters, digits and _, not starting with a digit)'
  if (taken.has(normalized)) return 'the suite has two files at that path'
  return null
}
