/** Action input and output names, defined once (they must match action.yml). */
export const Inputs = {
  AnthropicApiKey: 'anthropic-api-key',
  Model: 'model',
  AnthropicBaseUrl: 'anthropic-base-url',
  MaxTokens: 'max-tokens',
  MaxModelCalls: 'max-model-calls',
  ToolRounds: 'tool-rounds',
  Reruns: 'reruns',
  OnNoFailToPass: 'on-no-fail-to-pass',
  OnFixConcern: 'on-fix-concern',
  TimeoutMinutes: 'timeout-minutes',
  RunTimeoutMinutes: 'run-timeout-minutes',
  TestBudgetMinutes: 'test-budget-minutes',
  OutputDir: 'output-dir',
  Framework: 'framework',
  TestCommand: 'test-command',
  BuildCommand: 'build-command',
  InstallCommand: 'install-command',
  WorkingDirectory: 'working-directory',
  GithubToken: 'github-token',
  PrNumber: 'pr-number',
  AllowPullRequestTarget: 'allow-pull-request-target',
  AllowUnisolatedTests: 'allow-unisolated-tests',
  Network: 'network',
  ArtifactName: 'artifact-name',
  RetentionDays: 'retention-days',
  Comment: 'comment',
  CacheModelResponses: 'cache-model-responses',
  Deliver: 'deliver'
} as const

export const Outputs = {
  Verdict: 'verdict',
  FailToPassCount: 'fail-to-pass-count',
  ReportPath: 'report-path',
  SuitePath: 'suite-path',
  ArtifactId: 'artifact-id',
  Delivered: 'delivered',
  DeliveryUrl: 'delivery-url'
} as const

/** Under RUNNER_TEMP: the model's replies, carried between runs by the Actions cache. */
export const RESPONSE_CACHE_FOLDER = 'regression-testgen-model-responses'

/** The follow-up pull request's branch, `regression-testgen/pr-<N>`: the tool's own, force-updated on every delivery. */
export const DELIVERY_BRANCH_PREFIX = 'regression-testgen/pr-'
