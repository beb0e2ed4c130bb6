/**
 * In-process tests of the real @actions/cache and @actions/artifact against the fake results service. The
 * libraries read the runner's variables at each call and log workflow commands on stdout, so each test gets
 * its own work folder, the runner's variables (restored after it) and stdout captured, out of jest's output.
 */
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { actionsEnv, startFakeActionsServices, type FakeActionsOptions, type FakeActionsServices } from './fake-actions-services.js'

export interface FakeRunner {
  /** This test's work folder, also the runner's RUNNER_TEMP. */
  work(): string
  /** What the libraries printed on stdout during this test. */
  output(): string
  /** Starts the fake and points the runner's variables at it. */
  start(options?: FakeActionsOptions): Promise<FakeActionsServices>
}

/** Registers the jest hooks; call at the top of a test file. */
export function useFakeRunner(): FakeRunner {
  let services: FakeActionsServices | undefined
  let work = ''
  let output = ''
  let savedEnv: NodeJS.ProcessEnv = {}
  const realWrite = process.stdout.write.bind(process.stdout)
  beforeEach(async () => {
    work = await mkdtemp(join(tmpdir(), 'rtg-fake-runner-'))
    output = ''
    savedEnv = { ...process.env }
    process.stdout.write = ((chunk: string | Uint8Array) => ((output += chunk.toString()), true)) as typeof process.stdout.write
  })
  afterEach(async () => {
    process.stdout.write = realWrite
    process.env = savedEnv
    await services?.close()
    services = undefined
    await rm(work, { recursive: true, force: true })
  })
  return {
    work: () => work,
    output: () => output,
    async start(options) {
      services = await startFakeActionsServices(options)
      process.env = { ...process.env, ...actionsEnv(services), RUNNER_TEMP: work }
      return services
    }
  }
}

/** A folder holding these files (path → contents); returns the folder. */
export async function writeTree(dir: string, files: Record<string, string>): Promise<string> {
  for (const [path, contents] of Object.entries(files)) {
    await mkdir(join(dir, path, '..'), { recursive: true })
    await writeFile(join(dir, path), contents)
  }
  return dir
}
