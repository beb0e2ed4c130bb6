/** The command line: argv → Settings → the pipeline; prints where the report is and exits by verdict. */
import { readFile } from 'node:fs/promises'
import { parseArgs } from 'node:util'
// Inlined by the bundler: the bundled CLI has no package.json beside it.
import packageJson from '../package.json' with { type: 'json' }
import { givenIssue } from './bug-report/bug-report.js'
import { applyToWorkingTree } from './deliver/apply.js'
import { describeError, SettingsError, UserFacingError } from './errors.js'
import type { Logger } from './ports/logger.js'
import { consoleLogger } from './ports/console-log.js'
import { ensureWritableFolder } from './ports/out-folder.js'
import { createGit } from './ports/git.js'
import type { Outcome } from './pipeline.js'
import { withRunLog } from './ports/run-log.js'
import { redactingLogger, redactor } from './report/redact.js'
import { claimOutput, learnPersistedCredentials, runWithRealPorts } from './run.js'
import { buildSettings, MAX_RERUNS, type Settings } from './settings.js'
import { forTerminal } from './text.js'

export const VERSION: string = packageJson.version

export const USAGE = `Usage:
  regression-testgen [generate] --repo DIR --base SHA --head SHA [options]
  regression-testgen verify --repo DIR --base SHA --head SHA [options]

generate (default) asks Claude for a regression suite for the fix in base...head and proves it: every
test passes at head, and at least one fails on the pre-fix tree. Needs ANTHROPIC_API_KEY.
verify needs no model: it runs the change's own test files at head and on the pre-fix tree.

Options:
  --repo DIR                      the git repository (default: .)
  --base SHA, --head SHA          the commits before and with the fix
  --out DIR                       where report.json, report.md, run.log and suite/ go (default: outside the repository,
                                  $XDG_CACHE_HOME or ~/.cache, /regression-testgen/<repo>-<hash>); inside it only if git-ignored
  --issue FILE                    the bug report, as markdown (first line is the title)
  --issue-text TEXT               the bug report, inline (default: the commit messages of base..head)
  --model NAME                    Claude model (default: claude-sonnet-5-5)
  --max-tokens N                  max output tokens per model call (default: 16000)
  --max-model-calls N             at most N model calls in a run; repair rounds past it are skipped (default: 30)
  --tool-rounds N                 rounds of repository reads (files, searches, folders) the model may make per stage (default: 6; 0: none)
  --response-cache DIR            keep model replies in DIR by request hash; a re-run of the same state costs no tokens
  --anthropic-base-url URL        Messages API base URL (default: ANTHROPIC_BASE_URL or Anthropic's)
  --on-no-fail-to-pass fail|warn  exit 1 (fail, default) or 0 (warn) when no test fails before the fix
  --on-fix-concern warn|fail      exit 1 (fail) when a test confirms an input the fixed code still gets wrong (default: warn)
  --timeout-minutes N             timeout of each test run (default: 5)
  --run-timeout-minutes N         the whole run's deadline (default: 60; fractions allowed): running commands are
                                  killed, nothing more starts, the report is written with what was learned (error)
  --test-budget-minutes N         time for all test runs (default: a sixth of the run's deadline, 10; 0 allowed): past it
                                  the optional runs (hunk trees, fix-concern tests) are skipped, the report names them
  --reruns N                      runs of the suite at head, 2 to ${MAX_RERUNS} (default: 3); a test whose result changes is flaky
  --framework NAME                jest, vitest, mocha, ava, tap, node-test or pytest (default: detected)
  --test-command CMD              the repository's own test command; {files} marks where the test files go
  --build-command CMD             run in each tree before its tests (for tests that import built output)
  --install-command CMD           install in the pre-fix tree when the change touched manifests (default: by lockfile)
  --working-directory DIR         the package whose tests run, inside a monorepo (default: the root)
  --allow-unisolated-tests        run model-written tests as your own user where the sandbox cannot start
  --network                       let the tests reach the network (in the sandbox they reach only loopback)
  --deliver artifact|patch        where a proven suite goes besides suite/: nowhere (artifact, default), or patch: suite.patch
                                  in the output folder, to \`git apply\` at the head (commit and pull-request: the action only)
  --apply                         write the delivered files into the repository's working tree at their paths (implies
                                  --deliver patch; writes nothing if any path exists or passes through a link), to review with git
  --print                         print report.md to stdout
  -v, --version                   the version
  -h, --help                      this help

Examples:
  # Generate and prove a suite for the fix on this branch, from the bug report in a file
  ANTHROPIC_API_KEY=sk-ant-... regression-testgen --base main --head HEAD --issue bug.md
  # No model: prove the change's own tests (they pass at head and fail with the fix reverted)
  regression-testgen verify --repo ../my-lib --base v1.2.0 --head fix-timeout
  # One package of a monorepo (dependencies installed, as for its own tests)
  regression-testgen verify --base main --head HEAD --working-directory packages/core
  # A Python repository: pytest in the repository's .venv (or the python3 on PATH)
  regression-testgen --base main --head HEAD --issue bug.md --framework pytest

Every flag is checked before any work: a bad one exits 2 at once, naming it.
Exit codes: 0 fail-to-pass or not-applicable (the change has nothing to prove), 1 no-fail-to-pass, 2 error.`

