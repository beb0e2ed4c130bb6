/**
 * Files the repository marks generated in its .gitattributes: `linguist-generated` (GitHub folds their
 * diffs) or `-diff` (git shows none). They are not the fix's code: not reverted in the pre-fix tree, not
 * counted in diff coverage, not shown to the model, not hunks to guard. A test file stays a test.
 */
import type { ChangedFile } from '../domain.js'
import type { GitCommands } from '../ports/git.js'

const ATTRIBUTES = ['linguist-generated', 'diff']

/** The changed files (tests aside) the head commit's attributes mark generated, as role `generated` and without hunks. */
export async function markGenerated(git: GitCommands, head: string, files: ChangedFile[]): Promise<ChangedFile[]> {
  const candidates = files.filter((file) => file.role !== 'test').map((file) => file.path)
  const attributes = await git.attributesAt(head, candidates, ATTRIBUTES)
  return files.map((file) => (file.role !== 'test' && isGenerated(attributes.get(file.path)) ? { ...file, role: 'generated', hunks: [] } : file))
}

/** `linguist-generated` set or `=true`; `-diff` (also through the `binary` macro). */
export function isGenerated(attributes: Record<string, string> | undefined): boolean {
  if (!attributes) return false
  return ['set', 'true'].includes(attributes['linguist-generated']) || attributes.diff === 'unset'
}

/** The first few paths and how many more: a change may hold thousands of generated files. */
export function briefList(paths: string[], format: (path: string) => string = (path) => path, shown = 10): string {
  const more = paths.length > shown ? ` and ${paths.length - shown} more` : ''
  return paths.slice(0, shown).map(format).join(', ') + more
}
