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
import { byStage, fixtureAnswers, type StageScript } from './scripted-model.js'

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

export interface BundledRun {
  exitCode: number
  report: Report
  markdown: string
  /** What the CLI wrote to stderr, line by line. */
  log: string[]
  /** The output folder's run.log. */
  runLog: string
  /** The output folder (report.json, suite/, suite.patch). */
  outDir: string
  repo: FixtureRepo
  /** The fake model in generate mode (closed): its recorded requests. */
  model: FakeAnthropic | null
}

/**
 * The bundled CLI (dist/cli/index.js) on a fixture, as a user runs it, in its own process with a minimal
 * environment: verify mode, or generate mode (`generate`) against the fake model answering with the
 * fixture's `model/` files, without the fix's own test. Run `npm run build` first.
 */
export async function runBundledCliOnFixture(fixture: string, options: { generate?: boolean; args?: string[]; env?: NodeJS.ProcessEnv; fixtureOptions?: FixtureOptions } = {}): Promise<BundledRun> {
  const repo = await buildFixtureRepo(fixture, { withFixTest: !options.generate, ...options.fixtureOptions })
  const model = options.generate ? await startFakeAnthropic(byStage(fixtureAnswers(fixture))) : null
  const outDir = join(await mkdtemp(join(tmpdir(), 'rtg-bundled-')), 'out')
  try {
    const mode = model ? ['--issue', repo.issuePath] : ['verify']
    const args = [bundledCli, ...mode, '--repo', repo.dir, '--base', repo.base, '--head', repo.head, '--out', outDir, ...(options.args ?? [])]
    const key = model ? { ANTHROPIC_API_KEY: 'test-key', ANTHROPIC_BASE_URL: model.baseURL } : {}
    const env = { PATH: process.env.PATH, HOME: process.env.HOME, ...key, ...options.env }
    const { exitCode, stderr } = await promisify(execFile)(process.execPath, args, { env, timeout: 600_000, maxBuffer: 64 * 1024 * 1024 }).then(
      ({ stderr }) => ({ exitCode: 0, stderr }),
      (error: { code: number; stderr: string }) => ({ exitCode: error.code, stderr: error.stderr })
    )
    const report = JSON.parse(readFileSync(join(outDir, 'report.json'), 'utf8')) as Report
    if (!validateReport(report)) throw new Error(`report.json does not match its schema: ${JSON.stringify(validateReport.errors)}`)
    const read = (name: string) => readFileSync(join(outDir, name), 'utf8')
    return { exitCode, report, markdown: read('report.md'), log: stderr.split('\n'), runLog: read('run.log'), outDir, repo, model }
  } finally {
    await model?.close()
  }
}
