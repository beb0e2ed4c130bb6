/** Folders a test runner writes its reports into. */
import { chmod, mkdir } from 'node:fs/promises'

/**
 * Makes a folder the runner's processes can write, whoever they run as: in the sandbox they are another
 * user than the tool that makes the folder. It sits in the run's own folder, which only the tool and the
 * sandbox can reach.
 */
export async function makeRunnerFolder(dir: string): Promise<void> {
  await mkdir(dir, { recursive: true })
  await chmod(dir, 0o777)
}
