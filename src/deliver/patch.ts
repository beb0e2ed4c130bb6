/**
 * suite.patch (issue 24 item 4): a `git apply`-able patch against the head that adds the delivered files,
 * each a new regular file (mode 100644), in git's own diff format.
 */
import { createHash } from 'node:crypto'
import type { SuiteFile } from '../domain.js'

export const PATCH_FILE = 'suite.patch'

export function suitePatch(files: SuiteFile[]): string {
  return files.map(newFileDiff).join('')
}

function newFileDiff(file: SuiteFile): string {
  const a = quotedPath(`a/${file.path}`)
  const b = quotedPath(`b/${file.path}`)
  const header = `diff --git ${a} ${b}\nnew file mode 100644\nindex 0000000..${blobId(file.content).slice(0, 12)}\n`
  // An empty file is the header alone, as git writes it.
  if (file.content === '') return header
  const lines = file.content.split('\n')
  const endsWithNewline = lines.at(-1) === ''
  if (endsWithNewline) lines.pop()
  const added = lines.map((line) => `+${line}\n`).join('')
  return `${header}--- /dev/null\n+++ ${b}\n@@ -0,0 +1${lines.length === 1 ? '' : `,${lines.length}`} @@\n${added}${endsWithNewline ? '' : '\\ No newline at end of file\n'}`
}

/** The blob's id, as `git hash-object` gives it: the index line lets `git apply --3way` find the blob. */
const blobId = (content: string) => {
  const bytes = Buffer.from(content, 'utf8')
  return createHash('sha1').update(`blob ${bytes.length}\0`).update(bytes).digest('hex')
}

/**
 * A path git would quote (a double quote or a backslash; control characters never pass file-path.ts) is
 * written in git's C-style quotes; others as they are, UTF-8 included, which `git apply` reads.
 */
function quotedPath(path: string): string {
  if (!/["\\]/.test(path)) return path
  return `"${path.replace(/["\\]/g, '\\$&')}"`
}
