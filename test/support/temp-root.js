/**
 * One temporary folder for the whole test run, removed at its end: every fixture repository, report
 * folder and runner scratch folder the tests make goes there (workers inherit TMPDIR), so a run leaves
 * nothing behind in the machine's /tmp, even where a test does not clean up after itself.
 */
import { chmodSync, mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'

export default function setup() {
  const root = mkdtempSync(join(tmpdir(), 'rtg-tests-'))
  // Like /tmp itself (mkdtemp makes it 0700): the sandbox's user reaches it, and a test may write there.
  chmodSync(root, 0o1777)
  globalThis.__RTG_TEMP_ROOT__ = root
  process.env.TMPDIR = root
}

export function teardown() {
  if (globalThis.__RTG_TEMP_ROOT__) rmSync(globalThis.__RTG_TEMP_ROOT__, { recursive: true, force: true })
}
