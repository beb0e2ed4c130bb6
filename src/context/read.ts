/**
 * Files read for the context, bounded: a file over the size limit is not read at all (its size asked of git
 * first), and once the context has read its total, no more. Whatever a pull request adds, context building
 * then parses a bounded amount of text, so it ends in bounded time. Which files fit in the total is decided
 * in the order they were asked for, never by timing: the same input gives the same context (and cache key).
 */
import type { GitCommands } from '../ports/git.js'

/** One file shown beyond its hunks is parsed only up to this size (a 100,000-line module is ~3 MB). */
export const MAX_FILE_BYTES = 4 * 1024 * 1024
/** All files the context reads together. */
export const MAX_READ_BYTES = 16 * 1024 * 1024

/** A file's content and size in bytes: content null when left unread for its size, both null when missing. */
export interface FileRead {
  content: string | null
  size: number | null
}

export interface FileReader {
  read(commit: string, path: string): Promise<FileRead>
  /** The content, or null when missing or left unread. */
  text(commit: string, path: string): Promise<string | null>
}

export function boundedReader(git: GitCommands, limits = { file: MAX_FILE_BYTES, total: MAX_READ_BYTES }): FileReader {
  const reads = new Map<string, Promise<FileRead>>()
  let decided: Promise<unknown> = Promise.resolve()
  let left = limits.total
  // Sizes are asked and contents read in parallel; only the decision to read is taken in call order.
  const admit = (size: Promise<number | null>) => {
    const admitted = decided.then(async () => {
      const bytes = await size
      if (bytes === null || bytes > Math.min(limits.file, left)) return false
      left -= bytes
      return true
    })
    decided = admitted.catch(() => undefined)
    return admitted
  }
  const readNow = async (commit: string, path: string): Promise<FileRead> => {
    const size = git.blobSize(commit, path)
    if (!(await admit(size))) return { content: null, size: await size }
    const content = await git.fileAt(commit, path)
    return { content, size: content === null ? null : await size }
  }
  const read = (commit: string, path: string) => {
    const key = `${commit}:${path}`
    if (!reads.has(key)) reads.set(key, readNow(commit, path))
    return reads.get(key)!
  }
  return { read, text: async (commit, path) => (await read(commit, path)).content }
}
