/** Commands the trees need besides the tests (install, build): run without a shell, failing loudly. */
import { UserFacingError } from '../errors.js'
import type { CommandLine } from '../frameworks/command.js'
import type { ProcessRunner } from '../ports/process.js'

export async function runTreeCommand(processes: ProcessRunner, commandLine: CommandLine, cwd: string, timeoutMs: number, what: string): Promise<void> {
  const result = await processes.run({ ...commandLine, cwd, timeoutMs, env: { ...installEnvironment(process.env), ...commandLine.env } })
  if (result.exitCode !== 0) {
    const how = result.timedOut ? `timed out after ${timeoutMs} ms` : `exit ${result.exitCode}`
    throw new UserFacingError(`${what} failed (${[commandLine.command, ...commandLine.args].join(' ')}: ${how}):\n${result.output.slice(-1500)}`)
  }
}

/** An install or a build (not a test run) may need the machine's registry settings and proxies. */
function installEnvironment(parent: NodeJS.ProcessEnv): Record<string, string> {
  const wanted = /^(?:npm_config_|yarn_|pnpm_|https?_proxy$|no_proxy$)/i
  return Object.fromEntries(Object.entries(parent).filter((entry): entry is [string, string] => wanted.test(entry[0]) && entry[1] !== undefined))
}
