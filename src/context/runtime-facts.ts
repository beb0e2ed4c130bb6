/**
 * How the repository's tests run, as the model needs to know it and cannot see it: the Node version, whether
 * TypeScript tests are type-checked (it decides how a test of a type-only change fails before the fix, and
 * whether a cast is needed), mocha's test interface, jest's test environment — read from the configuration,
 * never guessed.
 */
import { execFile } from 'node:child_process'
import type { FileReader } from './read.js'

const RUNNER_CONFIGS = ['jest.config.js', 'jest.config.ts', 'jest.config.cjs', 'jest.config.mjs', 'jest.config.json', '.mocharc.js', '.mocharc.cjs', '.mocharc.json', '.mocharc.yml', '.mocharc.yaml']

export interface RuntimeInput {
  framework: string
  language: 'typescript' | 'javascript' | 'python'
  /** package.json and the runner's configuration files, joined. */
  config: string
  /** `v20.11.1`; null: unknown. */
  nodeVersion: string | null
}

/** The facts, each a line for the conventions. */
export async function readRuntimeFacts(reader: FileReader, head: string, files: ReadonlySet<string>, framework: string, language: RuntimeInput['language']): Promise<string[]> {
  if (language === 'python') return []
  const paths = ['package.json', ...RUNNER_CONFIGS.filter((path) => files.has(path))]
  const texts = await Promise.all(paths.map((path) => reader.text(head, path)))
  return runtimeFacts({ framework, language, config: texts.filter((text) => text !== null).join('\n'), nodeVersion: await nodeVersion() })
}

export function runtimeFacts(input: RuntimeInput): string[] {
  return [
    input.nodeVersion && `Node ${input.nodeVersion.replace(/^v/, '')} runs the tests.`,
    input.language === 'typescript' && typeChecking(input.framework, input.config),
    input.framework === 'mocha' && /["']?ui["']?\s*[:=]\s*["']?tdd\b|--ui[= ]tdd\b|-u tdd\b/.test(input.config) && "mocha's TDD interface: suite(), test(), suiteSetup(), setup() — not describe()/it().",
    input.framework === 'jest' && testEnvironment(input.config)
  ].filter((fact): fact is string => typeof fact === 'string')
}

function typeChecking(framework: string, config: string): string | null {
  const checked = 'TypeScript tests are type-checked: a type error fails the whole file (before the fix too), so reach code whose types the fix changed through a cast, and put a type-only check in a file of its own'
  const stripped = 'TypeScript tests are not type-checked: the types are stripped, so a type error does not fail a test'
  if (framework === 'vitest') return `${stripped} (vitest, esbuild).`
  if (framework === 'jest') {
    // tsdx and ts-jest check types unless told not to; babel-jest, @swc/jest and esbuild transforms never do.
    const tsJest = /\bts-jest\b|"tsdx"/.test(config)
    if (tsJest && !/isolatedModules["']?\s*:\s*true|diagnostics["']?\s*:\s*false/.test(config)) return `${checked} (ts-jest).`
    if (tsJest || /@swc\/jest|babel-jest|esbuild-jest|@babel\/preset-typescript/.test(config)) return `${stripped}.`
  }
  if (framework === 'mocha' || framework === 'node-test') {
    const tsNode = /ts-node\/register|ts-node\/esm/.test(config)
    if (tsNode && !/transpile-?only|TS_NODE_TRANSPILE_ONLY/i.test(config)) return `${checked} (ts-node).`
    if (tsNode || /\btsx\b|--experimental-strip-types|@swc-node|esbuild-register/.test(config)) return `${stripped}.`
  }
  return null
}

function testEnvironment(config: string): string | null {
  const environment = /testEnvironment["']?\s*:\s*["']([\w@/.-]+)["']/.exec(config)?.[1] ?? /--env[= ]([\w-]+)/.exec(config)?.[1]
  return environment ? `jest's test environment: ${environment}${/jsdom/.test(environment) ? ' (a browser-like DOM: document, window)' : ''}.` : null
}

/** The `node` on PATH, as the repository's test commands find it (not necessarily the one running this tool). */
function nodeVersion(): Promise<string | null> {
  return new Promise((resolve) => {
    execFile('node', ['--version'], { timeout: 5000, env: { PATH: process.env.PATH ?? '' } }, (error, stdout) => resolve(error ? null : stdout.trim() || null))
  })
}
