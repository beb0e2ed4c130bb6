/**
 * The formatters and linters a generated file can go through, one entry per tool kind: its program, the
 * arguments of its write (or fix) run, the exit codes that mean it ran, and for a linter what it still
 * reports, read from its machine-readable output (never its human one).
 */
import { posix } from 'node:path'
import type { LintMessage } from '../../domain.js'
import { parseSandboxJson } from '../../ports/sandbox-files.js'

export const PRETTIER = 'prettier'
export const BIOME = 'biome'
export const ESLINT = 'eslint'
export const RUFF = 'ruff'
export const BLACK = 'black'
export const XO = 'xo'

export type ToolKind = 'formatter' | 'linter'

export type ToolName = typeof PRETTIER | typeof BIOME | typeof ESLINT | typeof RUFF | typeof BLACK | typeof XO

/** What a linter still says about each file it checked, by the path it was given. */
export type Remaining = Map<string, LintMessage[]>

export interface ToolSpec {
  name: ToolName
  kind: ToolKind
  /** The program: a package's bin (node_modules/.bin) or a program on PATH. */
  program: string
  language: 'javascript' | 'python'
  /** Arguments of the run that rewrites the files: options carried from the repository's script first. */
  args: (options: string[], files: string[]) => string[]
  /** Exit codes that mean the tool did its work (eslint's 1: problems remain after its fixes). */
  ranCodes: number[]
  /** A linter's remaining problems, from its standard output; the paths are those it was given. */
  remaining?: (stdout: string, files: string[]) => Remaining
  /**
   * Options of the repository's own script that shape the result, carried into the run: those taking a
   * value, and flags. Everything else a script passes (its globs, `--check`, `--format`, `--cache`) is not.
   */
  carried: { withValue: string[]; flags: string[] }
}

/** `prettier --write`: the repository's configuration is found from the file, as its own run finds it. */
const prettier: ToolSpec = {
  name: PRETTIER,
  kind: 'formatter',
  program: 'prettier',
  language: 'javascript',
  args: (options, files) => [...options, '--write', '--log-level', 'warn', '--', ...files],
  ranCodes: [0],
  carried: {
    withValue: ['--config', '--ignore-path', '--plugin', '--parser', '--print-width', '--tab-width', '--trailing-comma', '--quote-props', '--arrow-parens', '--end-of-line', '--config-precedence'],
    flags: ['--no-config', '--no-editorconfig', '--single-quote', '--jsx-single-quote', '--no-semi', '--use-tabs', '--no-bracket-spacing', '--bracket-same-line']
  }
}

const biome: ToolSpec = {
  name: BIOME,
  kind: 'formatter',
  program: 'biome',
  language: 'javascript',
  args: (options, files) => ['format', ...options, '--write', ...files],
  ranCodes: [0],
  carried: { withValue: ['--config-path'], flags: [] }
}

/** `eslint --fix --format json`: one run fixes what it can, and its report lists what is left. */
const eslint: ToolSpec = {
  name: ESLINT,
  kind: 'linter',
  program: 'eslint',
  language: 'javascript',
  args: (options, files) => [...options, '--fix', '--format', 'json', '--', ...files],
  ranCodes: [0, 1],
  remaining: eslintRemaining,
  carried: {
    withValue: ['-c', '--config', '--ext', '--parser', '--parser-options', '--plugin', '--rulesdir', '--rule', '--resolve-plugins-relative-to', '--ignore-path', '--env', '--global', '--flag'],
    flags: ['--no-eslintrc', '--no-config-lookup', '--no-inline-config']
  }
}

/**
 * `biome check --write`: biome's lint fixes and its import sorting, as a biome repository's own `biome check`
 * asks for them; its formatting too, unless another formatter is the repository's (then detect.ts passes
 * `--formatter-enabled=false`). Exit 1: errors remain. Its JSON report is on stdout.
 */
const biomeLint: ToolSpec = {
  name: BIOME,
  kind: 'linter',
  program: 'biome',
  language: 'javascript',
  args: (options, files) => ['check', ...options, '--write', '--reporter=json', '--max-diagnostics=none', ...files],
  ranCodes: [0, 1],
  remaining: biomeRemaining,
  carried: { withValue: ['--config-path'], flags: [] }
}

/** `xo --fix --reporter=json`: xo wraps eslint, and its JSON reporter is eslint's; it finds its own configuration (`xo` in package.json, `xo.config.*`). */
const xo: ToolSpec = {
  name: XO,
  kind: 'linter',
  program: 'xo',
  language: 'javascript',
  args: (options, files) => [...options, '--fix', '--reporter=json', ...files],
  ranCodes: [0, 1],
  remaining: eslintRemaining,
  carried: { withValue: ['--config'], flags: ['--space', '--semicolon', '--no-semicolon', '--prettier', '--react'] }
}

const ruffFormat: ToolSpec = {
  name: RUFF,
  kind: 'formatter',
  program: 'ruff',
  language: 'python',
  args: (options, files) => ['format', ...options, '--', ...files],
  ranCodes: [0],
  carried: { withValue: ['--config', '--line-length', '--target-version'], flags: ['--preview'] }
}