export const CLI_OPTIONS = {
  repo: { type: 'string' },
  base: { type: 'string' },
  head: { type: 'string' },
  out: { type: 'string' },
  issue: { type: 'string' },
  'issue-text': { type: 'string' },
  model: { type: 'string' },
  'max-tokens': { type: 'string' },
  'max-model-calls': { type: 'string' },
  'tool-rounds': { type: 'string' },
  reruns: { type: 'string' },
  'response-cache': { type: 'string' },
  'anthropic-base-url': { type: 'string' },
  'on-no-fail-to-pass': { type: 'string' },
  'on-fix-concern': { type: 'string' },
  'timeout-minutes': { type: 'string' },
  'run-timeout-minutes': { type: 'string' },
  'test-budget-minutes': { type: 'string' },
  framework: { type: 'string' },
  'test-command': { type: 'string' },
  'build-command': { type: 'string' },
  'install-command': { type: 'string' },
  'working-directory': { type: 'string' },
  'allow-unisolated-tests': { type: 'boolean' },
  network: { type: 'boolean' },
  deliver: { type: 'string' },
  apply: { type: 'boolean' },
  print: { type: 'boolean' },
  version: { type: 'boolean', short: 'v' },
  help: { type: 'boolean', short: 'h' }
} as const

export async function runCli(argv: string[], env: NodeJS.ProcessEnv = process.env, log: Logger = consoleLogger): Promise<number> {
  try {
    const { values, positionals } = parseCommandLine(argv)
    if (values.help) return (console.log(USAGE), 0)
    if (values.version) return (console.log(VERSION), 0)
    const [command = 'generate', ...extra] = positionals
    if (!['generate', 'verify'].includes(command) || extra.length > 0) throw new UserFacingError(`Unknown command "${positionals.join(' ')}"`, 'see --help')
    const given = buildSettings({
      mode: command,
      repo: values.repo,
      base: values.base,
      head: values.head,
      out: values.out,
      issueFile: values.issue,
      issueText: values['issue-text'],
      apiKey: env.ANTHROPIC_API_KEY,
      apiKeyNames: { key: 'ANTHROPIC_API_KEY', verifyMode: 'run `regression-testgen verify …`' },
      model: values.model,
      maxTokens: values['max-tokens'],
      maxModelCalls: values['max-model-calls'],
      toolRounds: values['tool-rounds'],
      reruns: values.reruns,
      responseCacheDir: values['response-cache'],
      baseURL: values['anthropic-base-url'] ?? env.ANTHROPIC_BASE_URL,
      onNoFailToPass: values['on-no-fail-to-pass'],
      onFixConcern: values['on-fix-concern'],
      testTimeoutMinutes: values['timeout-minutes'],
      runTimeoutMinutes: values['run-timeout-minutes'],
      testBudgetMinutes: values['test-budget-minutes'],
      framework: values.framework,
      testCommand: values['test-command'],
      buildCommand: values['build-command'],
      installCommand: values['install-command'],
      workingDirectory: values['working-directory'],
      allowUnisolatedTests: values['allow-unisolated-tests'],
      network: values.network,
      // --apply writes what the patch adds.
      deliver: values.deliver ?? (values.apply ? 'patch' : undefined),
      secrets: [env.GITHUB_TOKEN, env.GH_TOKEN].filter((token): token is string => Boolean(token))
    })
    refuseDelivery(given, values.apply ?? false)
    // Before any work (git, the run log, the sandbox): a missing or empty issue, or an unusable folder, ends the run now.
    await givenIssue(given.bugReport)
    if (given.model?.responseCacheDir) ensureWritableFolder(given.model.responseCacheDir, '--response-cache')
    const output = await claimOutput(given, '--out')
    try {
      const settings = await learnPersistedCredentials(given)
      const outcome = await runWithRealPorts(settings, redactingLogger(withRunLog(log, settings.outDir), redactor(settings.secrets)))
      if (values.print) console.log(forTerminal(await readFile(outcome.paths.markdown, 'utf8')))
      log.info(`report: ${outcome.paths.json}`)
      // Last, where it is seen: the default folder is not where the user ran the command.
      log.info(`output folder: ${settings.outDir} (report.md, report.json, run.log, suite/${outcome.report.delivery.mode === 'patch' ? ', suite.patch' : ''})`)
      if (values.apply) await applyDelivered(settings, outcome, log)
      return outcome.exitCode
    } finally {
      output.release()
    }
  } catch (error) {
    log.error(`regression-testgen: ${describeForCommandLine(error)}`)
    return 2
  }
}

