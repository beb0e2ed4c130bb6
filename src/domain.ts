/**
 * The data that flows through the pipeline, stage by stage, in one direction:
 * ChangeSet → BugReport → ContextPack → Analysis → Scenario[] → Suite → RunResult → Verdict → Report.
 * Each stage takes the earlier types and produces the next; none reaches back.
 */

/** `generated`: marked `linguist-generated` or `-diff` in .gitattributes (diff/generated.ts), never the fix's code. */
export type FileRole = 'source' | 'test' | 'other' | 'generated'

/** A run of lines in one version of a file (1-based, inclusive). */
export interface LineRange {
  start: number
  end: number
}

export interface Hunk {
  header: string
  base: LineRange
  head: LineRange
  /** The hunk as unified-diff text, with its `@@` header. */
  text: string
  /** Head line numbers that the change added. */
  addedLines: number[]
  /** Base line numbers that the change removed. */
  removedLines: number[]
}

export interface ChangedFile {
  /** Path at head (at base for a deleted file), relative to the repository root, '/'-separated. */
  path: string
  basePath: string | null
  status: 'added' | 'modified' | 'deleted' | 'renamed'
  role: FileRole
  hunks: Hunk[]
}

export interface ChangeSet {
  base: string
  head: string
  /** The commit the diff is taken from: merge-base of base and head (`git diff base...head`). */
  mergeBase: string
  files: ChangedFile[]
}

export interface BugReport {
  title: string
  body: string
  /** Where the text came from, for the report: `--issue FILE`, `--issue-text`, commit messages, PR. */
  source: 'issue-file' | 'issue-text' | 'commits' | 'pull-request' | 'linked-issues'
  truncated: boolean
  /** The number of the issue it reports, when it says: the suite file is named after it. */
  issue: number | null
}

/** A function (or other enclosing block) touched by the change, at one version. */
export interface CodeExcerpt {
  name: string
  startLine: number
  code: string
}

export interface SourceContext {
  path: string
  /** Changed functions as they are at head and at base. */
  head: CodeExcerpt[]
  base: CodeExcerpt[]
  /** The names the module exports at head: what a test may call. */
  exports: string[]
  /** The hunks of this file as diff text. */
  diff: string
  /** How a new test in the regression folder imports this module, e.g. `../../src/transport`. */
  importSpecifier: string
  /** The fix added the module: before it, nothing is there to import. */
  addedByFix: boolean
  /** A command-line entry (package.json `bin`, `bin/`, a shebang): it runs when loaded, so no test imports it. */
  commandLine?: boolean
}

export interface StyleExample {
  path: string
  content: string
  /** The fix changed this test: it is shown as before the fix, so it may still expect the old behaviour. */
  changedByFix?: boolean
}

/** A module a changed file imports: code the tests may need to call or build inputs with. */
export interface RelatedModule {
  path: string
  /**
   * `imported`: the changed code imports it; `called`: the same, too large to show whole, shown by the
   * definitions the changed code uses from it; `wrapper`: the entry (a package's index, a Python package)
   * a changed module is reached through; `named`: the bug report names it (a locale, a plugin, a config the failure needs).
   */
  role: 'imported' | 'called' | 'wrapper' | 'named'
  importSpecifier: string
  exports: string[]
  /**
   * An imported module: the whole file when small, else null (its exports are listed). A wrapper: the code
   * naming the changed module. A named file: the whole file (only small ones are shown).
   */
  content: string | null
  /** A command-line entry: it runs when loaded, so no test imports it. */
  commandLine?: boolean
}

/** A relative import of the style example, rewritten for a test file in the regression folder. */
export interface RebasedImport {
  original: string
  rebased: string
  /** The repository's source module it names, with that module's exports: an API the repository's tests use. */
  source?: { path: string; exports: string[] }
}

/** One way a new test may import a changed module. */
export interface ImportCandidate {
  /** The changed module. */
  module: string
  /** What a test in the regression folder imports: a relative specifier, or a Python module name. */
  specifier: string
  /** The entry the module is reached through (the package entry, its package), or null: the module itself. */
  through: string | null
}

/** The import a new test uses for a changed module, as checked by loading it in each tree. */
export interface ImportLine extends ImportCandidate {
  /** Whether a test file importing it loads at head and on the pre-fix tree; null where it was not checked. */
  loads: { head: boolean | null; preFix: boolean | null }
  /** The first line of the error when it did not load at head, or before the fix. */
  error?: string
}

export interface ContextPack {
  sources: SourceContext[]
  /**
   * Each changed module's ways in, best first, with what loading each one in the trees showed
   * (execute/import-check.ts); the model is given one per module (chosenImports in context/way-in.ts).
   */
  imports: ImportLine[]
  styleExample: StyleExample | null
  /** The style example's relative imports, as a file in the regression folder writes them. */
  styleImports: RebasedImport[]
  related: RelatedModule[]
  /** Where the new suite goes (a folder relative to the repo root) and how files are named. */
  regressionDir: string
  testFileSuffix: string
  framework: string
  /** The installed version of the framework, e.g. `22.4.4`, when known. */
  frameworkVersion: string | null
  moduleSystem: 'esm' | 'cjs'
  language: 'typescript' | 'javascript' | 'python'
  /** How the tests run, a line each (Node version, TypeScript type-checking, test interface, environment). */
  runtime: string[]
}

/** One defect, as the root-cause analysis sees it; a fix for two defects has two. */
export interface Defect {
  observedFailure: string
  rootCause: string
  fixMechanism: string
  bugClass: string
  blastRadius: string[]
  sharedState: boolean
}

