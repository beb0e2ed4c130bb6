/** Wires the real ports to the pipeline: shared by the CLI and the action. */
import { createAnthropicModel } from './model/anthropic.js'
import { UsageLedger } from './model/model-port.js'
import { runPipeline, type Logger, type Outcome } from './pipeline.js'
import { createGit } from './ports/git.js'
import { createProcessRunner } from './ports/process.js'
import type { Settings } from './settings.js'

export function runWithRealPorts(settings: Settings, log: Logger): Promise<Outcome> {
  const ledger = new UsageLedger()
  return runPipeline(settings, {
    git: createGit(settings.repoDir),
    processes: createProcessRunner(),
    model: settings.model ? createAnthropicModel(settings.model, ledger) : null,
    ledger,
    log
  })
}
