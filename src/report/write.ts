/**
 * Writes `<out>/report.json`, `<out>/report.md`, `<out>/suite/` (the test files at their repo paths) and,
 * when the fix may be incomplete, `<out>/concerns/` (the tests that show it, at their repo paths).
 */
import { mkdir, rm, writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import type { SuiteFile } from '../domain.js'
import { writeSuiteFiles } from '../suite/write.js'
import { boundedMarkdown, REPORT_LIMIT, WHOLE_REPORT } from './bounded.js'
import { renderMarkdown } from './markdown.js'
import type { Report } from './report.js'

export interface ReportPaths {
  json: string
  markdown: string
  suiteDir: string
  /** The confirmed fix concerns' tests; null: none. */
  concernsDir: string | null
}

export async function writeReport(outDir: string, report: Report, suiteFiles: SuiteFile[], concernFiles: SuiteFile[] = []): Promise<ReportPaths> {
  const concernsDir = join(outDir, 'concerns')
  const paths = { json: join(outDir, 'report.json'), markdown: join(outDir, 'report.md'), suiteDir: join(outDir, 'suite'), concernsDir: concernFiles.length ? concernsDir : null }
  await mkdir(outDir, { recursive: true })
  await rm(paths.suiteDir, { recursive: true, force: true })
  await mkdir(paths.suiteDir, { recursive: true })
  await writeSuiteFiles(paths.suiteDir, suiteFiles)
  // Never mixed with the suite: these tests fail at head, on what the fix may still get wrong.
  await rm(concernsDir, { recursive: true, force: true })
  if (concernFiles.length) {
    await mkdir(concernsDir, { recursive: true })
    await writeSuiteFiles(concernsDir, concernFiles)
  }
  await writeFile(paths.json, JSON.stringify(report, null, 2) + '\n')
  // Capped, as the job summary it becomes is: report.json holds it all.
  await writeFile(paths.markdown, boundedMarkdown(renderMarkdown(report), REPORT_LIMIT, WHOLE_REPORT))
  return paths
}
