/** Writes `<out>/report.json`, `<out>/report.md` and `<out>/suite/` (the test files at their repo paths). */
import { mkdir, rm, writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import type { SuiteFile } from '../domain.js'
import { writeSuiteFiles } from '../suite/write.js'
import { renderMarkdown } from './markdown.js'
import type { Report } from './report.js'

export interface ReportPaths {
  json: string
  markdown: string
  suiteDir: string
}

export async function writeReport(outDir: string, report: Report, suiteFiles: SuiteFile[]): Promise<ReportPaths> {
  const paths = { json: join(outDir, 'report.json'), markdown: join(outDir, 'report.md'), suiteDir: join(outDir, 'suite') }
  await mkdir(outDir, { recursive: true })
  await rm(paths.suiteDir, { recursive: true, force: true })
  await mkdir(paths.suiteDir, { recursive: true })
  await writeSuiteFiles(paths.suiteDir, suiteFiles)
  await writeFile(paths.json, JSON.stringify(report, null, 2) + '\n')
  await writeFile(paths.markdown, renderMarkdown(report))
  return paths
}