/** commit and pull-request push through the GitHub API: the action's. --apply writes what a patch adds. */
function refuseDelivery(settings: Settings, apply: boolean): void {
  if (settings.deliver === 'commit' || settings.deliver === 'pull-request') {
    throw new SettingsError('deliver', `${settings.deliver} needs the action (it pushes through the GitHub API with the workflow's token); on the command line use artifact or patch, and --apply to write the files into the working tree`)
  }
  if (apply && settings.deliver !== 'patch') throw new SettingsError('apply', `it writes the files a patch adds: use it with --deliver patch (or no --deliver), not ${settings.deliver}`)
}

/** --apply: the delivered files into the working tree, for the user to review; refused whole if any is in the way. */
async function applyDelivered(settings: Settings, outcome: Outcome, log: Logger): Promise<void> {
  const { delivery } = outcome.report
  if (outcome.deliveredFiles.length === 0) return log.info(`--apply: nothing to write (${delivery.reason})`)
  const git = createGit(settings.repoDir)
  const root = (await git.workTreeRoot()) ?? settings.repoDir
  const checkedOut = await git.resolveCommit('HEAD').catch(() => null)
  if (checkedOut !== outcome.report.repository.head) log.warn(`--apply: the working tree is at ${checkedOut?.slice(0, 7) ?? 'no commit'}, the suite was proven at ${outcome.report.repository.head.slice(0, 7)}`)
  const written = await applyToWorkingTree(root, outcome.deliveredFiles)
  log.info(`--apply: wrote ${written.length} new file(s) into ${root}: ${written.join(', ')}. Review them with \`git status\` (untracked), or \`git add --intent-to-add\` them and \`git diff\``)
}

/** parseArgs, with its errors (unknown flag, missing or unexpected value) said in a line that names the flag. */
function parseCommandLine(argv: string[]) {
  try {
    return parseArgs({ args: argv, options: CLI_OPTIONS, allowPositionals: true })
  } catch (error) {
    const { code, message } = error as { code?: string; message: string }
    // `'--repo <value>'`, `'-h, --help'`: the long form.
    const flag = /'(?:-\w, )?(-[^' ]*)/.exec(message)?.[1] ?? ''
    if (code === 'ERR_PARSE_ARGS_UNKNOWN_OPTION') throw new UserFacingError(`Unknown option ${flag}`, 'see --help for the options')
    if (code === 'ERR_PARSE_ARGS_INVALID_OPTION_VALUE') {
      throw new UserFacingError(message.includes('does not take an argument') ? `${flag} takes no value` : `${flag} needs a value`, 'see --help')
    }
    throw error
  }
}

/** Settings name the action's inputs; on the command line the same names are flags. */
function describeForCommandLine(error: unknown): string {
  return describeError(error instanceof SettingsError ? error.namedAs(`--${error.input}`, 'see --help') : error)
}
