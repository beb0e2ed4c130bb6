/** Which framework runs this repository's tests: the first adapter, in this order, that recognises it. */
import { UserFacingError } from '../errors.js'
import type { FrameworkAdapter } from './adapter.js'
import { avaAdapter } from './ava.js'
import { jestAdapter } from './jest.js'
import { mochaAdapter } from './mocha.js'
import { nodeTestAdapter } from './node-test.js'
import { pytestAdapter } from './pytest.js'
import { vitestAdapter } from './vitest.js'
import { findRunnerWrapper, type RunnerWrapper } from './wrapper.js'

// vitest before jest: vitest projects often keep jest-compatible names and globals. node:test last of the
// JavaScript runners: other runners' scripts may call node too.
// The runners whose adapters run them through a wrapper CLI (wrapper.ts).
export const WRAPPED_RUNNERS = new Set(['vitest', 'jest'])

export const ADAPTERS: readonly FrameworkAdapter[] = [vitestAdapter, jestAdapter, mochaAdapter, avaAdapter, nodeTestAdapter, pytestAdapter]

/** The adapter the framework setting names, else the detected one. */
export async function frameworkFor(packageDir: string, name: string | null): Promise<FrameworkAdapter> {
  const named = ADAPTERS.find((adapter) => adapter.name === name)
  return named ?? detectFramework(packageDir)
}

export async function detectFramework(repoDir: string): Promise<FrameworkAdapter> {
  // A runner the test script calls through a wrapper CLI decides, whatever else is installed.
  const wrapped = ADAPTERS.find((adapter) => WRAPPED_RUNNERS.has(adapter.name) && findRunnerWrapper(repoDir, adapter.name))
  if (wrapped) return wrapped
  for (const adapter of ADAPTERS) if (await adapter.detect(repoDir)) return adapter
  throw new UserFacingError(
    `No supported test framework found in ${repoDir}`,
    `supported: ${ADAPTERS.map((adapter) => adapter.name).join(', ')}`
  )
}

/** The wrapper CLI the test script runs this framework's runner through; none when a test-command is set. */
export function wrapperFor(packageDir: string, framework: FrameworkAdapter, testCommand: string[] | null): RunnerWrapper | null {
  return testCommand || !WRAPPED_RUNNERS.has(framework.name) ? null : findRunnerWrapper(packageDir, framework.name)
}
