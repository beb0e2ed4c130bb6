/** The node that runs node:test, and what its test runner can report. */
import { accessSync, constants, statSync } from 'node:fs'
import { delimiter, join } from 'node:path'
import type { ProcessRunner } from '../ports/process.js'
import { trimTail } from './output.js'

export interface NodeRuntime {
  path: string
  version: string
  /** node:test's lcov reporter, for coverage without c8. */
  lcov: boolean
  /** Why this node cannot run the tests for us (it does not start, or its node:test has no junit reporter). */
  problem: string | null
}

const PROBE = "JSON.stringify({ version: process.version, reporters: Object.keys(require('node:test/reporters')) })"
// Per process runner (its environment decides what runs) and node path: one probe each.
const runtimes = new WeakMap<ProcessRunner, Map<string, Promise<NodeRuntime>>>()

/** The node on PATH (the repository's, e.g. from actions/setup-node), and which reporters its node:test has. */
export function nodeRuntime(processes: ProcessRunner, cwd: string): Promise<NodeRuntime> {
  const path = findNode(process.env.PATH)
  const cache = runtimes.get(processes) ?? new Map<string, Promise<NodeRuntime>>()
  runtimes.set(processes, cache)
  const known = cache.get(path)
  if (known) return known
  const probed = processes.run({ command: path, args: ['-p', PROBE], cwd, timeoutMs: 30_000 }).then((ran): NodeRuntime => {
    const line = ran.output.split('\n').find((text) => text.startsWith('{"version"'))
    if (!line) return { path, version: 'unknown', lcov: false, problem: `could not ask ${path} for its test reporters:\n${trimTail(ran.output, 1000)}` }
    const { version, reporters } = JSON.parse(line) as { version: string; reporters: string[] }
    // The junit reporter came in a 2023 minor release of Node 20 (and 18.19): older ones have no machine-readable report.
    const problem = reporters.includes('junit') ? null : `node ${version} (${path}) has no junit reporter for node:test; run the tests with a newer Node`
    return { path, version, lcov: reporters.includes('lcov'), problem }
  })
  cache.set(path, probed)
  return probed
}

/** The first `node` on PATH (the one the repository's own `node --test` would run), else this process's. */
export function findNode(pathVariable: string | undefined): string {
  const name = process.platform === 'win32' ? 'node.exe' : 'node'
  for (const dir of (pathVariable ?? '').split(delimiter).filter(Boolean)) {
    const candidate = join(dir, name)
    if (isExecutable(candidate)) return candidate
  }
  return process.execPath
}

function isExecutable(path: string): boolean {
  try {
    accessSync(path, constants.X_OK)
    return statSync(path).isFile()
  } catch {
    return false
  }
}
