/** Paths as text: where one lies relative to another. */
import { isAbsolute, relative } from 'node:path'

/** Whether `path` is `folder` or lies inside it. */
export function isWithin(path: string, folder: string): boolean {
  const fromFolder = relative(folder, path)
  return fromFolder === '' || (!fromFolder.startsWith('..') && !isAbsolute(fromFolder))
}
