/** Runs the bundled action (dist/index.js) as a runner does: INPUT_* variables, an event file, output files. */
import { execFile } from 'node:child_process'
import { existsSync } from 'node:fs'
import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { promisify } from 'node:util'
import type { Report } from '../../src/report/report.js'

const root = join(new URL('.', import.meta.url).pathname, '..', '..')

export interface ActionRun {
  runnerTemp: string
  code: number
  stdout: string
  outputs: string
  summary: string
  report: Report | null
}

export interface ActionRunOptions {
  event: string
  payload: object
  workspace: string
  inputs?: Record<string, string>
  env?: Record<string, string>
  /** The runner's temp folder, emptied first: a later job on a fresh runner of the same image gets the same path. */
  runnerTemp?: string
}

export async function runBundledAction(options: ActionRunOptions): Promise<ActionRun> {
  const runnerTemp = options.runnerTemp ?? (await mkdtemp(join(tmpdir(), 'rtg-runner-')))
  await rm(runnerTemp, { recursive: true, force: true })
  await mkdir(runnerTemp, { recursive: true })
  const files = { event: join(runnerTemp, 'event.json'), output: join(runnerTemp, 'output'), summary: join(runnerTemp, 'summary.md') }
  await writeFile(files.event, JSON.stringify(options.payload))
  await Promise.all([writeFile(files.output, ''), writeFile(files.summary, '')])
  const inputs = Object.fromEntries(Object.entries(options.inputs ?? {}).map(([name, value]) => [`INPUT_${name.toUpperCase()}`, value]))
  const env = {
    PATH: process.env.PATH,
    HOME: process.env.HOME,
    GITHUB_EVENT_NAME: options.event,
    GITHUB_EVENT_PATH: files.event,
    GITHUB_WORKSPACE: options.workspace,
    GITHUB_OUTPUT: files.output,
    GITHUB_STEP_SUMMARY: files.summary,
    GITHUB_REPOSITORY: 'acme/transport',
    RUNNER_TEMP: runnerTemp,
    ...inputs,
    ...options.env
  }
  const result = await promisify(execFile)(process.execPath, [join(root, 'dist/index.js')], { env }).then(
    ({ stdout }) => ({ code: 0, stdout }),
    (error: { code: number; stdout: string }) => ({ code: error.code, stdout: error.stdout })
  )
  const reportPath = join(runnerTemp, 'regression-testgen', 'report.json')
  return {
    runnerTemp,
    ...result,
    outputs: await readFile(files.output, 'utf8'),
    summary: await readFile(files.summary, 'utf8'),
    report: existsSync(reportPath) ? (JSON.parse(await readFile(reportPath, 'utf8')) as Report) : null
  }
}
