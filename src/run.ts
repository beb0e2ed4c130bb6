/** Wires the real ports to the pipeline: shared by the CLI and the action. */
import type { SuiteDestination } from './deliver/delivery.js'
import type { DependencyCache } from './execute/dependencies.js'
import { createAnthropicModel } from './model/anthropic.js'
import { UsageLedger, withCallProgress, type ModelPort } from './model/model-port.js'
import { withResponseCache } from './model/response-cache.js'
import type { Logger } from './ports/logger.js'
import { runPipeline, type Outcome } from './pipeline.js'
import { createGit } from './ports/git.js'
import { claimOutFolder, type ClaimedOutFolder } from './ports/out-folder.js'
import { createSandboxProvider } from './ports/sandbox.js'
import type { ModelSettings, Settings } from './settings.js'
import { withCredentialsLearned } from './persisted-credentials.js'

/**
 * The output folder, claimed before any work (checked, marked, locked, cleared of the last run's results):
 * `input` is the flag or input that names it, for the messages.
 */
export function claimOutput(settings: Settings, input: string): Promise<ClaimedOutFolder> {
  return claimOutFolder(settings.outDir, { input, repository: createGit(settings.repoDir) })
}

/**
 * Before the log starts: credentials the checkout left in the repository's config become secrets. Not a
 * repository (the run says so later): none.
 */
export async function learnPersistedCredentials(settings: Settings): Promise<Settings> {
  const found = await createGit(settings.repoDir).persistedCredentials().catch(() => [])
  return withCredentialsLearned(settings, found)
}

export function runWithRealPorts(settings: Settings, log: Logger, dependencyCache: DependencyCache | null = null, destination: SuiteDestination | null = null): Promise<Outcome> {
  const ledger = new UsageLedger()
  return runPipeline(settings, {
    git: createGit(settings.repoDir),
    sandboxes: createSandboxProvider(),
    model: settings.model ? createModel(settings.model, ledger, log) : null,
    ledger,
    log,
    dependencyCache,
    destination
  })
}

function createModel(settings: ModelSettings, ledger: UsageLedger, log: Logger): ModelPort {
  // Inside the response cache: a reply it replays is no call to wait for.
  const model = withCallProgress(createAnthropicModel(settings, ledger), log)
  if (!settings.responseCacheDir) return model
  return withResponseCache(model, { dir: settings.responseCacheDir, modelIdentity: `${settings.model} max_tokens=${settings.maxTokens}`, ledger })
}
