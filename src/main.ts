/** The action: inputs → Settings → the same pipeline as the CLI → outputs, job summary, exit status. */
import * as core from '@actions/core'
import { readFile } from 'node:fs/promises'
import { getSettings } from './github/input-helper.js'
import { Outputs } from './github/constants.js'
import { describeError } from './errors.js'
import { failToPassCount } from './report/report.js'
import { runWithRealPorts } from './run.js'
import { annotationsFor, type Annotation } from './github/annotations.js'

export async function run(): Promise<void> {
  try {
    const settings = await getSettings()
    const outcome = await runWithRealPorts(settings, { info: core.info, warn: core.warning })
    const { report, paths } = outcome
    core.setOutput(Outputs.Verdict, report.verdict)
    core.setOutput(Outputs.FailToPassCount, failToPassCount(report))
    core.setOutput(Outputs.ReportPath, paths.json)
    core.setOutput(Outputs.SuitePath, paths.suiteDir)
    if (outcome.changeSet) annotate(annotationsFor(report, outcome.changeSet))
    await core.summary.addRaw(await readFile(paths.markdown, 'utf8')).write()
    if (outcome.exitCode === 0 && report.verdict !== 'fail-to-pass') core.warning(`No test fails against the pre-fix code: ${report.reason}`)
    if (outcome.exitCode !== 0) core.setFailed(`verdict ${report.verdict}${report.reason ? `: ${report.reason}` : ''}`)
  } catch (error) {
    core.setFailed(describeError(error))
  }
}

function annotate(annotations: Annotation[]): void {
  for (const { kind, file, startLine, endLine, title, message } of annotations) core[kind](message, { file, startLine, endLine, title })
}
