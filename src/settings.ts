/** One validated settings object: the CLI (argv) and the action (inputs) each build it; nothing below reads either. */
import { isAbsolute, resolve } from 'node:path'
import { SettingsError } from './errors.js'

export type Mode = 'generate' | 'verify'
export type OnNoFailToPass = 'fail' | 'warn'

export interface BugReportSource {
  issueFile?: string
  issueText?: string
  /** Title and body handed over by the action (the pull request). */
  pullRequest?: { title: string; body: string }
}

export interface ModelSettings {
  apiKey: string
  model: string
  maxTokens: number
  baseURL: string | undefined
  /** SDK retries on 429, 5xx and overloaded. */
  maxRetries: number
}

export interface Settings {
  mode: Mode
  repoDir: string
  base: string
  head: string
  outDir: string
  bugReport: BugReportSource
  model: ModelSettings | null
  onNoFailToPass: OnNoFailToPass
  repairRounds: number
  testTimeoutMs: number
}

export const DEFAULT_MODEL = 'claude-sonnet-5-5'
export const DEFAULT_MAX_TOKENS = 16000
export const DEFAULT_REPAIR_ROUNDS = 2
export const DEFAULT_TEST_TIMEOUT_MS = 5 * 60_000

export interface RawSettings {
  mode?: string
  repo?: string
  base?: string
  head?: string
  out?: string
  issueFile?: string
  issueText?: string
  pullRequest?: { title: string; body: string }
  apiKey?: string
  model?: string
  maxTokens?: string
  baseURL?: string
  onNoFailToPass?: string
  testTimeoutMinutes?: string
}

/** Validates raw strings (from argv or action inputs) into Settings; throws SettingsError naming the input. */
export function buildSettings(raw: RawSettings, cwd: string = process.cwd()): Settings {
  const mode = oneOf('mode', raw.mode ?? 'generate', ['generate', 'verify'] as const)
  const apiKey = raw.apiKey?.trim() ?? ''
  if (mode === 'generate' && !apiKey) {
    throw new SettingsError('anthropic-api-key', 'generate mode needs an Anthropic API key (ANTHROPIC_API_KEY); without one, use verify mode')
  }
  return {
    mode,
    repoDir: absolute(raw.repo ?? '.', cwd),
    base: required('base', raw.base),
    head: required('head', raw.head),
    outDir: absolute(raw.out ?? 'regression-testgen-out', cwd),
    bugReport: { issueFile: raw.issueFile && absolute(raw.issueFile, cwd), issueText: raw.issueText, pullRequest: raw.pullRequest },
    model:
      mode === 'verify'
        ? null
        : {
            apiKey,
            model: raw.model?.trim() || DEFAULT_MODEL,
            maxTokens: positiveInt('max-tokens', raw.maxTokens, DEFAULT_MAX_TOKENS),
            baseURL: optionalUrl('anthropic-base-url', raw.baseURL),
            maxRetries: 4
          },
    onNoFailToPass: oneOf('on-no-fail-to-pass', raw.onNoFailToPass ?? 'fail', ['fail', 'warn'] as const),
    repairRounds: DEFAULT_REPAIR_ROUNDS,
    testTimeoutMs: raw.testTimeoutMinutes
      ? positiveInt('timeout-minutes', raw.testTimeoutMinutes, 5) * 60_000
      : DEFAULT_TEST_TIMEOUT_MS
  }
}

function required(input: string, value: string | undefined): string {
  if (!value?.trim()) throw new SettingsError(input, 'a commit SHA or ref is required')
  return value.trim()
}

function oneOf<T extends string>(input: string, value: string, allowed: readonly T[]): T {
  const trimmed = value.trim() as T
  if (!allowed.includes(trimmed)) throw new SettingsError(input, `"${value}" is not one of ${allowed.join(', ')}`)
  return trimmed
}

function positiveInt(input: string, value: string | undefined, fallback: number): number {
  if (value === undefined || value.trim() === '') return fallback
  const parsed = Number(value)
  if (!Number.isInteger(parsed) || parsed <= 0) throw new SettingsError(input, `"${value}" is not a positive whole number`)
  return parsed
}

function optionalUrl(input: string, value: string | undefined): string | undefined {
  if (!value?.trim()) return undefined
  try {
    return new URL(value.trim()).toString().replace(/\/$/, '')
  } catch {
    throw new SettingsError(input, `"${value}" is not a URL`)
  }
}

function absolute(path: string, cwd: string): string {
  return isAbsolute(path) ? path : resolve(cwd, path)
}
