/** Runs the CLI in-process against a fixture repository and the fake model, and reads what it wrote. */
import { Ajv } from 'ajv'
import { execFile } from 'node:child_process'
import { readFileSync } from 'node:fs'
import { promisify } from 'node:util'
import { mkdtemp } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { runCli } from '../../src/cli.js'
import type { Logger } from '../../src/ports/logger.js'
import type { Report } from '../../src/report/report.js'
import { startFakeAnthropic, type FakeAnthropic } from './fake-anthropic.js'
import { buildFixtureRepo, type FixtureOptions, type FixtureRepo } from './fixture-repo.js'
import { byStage, type StageScript } from './scripted-model.js'

const schema = JSON.parse(readFileSync(new URL('../../src/report/report.schema.json', import.meta.url), 'utf8'))
const validateReport = new Ajv({ allErrors: true, strict: false }).compile(schema)

export interface CliRun {
  exitCode: number
  report: Report
  markdown: string
  /** What the CLI logged. */
  log: string[]
  outDir: string
  repo: FixtureRepo
  model: FakeAnthropic | null
}

export interface CliRunOptions {
  fixture?: string
  fixtureOptions?: FixtureOptions
  /** Scripted model answers; omit for verify mode. */
  script?: StageScript
  args?: string[]
  env?: NodeJS.ProcessEnv
  /** The commits to pass as --base and --head (default: the fixture's base and fix); may commit more first. */
  range?: (repo: FixtureRepo) => Promise<{ base: string; head: string }>
}

/** A logger that keeps its lines (warnings and errors marked, details left out, as on a terminal). */
export function linesLogger(lines: string[]): Logger {
  return { info: (m) => lines.push(m), warn: (m) => lines.push(`warning: ${m}`), error: (m) => lines.push(`error: ${m}`), debug: () => {} }
}

export async function runCliOnFixture(options: CliRunOptions): Promise<CliRun> {
  const repo = await buildFixtureRepo(options.fixture ?? 'retry-budget', options.fixtureOptions)
  const outDir = await mkdtemp(join(tmpdir(), 'rtg-out-'))
  const model = options.script ? await startFakeAnthropic(byStage(options.script)) : null
  try {
    const mode = options.script ? [] : ['verify']
    const { base, head } = options.range ? await options.range(repo) : repo
    const args = [...mode, '--repo', repo.dir, '--base', base, '--head', head, '--out', outDir, ...(options.args ?? [])]
    const env = model ? { ANTHROPIC_API_KEY: 'test-key', ANTHROPIC_BASE_URL: model.baseURL, ...options.env } : { ...options.env }
    const log: string[] = []
    const exitCode = await runCli(args, env, linesLogger(log))
    const report = JSON.parse(readFileSync(join(outDir, 'report.json'), 'utf8')) as Report
    if (!validateReport(report)) throw new Error(`report.json does not match its schema: ${JSON.stringify(validateReport.errors)}`)
    return { exitCode, report, markdown: readFileSync(join(outDir, 'report.md'), 'utf8'), log, outDir, repo, model }
  } finally {
    await model?.close()
  }
}

const bundledCli = join(new URL('../..', import.meta.url).pathname, 'dist', 'cli', 'index.js')

/**
 * The bundled CLI (dist/cli/index.js, as users run it) in verify mode on a fixture, in its own process with
 * a minimal environment; `log` is what it wrote to stderr, line by line.
 */
export async function runBundledCliOnFixture(fixture: string, options: { args?: string[]; fixtureOptions?: FixtureOptions } = {}): Promise<Omit<CliRun, 'model'>> {
  const repo = await buildFixtureRepo(fixture, options.fixtureOptions)
  const outDir = await mkdtemp(join(tmpdir(), 'rtg-out-'))
  const args = [bundledCli, 'verify', '--repo', repo.dir, '--base', repo.base, '--head', repo.head, '--out', outDir, ...(options.args ?? [])]
  const env = { PATH: process.env.PATH ?? '', HOME: await mkdtemp(join(tmpdir(), 'rtg-home-')) }
  const { exitCode, stderr } = await promisify(execFile)(process.execPath, args, { env, timeout: 600_000, maxBuffer: 64 * 1024 * 1024 }).then(
    ({ stderr }) => ({ exitCode: 0, stderr }),
    (error: { code: number; stderr: string }) => ({ exitCode: error.code, stderr: error.stderr })
  )
  const report = JSON.parse(readFileSync(join(outDir, 'report.json'), 'utf8')) as Report
  if (!validateReport(report)) throw new Error(`report.json does not match its schema: ${JSON.stringify(validateReport.errors)}`)
  return { exitCode, report, markdown: readFileSync(join(outDir, 'report.md'), 'utf8'), log: stderr.split('\n'), outDir, repo }
}
