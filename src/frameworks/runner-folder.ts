/** Folders a test runner writes its reports into, and the folder of files the tool hands it. */
import { mkdir } from 'node:fs/promises'
import { basename, dirname } from 'node:path'
import { makeFolderInside } from '../ports/sandbox-writes.js'

/**
 * Makes a folder the runner's processes can write, whoever they run as: in the sandbox they are another
 * user than the tool that makes the folder. It sits in the run's own folder, which only the tool and the
 * sandbox can reach. `dir`'s parent is a folder the sandbox cannot replace (the tool's, made if missing);
 * `dir` itself may be one an earlier run could write into, so it is checked, not followed (a planted link
 * would have the tool open its target to everyone).
 */
export async function makeRunnerFolder(dir: string): Promise<void> {
  await madeByTheTool(dirname(dir))
  await makeFolderInside(dirname(dir), basename(dir), 0o777)
}

/**
 * A folder for files the tool hands the runner (config wrappers): the sandbox may read them but not
 * write them, so a test cannot change what the next run loads. Next to the scratch folder, never in it.
 */
export async function makeRunnerConfigFolder(scratchDir: string): Promise<string> {
  await madeByTheTool(dirname(scratchDir))
  return makeFolderInside(dirname(scratchDir), `${basename(scratchDir)}.config`, 0o755)
}

/** The tool's own folder above the runner's (the run's `runs` folder): made if missing. */
async function madeByTheTool(dir: string): Promise<void> {
  await mkdir(dir, { recursive: true })
}
