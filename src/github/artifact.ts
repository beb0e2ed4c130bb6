/**
 * The run's output folder as one artifact: report.json, report.md, run.log, the suite at its repo paths and,
 * when the fix may be incomplete, the concern tests (concerns/).
 * Uploaded whatever the verdict, so a failed or errored run loses nothing; an upload failure only warns.
 */
import { DefaultArtifactClient } from '@actions/artifact'
import { existsSync } from 'node:fs'
import { readdir } from 'node:fs/promises'
import { join } from 'node:path'
import type { Logger } from '../ports/logger.js'
import { LOCK_FILE, MARKER_FILE } from '../ports/out-folder.js'

/** The part of @actions/artifact used here. */
export interface ArtifactService {
  uploadArtifact(name: string, files: string[], rootDirectory: string, options?: { retentionDays?: number }): Promise<{ id?: number; size?: number }>
}

export interface ArtifactOptions {
  name: string
  retentionDays: number | undefined
}

export interface UploadedArtifact {
  id: number
  /** Where a reader downloads it, when the run's address is known. */
  url: string | null
}

export async function uploadRunArtifact(outDir: string, options: ArtifactOptions, log: Logger, service: ArtifactService = new DefaultArtifactClient()): Promise<UploadedArtifact | null> {
  const files = await filesUnder(outDir)
  if (files.length === 0) return null
  try {
    const { id, size } = await service.uploadArtifact(options.name, files, outDir, { retentionDays: options.retentionDays })
    if (id === undefined) return null
    log.info(`Artifact ${options.name} (${files.length} file(s), ${size ?? '?'} bytes) uploaded as #${id}`)
    return { id, url: artifactUrl(id) }
  } catch (error) {
    log.warn(`The artifact ${options.name} was not uploaded: ${(error as Error).message}. The files stay in ${outDir}.`)
    return null
  }
}

function artifactUrl(id: number): string | null {
  const { GITHUB_SERVER_URL: server = 'https://github.com', GITHUB_REPOSITORY: repository, GITHUB_RUN_ID: runId } = process.env
  return repository && runId ? `${server}/${repository}/actions/runs/${runId}/artifacts/${id}` : null
}

async function filesUnder(dir: string): Promise<string[]> {
  if (!existsSync(dir)) return []
  const entries = await readdir(dir, { recursive: true, withFileTypes: true })
  // The folder's marker and lock are the tool's bookkeeping, not results.
  const bookkeeping = new Set([join(dir, MARKER_FILE), join(dir, LOCK_FILE)])
  return entries.filter((entry) => entry.isFile()).map((entry) => join(entry.parentPath, entry.name)).filter((file) => !bookkeeping.has(file))
}
