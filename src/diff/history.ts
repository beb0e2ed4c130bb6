/**
 * The diff needs both commits and the history between them. A shallow checkout (actions/checkout's default
 * depth 1) has neither: fetch them from origin, and say so.
 */
import type { Logger } from '../ports/logger.js'
import type { GitCommands } from '../ports/git.js'

export async function ensureHistory(git: GitCommands, base: string, head: string, log: Logger): Promise<void> {
  const missing: string[] = []
  for (const ref of [base, head]) if (!(await git.hasCommit(ref))) missing.push(ref)
  const shallow = await git.isShallow()
  if (missing.length === 0 && !shallow) return
  const why = missing.length ? `lacks ${missing.join(' and ')}` : 'is shallow'
  log.info(`The checkout ${why}: fetching the history from origin (use fetch-depth: 0 in actions/checkout to skip this).`)
  await git.fetchCommits([base, head]).catch((error: Error) => log.warn(`Fetching the history failed: ${error.message}`))
}