export interface Analysis {
  summary: string
  defects: Defect[]
  /** Inputs the FIXED code still gets wrong, traced through it; usually none (absent in older answers). */
  fixConcerns?: FixConcern[]
}

/** An input the fixed code demonstrably still handles wrongly: what should happen, what does, and where. */
export interface FixConcern {
  /** The concrete input, e.g. `range(0, 5, NaN)`. */
  input: string
  /** What should happen. */
  expected: string
  /** What the fixed code does instead. */
  actual: string
  /** Where in the code: the file (repository path) and the function. */
  where: { file: string; function: string }
}

export type Priority = 'P0' | 'P1' | 'P2'

export interface Scenario {
  name: string
  verifies: string
  setup: string
  assertion: string
  priority: Priority
  riskIfSkipped: string
  failsBeforeFix: boolean
  kind: 'regression' | 'state-isolation' | 'boundary' | 'neighbour'
}

export interface SuiteFile {
  /** Repository-relative path. */
  path: string
  content: string
  /** The scenario of each test the model wrote; empty for the pull request's own tests. */
  tests: TestIntent[]
  /** What the repository's own formatter and linter did to the file (execute/tidy/); absent: none ran. */
  tidy?: TidyOutcome
}

/** The repository's formatter and linter on one generated file: what ran, whether it changed, what the linter still says. */
export interface TidyOutcome {
  /** The formatter that formatted the file (`prettier`); null: none did. */
  formatter: string | null
  /** The linter that fixed and checked it (`eslint`); null: none did. */
  linter: string | null
  /** The content kept differs from the model's. */
  changed: boolean
  /** What the linter still reports after its fixes. */
  remaining: LintMessage[]
  /** Tools that failed or timed out, and how: nothing of theirs was kept (`prettier: exit 2: …`). */
  failed: string[]
}

export interface LintMessage {
  line: number
  /** The rule's id (`max-len`); null for a message with none (a parse error). */
  rule: string | null
  message: string
}

/** Which scenario a generated test was written for. */
export interface TestIntent {
  /** The test's own title as the runner reports it: the value of the string given to `it`/`test`, or the function's name. */
  title: string
  scenario: string
}

export interface Suite {
  files: SuiteFile[]
}

export type TestStatus = 'passed' | 'failed' | 'errored' | 'skipped'

/** A test that ran and did not pass: an assertion failed, or it errored. */
export const isFailure = (status: TestStatus | 'missing'): boolean => status === 'failed' || status === 'errored'

export interface TestResult {
  /** Repository-relative test file path. */
  file: string
  /** Full test name, e.g. `describe block › test title`. */
  name: string
  /** The line that defines the test, where the reporter gives it: with file and name, which test it is (test-identity.ts). */
  line?: number
  status: TestStatus
  durationMs: number | null
  /** First failure message, trimmed; empty when passed. */
  message: string
  /** Set when the test's result changed between runs of its tree (flaky): its result in each run. */
  runs?: Array<TestStatus | 'missing'>
}

/** Which lines of one source file ran (1-based line numbers at that tree's version of the file). */
export interface FileCoverage {
  /** Repository-relative path. */
  file: string
  executableLines: number[]
  coveredLines: number[]
}

/** What one run of the tests in one tree produced. */
export interface RunResult {
  tests: TestResult[]
  /** Files that could not run at all (syntax error, import failure), with the runner's message. */
  fileErrors: Array<{ file: string; message: string }>
  exitCode: number | null
  timedOut: boolean
  durationMs: number
  /** The runner's raw output, trimmed, for repair prompts and logs. */
  output: string
  /** True when the runner ran the tests in a random order (asked for, and the runner can). */
  shuffled?: boolean
  /** Per-line coverage of the repository's own source files, when the run was asked for it. */
  coverage?: FileCoverage[]
  /** What ran the tests, where the adapter knows it: `Python 3.11.4, pytest 8.3.2`. */
  runtime?: string
}

export type TestKind =
  | 'fail-to-pass'
  | 'pass-to-pass'
  | 'fails-at-head'
  | 'skipped'
  | 'missing-at-pre-fix'
  /** Its result changed between runs of one tree: it proves nothing either way. */
  | 'flaky'

export interface ClassifiedTest {
  file: string
  name: string
  /** The line that defines the test, where the reporter gives it. */
  line?: number
  /** Set when its file has tests with the same full title (and line): which of them it is, from 1, in the reporter's order. */
  occurrence?: number
  head: TestStatus
  preFix: TestStatus | 'missing'
  kind: TestKind
  /** Its result changed between runs of one tree (the determinism gate); `runs` in its message. */
  flaky: boolean
  message: string
  /** The scenario the test was written for, when the model said so. */
  scenario: string | null
  /**
   * Why a fail-to-pass test failed before the fix (verdict/failure-kind.ts): an expectation did not hold,
   * the code under test threw, the file could not load (it imports what the fix added: a weak proof), or it
   * ran out of time. Null for any other kind of test.
   */
  preFixFailure: PreFixFailureKind | null
  /**
   * The pre-fix failure's first meaningful line: of a fail-to-pass test, or of a test that passed at head
   * but did not run before the fix (the hook that failed first); null otherwise.
   */
  preFixFailureLine: string | null
}

/** How a fail-to-pass test failed on the pre-fix tree. */
export type PreFixFailureKind = 'assertion' | 'exception' | 'load' | 'timeout' | 'resource'

/** not-applicable: the change has nothing to prove (no source change, verify mode without tests, an empty range). */
export type VerdictName = 'fail-to-pass' | 'no-fail-to-pass' | 'not-applicable' | 'error'

export interface Verdict {
  verdict: VerdictName
  reason: string | null
  tests: ClassifiedTest[]
}
