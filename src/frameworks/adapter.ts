import type { RunResult } from '../domain.js'
import type { ProcessRunner } from '../ports/process.js'
import type { RunnerWrapper } from './wrapper.js'

/** Everything an adapter needs to run tests in one tree (the head tree or the pre-fix tree). */
export interface RunRequest {
  /** Absolute path of the tree's root (a git worktree). */
  treeDir: string
  /** Test files to run, relative to treeDir, '/'-separated. */
  files: string[]
  /** Folder for the runner's report files; the adapter may write anything there. */
  scratchDir: string
  timeoutMs: number
  /** Also collect per-line coverage of the repository's source files (RunResult.coverage). */
  coverage?: boolean
  /** Run the tests in a random order, where the runner can (a gate run that catches order-dependent tests). */
  shuffle?: boolean
  /**
   * The repository's own test command (the test-command setting), split into words; `{files}` marks where
   * the files go. Run it with `expandCommand` from ./command.ts, adding the adapter's reporter arguments.
   * Absent: the adapter's own way of running the framework.
   */
  command?: string[]
  /** The wrapper CLI the repository runs the runner through (wrapper.ts); absent: the runner itself. */
  wrapper?: RunnerWrapper | null
}

/**
 * A test framework, as the pipeline sees it: how to tell it is used, where new tests go, and how to run
 * given files and read per-test results from its machine-readable reporter.
 */
export interface FrameworkAdapter {
  readonly name: string
  /** What coverage of the repository's code needs here, for a report that has none. */
  readonly coverageNeeds: string
  /** True when the repository at `repoDir` uses this framework. */
  detect(repoDir: string): Promise<boolean>
  /** True when a repository-relative path is a test file by this framework's conventions. */
  isTestFile(path: string): boolean
  run(request: RunRequest, processes: ProcessRunner): Promise<RunResult>
  /**
   * A test file holding `imports` (import statements, or `require` calls when `importSyntax` is false) and
   * one empty test: it passes exactly when the imports load (execute/import-check.ts).
   */
  loadingTest?(imports: string, importSyntax: boolean): string
  /**
   * The runner's own account of its configuration at `treeDir` (which files it collects), for a
   * configuration that cannot be read statically: a JavaScript config file, a wrapper CLI's hidden one.
   * Paths under the tree are written `<rootDir>`-relative. Null when the runner cannot say.
   */
  resolveConfig?(request: ConfigRequest, processes: ProcessRunner): Promise<ResolvedConfig | null>
}

export interface ConfigRequest {
  treeDir: string
  timeoutMs: number
  /** As in RunRequest. */
  command?: string[]
  /** How the log names the command that runs the runner (a captured launch's last step); default: the command. */
  label?: string
  wrapper?: RunnerWrapper | null
  /**
   * What the runner printed when the capture asked it already (launch.ts `shownConfig`), untrusted: read
   * instead of starting the runner again; asked anew only when absent or unusable.
   */
  shown?: { stdout: string; stderr: string } | null
}

export interface ResolvedConfig {
  /** Where it came from, for the log: the command that printed it. */
  source: string
  values: Record<string, unknown>
}
