/** Action input and output names, defined once (they must match action.yml). */
export const Inputs = {
  AnthropicApiKey: 'anthropic-api-key',
  Model: 'model',
  AnthropicBaseUrl: 'anthropic-base-url',
  MaxTokens: 'max-tokens',
  MaxModelCalls: 'max-model-calls',
  OnNoFailToPass: 'on-no-fail-to-pass',
  TimeoutMinutes: 'timeout-minutes',
  OutputDir: 'output-dir',
  Framework: 'framework',
  TestCommand: 'test-command',
  BuildCommand: 'build-command',
  InstallCommand: 'install-command',
  WorkingDirectory: 'working-directory',
  GithubToken: 'github-token',
  PrNumber: 'pr-number',
  AllowPullRequestTarget: 'allow-pull-request-target'
} as const

export const Outputs = {
  Verdict: 'verdict',
  FailToPassCount: 'fail-to-pass-count',
  ReportPath: 'report-path',
  SuitePath: 'suite-path'
} as const
