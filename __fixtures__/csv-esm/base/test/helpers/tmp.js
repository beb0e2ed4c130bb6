import { mkdir, rm } from 'node:fs/promises'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'

// One scratch folder for the file tests: the test script runs the test files one at a time.
const TMP = fileURLToPath(new URL('../.tmp/', import.meta.url))

export const tmpPath = (name) => join(TMP, name)

export async function freshTmp() {
  await rm(TMP, { recursive: true, force: true })
  await mkdir(TMP, { recursive: true })
}
