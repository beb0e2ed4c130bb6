/** node:test's files: which paths are tests, and whether a repository's tests import it. */
import { open, readdir } from 'node:fs/promises'
import { join, posix } from 'node:path'

// Node's default patterns (`**/*.test.?(c|m)js`, `*-test`, `*_test`, `test-*`, `test.js`, `**/test/**`), with
// their TypeScript variants: Node ≥ 22.18 strips types by default, and earlier ones run them with a loader.
const SCRIPT_FILE = /\.[cm]?[jt]s$/
const TEST_NAME = /^(?:.+[.\-_])?test\.[cm]?[jt]s$|^test-.+\.[cm]?[jt]s$/
// Never tests: installed packages and inputs of tests; in a test folder (where any script would run),
// the suite's helpers too, which a changed test then brings in as their users rather than running them.
const EXCLUDED_FOLDERS = new Set(['node_modules', 'fixtures', '__fixtures__'])
const HELPER_FOLDERS = new Set(['helpers', 'helper', 'support', 'mocks', '__mocks__'])
const HELPER_NAME = /^(?:setup|helpers?|bootstrap|global-setup|register)\.[cm]?[jt]s$/
const IMPORTS_NODE_TEST = /(?:\bfrom\s*|\bimport\s*\(\s*|\brequire\s*\(\s*)['"](?:node:)?test['"]/
const SCAN_LIMIT = 400

export function isNodeTestFile(path: string): boolean {
  const parts = path.split('/')
  const base = parts[parts.length - 1]
  const folders = parts.slice(0, -1)
  if (!SCRIPT_FILE.test(base) || base.endsWith('.d.ts') || base.startsWith('.')) return false
  if (folders.some((folder) => EXCLUDED_FOLDERS.has(folder))) return false
  if (TEST_NAME.test(base)) return true
  return folders.includes('test') && !folders.some((folder) => HELPER_FOLDERS.has(folder)) && !HELPER_NAME.test(base)
}

/** Whether a test file of the repository imports `node:test` (or its old name `test`). */
export async function importsNodeTest(repoDir: string): Promise<boolean> {
  for (const file of await testFiles(repoDir)) {
    if (IMPORTS_NODE_TEST.test(await head(join(repoDir, file)))) return true
  }
  return false
}

/** Test files by node's patterns, outside dot folders and node_modules, breadth first, at most SCAN_LIMIT. */
async function testFiles(repoDir: string): Promise<string[]> {
  const found: string[] = []
  const queue = ['']
  let seen = 0
  while (queue.length > 0 && seen < SCAN_LIMIT * 10 && found.length < SCAN_LIMIT) {
    const dir = queue.shift()!
    const entries = await readdir(join(repoDir, dir), { withFileTypes: true }).catch(() => [])
    for (const entry of entries) {
      seen++
      const path = posix.join(dir, entry.name)
      if (entry.isDirectory() && !entry.name.startsWith('.') && entry.name !== 'node_modules') queue.push(path)
      else if (entry.isFile() && isNodeTestFile(path)) found.push(path)
    }
  }
  return found
}

/** The start of a file, where its imports are. */
async function head(path: string): Promise<string> {
  const file = await open(path, 'r').catch(() => null)
  if (!file) return ''
  try {
    const { buffer, bytesRead } = await file.read(Buffer.alloc(16_384), 0, 16_384, 0)
    return buffer.subarray(0, bytesRead).toString('utf8')
  } finally {
    await file.close()
  }
}