const black: ToolSpec = {
  name: BLACK,
  kind: 'formatter',
  program: 'black',
  language: 'python',
  args: (options, files) => [...options, '--quiet', '--', ...files],
  ranCodes: [0],
  carried: { withValue: ['--config', '-l', '--line-length', '-t', '--target-version'], flags: ['-S', '--skip-string-normalization', '--preview', '-C', '--skip-magic-trailing-comma'] }
}

/** `ruff check --fix --output-format json`: the problems it lists are those its fixes left. */
const ruffCheck: ToolSpec = {
  name: RUFF,
  kind: 'linter',
  program: 'ruff',
  language: 'python',
  args: (options, files) => ['check', ...options, '--fix', '--output-format', 'json', '--', ...files],
  ranCodes: [0, 1],
  remaining: ruffRemaining,
  carried: { withValue: ['--config', '--line-length', '--select', '--ignore', '--extend-select', '--extend-ignore', '--target-version'], flags: ['--preview'] }
}

/** Every tool kind, by how the repository names it: the formatter's and the linter's. */
export const TOOLS = { prettier, biome, eslint, biomeLint, xo, ruffFormat, ruffCheck, black } as const

/** The files a tool takes: JavaScript/TypeScript ones for the Node tools, Python ones for the Python tools. */
export function takes(tool: ToolSpec, path: string): boolean {
  return tool.language === 'python' ? path.endsWith('.py') : /\.[cm]?[jt]sx?$/.test(path)
}

interface EslintFileReport {
  filePath?: unknown
  messages?: Array<{ ruleId?: unknown; message?: unknown; line?: unknown }>
}

function eslintRemaining(stdout: string, files: string[]): Remaining {
  const reports = parseSandboxJson('eslint output', stdout.trim()) as EslintFileReport[]
  if (!Array.isArray(reports)) throw new Error('eslint did not print a JSON array')
  const remaining: Remaining = new Map()
  for (const report of reports) {
    const file = givenPath(String(report.filePath ?? ''), files)
    if (!file) continue
    remaining.set(file, (report.messages ?? []).map((message) => lintMessage(message.line, message.ruleId, message.message)))
  }
  return remaining
}

interface BiomeReport {
  summary?: { changed?: unknown; unchanged?: unknown }
  diagnostics?: Array<{ category?: unknown; message?: unknown; location?: { path?: unknown; start?: { line?: unknown } } | null }>
}

/** biome's JSON reporter (2.x): `{ summary, diagnostics: [{ category, message, location: { path, start: { line } } }] }`. */
function biomeRemaining(stdout: string, files: string[]): Remaining {
  const report = parseSandboxJson('biome output', stdout.trim()) as BiomeReport
  if (!report || typeof report !== 'object' || !Array.isArray(report.diagnostics)) throw new Error('biome did not print its JSON report')
  // A file its configuration leaves out is never checked: that is no clean result.
  if (Number(report.summary?.changed ?? 0) + Number(report.summary?.unchanged ?? 0) === 0) throw new Error('biome checked none of the files (its configuration leaves them out)')
  const remaining: Remaining = new Map(files.map((file) => [file, []]))
  for (const diagnostic of report.diagnostics) {
    const path = diagnostic.location?.path ?? ''
    // Another report shape (another major version) is not read as a clean one.
    if (typeof path !== 'string') throw new Error('biome printed a report of a form not read here (biome 2)')
    const file = givenPath(path, files)
    if (file) remaining.get(file)!.push(lintMessage(diagnostic.location?.start?.line, diagnostic.category, diagnostic.message))
  }
  return remaining
}

interface RuffDiagnostic {
  filename?: unknown
  code?: unknown
  message?: unknown
  location?: { row?: unknown }
}

function ruffRemaining(stdout: string, files: string[]): Remaining {
  const diagnostics = parseSandboxJson('ruff output', stdout.trim() || '[]') as RuffDiagnostic[]
  if (!Array.isArray(diagnostics)) throw new Error('ruff did not print a JSON array')
  const remaining: Remaining = new Map(files.map((file) => [file, []]))
  for (const diagnostic of diagnostics) {
    const file = givenPath(String(diagnostic.filename ?? ''), files)
    if (file) remaining.get(file)!.push(lintMessage(diagnostic.location?.row, diagnostic.code, diagnostic.message))
  }
  return remaining
}

/** Linters print absolute paths (through the tree's real path, perhaps): the given path they end with. */
function givenPath(printed: string, files: string[]): string | null {
  return files.find((file) => printed === file || printed.endsWith(`/${posix.normalize(file).replace(/^(\.\.\/)+/, '')}`)) ?? null
}

const lintMessage = (line: unknown, rule: unknown, message: unknown): LintMessage => ({
  line: typeof line === 'number' ? line : 0,
  rule: typeof rule === 'string' && rule ? rule : null,
  message: String(message ?? '').slice(0, 500)
})
