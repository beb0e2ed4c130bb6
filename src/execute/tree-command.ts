/** Commands the trees need besides the tests (install, build): run without a shell, failing loudly. */
import { existsSync } from 'node:fs'
import { delimiter, dirname, join } from 'node:path'
import { UserFacingError } from '../errors.js'
import type { CommandLine } from '../frameworks/command.js'
import type { Logger } from '../ports/logger.js'
import type { ProcessRequest, ProcessRunner } from '../ports/process.js'
import { withProgress } from '../ports/progress.js'

/** `what` names the step in the log (`The build at head: npm run build…`) and in its failure. */
export async function runTreeCommand(processes: ProcessRunner, commandLine: CommandLine, cwd: string, timeoutMs: number, what: string, log: Logger): Promise<void> {
  const command = [commandLine.command, ...commandLine.args].join(' ')
  // Installs and builds fetch packages: they keep the network the tests do not get.
  const request = withPackageBins({ ...commandLine, cwd, timeoutMs, env: { ...installEnvironment(process.env), ...commandLine.env }, network: true })
  const result = await withProgress(log, `${what}: ${command}`, () => processes.run(request))
  if (result.exitCode !== 0) {
    const how = result.timedOut ? `timed out after ${timeoutMs} ms` : `exit ${result.exitCode}`
    throw new UserFacingError(`${what} failed (${command}: ${how}):\n${result.output.slice(-1500)}`)
  }
}

/**
 * PATH as `npm run` sets it: every `node_modules/.bin` from the command's folder up, then the tool's own,
 * so a bare `jest` or `tsc` in a test-command or build-command is the repository's own.
 */
export function withPackageBins(request: ProcessRequest): ProcessRequest {
  const bins: string[] = []
  for (let dir = request.cwd; ; dir = dirname(dir)) {
    if (existsSync(join(dir, 'node_modules', '.bin'))) bins.push(join(dir, 'node_modules', '.bin'))
    if (dir === dirname(dir)) break
  }
  const path = [...bins, request.env?.PATH ?? process.env.PATH ?? ''].filter(Boolean).join(delimiter)
  return { ...request, env: { ...request.env, PATH: path } }
}

/** An install or a build (not a test run) may need the machine's registry settings and proxies. */
function installEnvironment(parent: NodeJS.ProcessEnv): Record<string, string> {
  const wanted = /^(?:npm_config_|yarn_|pnpm_|https?_proxy$|no_proxy$)/i
  return Object.fromEntries(Object.entries(parent).filter((entry): entry is [string, string] => wanted.test(entry[0]) && entry[1] !== undefined))
}
