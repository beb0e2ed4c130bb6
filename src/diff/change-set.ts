/** The diff stage: `git diff base...head`, parsed with parse-diff, each file classified. */
import parseDiff from 'parse-diff'
import type { ChangeSet, ChangedFile, Hunk } from '../domain.js'
import type { GitCommands } from '../ports/git.js'
import { classifyFile } from './classify.js'
import { markGenerated } from './generated.js'

export async function readChangeSet(git: GitCommands, baseRef: string, headRef: string): Promise<ChangeSet> {
  const base = await git.resolveCommit(baseRef)
  const head = await git.resolveCommit(headRef)
  const mergeBase = await git.mergeBase(base, head)
  const files = await markGenerated(git, head, parseDiff(await git.diff(base, head)).map(toChangedFile))
  return { base, head, mergeBase, files }
}

function toChangedFile(file: parseDiff.File): ChangedFile {
  const from = cleanPath(file.from)
  const to = cleanPath(file.to)
  const status = file.new ? 'added' : file.deleted ? 'deleted' : from !== to ? 'renamed' : 'modified'
  const path = (status === 'deleted' ? from : to) ?? from ?? ''
  return {
    path,
    basePath: status === 'added' ? null : from,
    status,
    role: classifyFile(path),
    hunks: file.chunks.map(toHunk)
  }
}

function toHunk(chunk: parseDiff.Chunk): Hunk {
  const addedLines: number[] = []
  const removedLines: number[] = []
  for (const change of chunk.changes) {
    if (change.type === 'add') addedLines.push(change.ln)
    if (change.type === 'del') removedLines.push(change.ln)
  }
  return {
    header: chunk.content,
    base: { start: chunk.oldStart, end: chunk.oldStart + Math.max(chunk.oldLines - 1, 0) },
    head: { start: chunk.newStart, end: chunk.newStart + Math.max(chunk.newLines - 1, 0) },
    text: [chunk.content, ...chunk.changes.map((change) => change.content)].join('\n'),
    addedLines,
    removedLines
  }
}

function cleanPath(path: string | undefined): string | null {
  if (!path || path === '/dev/null') return null
  return path.replace(/^[ab]\//, '')
}

export const sourceFiles = (changeSet: ChangeSet) => changeSet.files.filter((file) => file.role === 'source')

/** The changed files .gitattributes marks generated (diff/generated.ts). */
export const generatedFiles = (changeSet: ChangeSet) => changeSet.files.filter((file) => file.role === 'generated').map((file) => file.path)

/**
 * Changed files the repository's own test command collects are its tests, whatever their names (a jest
 * `testMatch` of check files): they stay in the pre-fix tree and verify mode runs them. Never all the
 * changed code, though: a fix changes some source, and a rule that collects it all says nothing.
 */
export function withCollectedTests(changeSet: ChangeSet, collects: (path: string) => boolean | null): { changeSet: ChangeSet; moved: string[] } {
  const sources = sourceFiles(changeSet)
  const moved = sources.filter((file) => collects(file.path) === true).map((file) => file.path)
  if (moved.length === 0 || moved.length === sources.length) return { changeSet, moved: [] }
  const files = changeSet.files.map((file): ChangedFile => (moved.includes(file.path) ? { ...file, role: 'test' } : file))
  return { changeSet: { ...changeSet, files }, moved }
}
