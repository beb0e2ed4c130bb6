/** Which framework runs this repository's tests: the first adapter, in this order, that recognises it. */
import { UserFacingError } from '../errors.js'
import type { FrameworkAdapter } from './adapter.js'
import { avaAdapter } from './ava.js'
import { jestAdapter } from './jest.js'
import { mochaAdapter } from './mocha.js'
import { nodeTestAdapter } from './node-test.js'
import { pytestAdapter } from './pytest.js'
import { tapAdapter } from './tap.js'
import { vitestAdapter } from './vitest.js'
import { scriptCommands, scriptTarget } from './package-scripts.js'
import { readPackageJsonSync, type PackageJson } from './packages.js'
import { findRunnerWrapper, type RunnerWrapper } from './wrapper.js'

// vitest before jest: vitest projects often keep jest-compatible names and globals. node:test last of the
// JavaScript runners: other runners' scripts may call node too.
// The runners whose adapters run them through a wrapper CLI (wrapper.ts).
export const WRAPPED_RUNNERS = new Set(['vitest', 'jest'])

export const ADAPTERS: readonly FrameworkAdapter[] = [vitestAdapter, jestAdapter, mochaAdapter, avaAdapter, tapAdapter, nodeTestAdapter, pytestAdapter]

/** The adapter the framework setting names, else the detected one. */
export async function frameworkFor(packageDir: string, name: string | null): Promise<FrameworkAdapter> {
  const named = ADAPTERS.find((adapter) => adapter.name === name)
  return named ?? detectFramework(packageDir)
}

export async function detectFramework(repoDir: string): Promise<FrameworkAdapter> {
  // The runner the test script calls decides, whatever else is installed (node --test over compiled
  // output in a repository that also has jest; a vitest migration that left jest behind).
  const scripted = runnerOfTestScript(readPackageJsonSync(repoDir))
  const named = ADAPTERS.find((adapter) => adapter.name === scripted)
  if (named) return named
  // Likewise a runner the test script calls through a wrapper CLI.
  const wrapped = ADAPTERS.find((adapter) => WRAPPED_RUNNERS.has(adapter.name) && findRunnerWrapper(repoDir, adapter.name))
  if (wrapped) return wrapped
  for (const adapter of ADAPTERS) if (await adapter.detect(repoDir)) return adapter
  throw new UserFacingError(
    `No supported test framework found in ${repoDir}`,
    `supported: ${ADAPTERS.map((adapter) => adapter.name).join(', ')}`
  )
}

// A command's program, as the runner it is (node and tsx only with --test; python only with -m pytest).
const RUNNER_PROGRAMS: Array<[RegExp, string, ((args: string[]) => boolean)?]> = [
  [/(?:^|\/)vitest(?:\.mjs)?$/, 'vitest'],
  [/(?:^|\/)jest(?:\.js)?$/, 'jest'],
  [/(?:^|\/)_?mocha(?:\.js)?$/, 'mocha'],
  [/(?:^|\/)ava(?:\.js)?$/, 'ava'],
  [/(?:^|\/)tap$/, 'tap'],
  [/(?:^|\/)(?:node|nodejs|tsx)$/, 'node-test', (args) => args.includes('--test')],
  [/(?:^|\/)(?:py\.test|pytest)$/, 'pytest'],
  [/(?:^|\/)python3?$/, 'pytest', (args) => args.join(' ').startsWith('-m pytest')]
]
// Programs that start the next word: environment setters, package runners, coverage tools.
const LAUNCHERS = new Set(['cross-env', 'env', 'npx', 'bunx', 'dotenv', 'c8', 'nyc', 'time'])
const MAX_SCRIPT_DEPTH = 4

/** The framework of the first runner the `test` script runs (following `npm run x`), or null. */
export function runnerOfTestScript(manifest: PackageJson | null, name = 'test', depth = 0): string | null {
  const script = manifest?.scripts?.[name]
  if (!script || depth > MAX_SCRIPT_DEPTH) return null
  for (const words of scriptCommands(script)) {
    const target = scriptTarget(words)
    if (target) {
      const found = target !== name ? runnerOfTestScript(manifest, target, depth + 1) : null
      if (found) return found
      continue
    }
    const at = words.findIndex((word) => !/^[A-Za-z_][A-Za-z0-9_]*=/.test(word) && !LAUNCHERS.has(word) && !word.startsWith('-'))
    if (at < 0) continue
    const [program, ...args] = words.slice(at)
    const runner = RUNNER_PROGRAMS.find(([pattern, , accepts]) => pattern.test(program) && (accepts?.(args) ?? true))
    if (runner) return runner[1]
  }
  return null
}

/** The wrapper CLI the test script runs this framework's runner through; none when a test-command is set. */
export function wrapperFor(packageDir: string, framework: FrameworkAdapter, testCommand: string[] | null): RunnerWrapper | null {
  return testCommand || !WRAPPED_RUNNERS.has(framework.name) ? null : findRunnerWrapper(packageDir, framework.name)
}
