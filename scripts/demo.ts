/**
 * `npm run demo`: the whole pipeline on the bundled example (bug #4471). Without ANTHROPIC_API_KEY the
 * model is scripted — a local fake of the Messages API serving __fixtures__/retry-budget/model/ — and the
 * demo says so; with the key set it asks the real API.
 */
import { readFile, rm, writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import { runCli } from '../src/cli.js'
import { startFakeAnthropic } from '../test/support/fake-anthropic.js'
import { buildFixtureRepo } from '../test/support/fixture-repo.js'
import { byStage, fixtureAnswers } from '../test/support/scripted-model.js'

const demoDir = join(process.cwd(), 'demo-out')
// The output has a folder of its own beside the repository: the tool writes only into a folder it made.
const outDir = join(demoDir, 'out')
await rm(demoDir, { recursive: true, force: true })
const repo = await buildFixtureRepo('retry-budget', { dir: join(demoDir, 'repo'), withFixTest: false })

const realKey = process.env.ANTHROPIC_API_KEY
const fake = realKey ? null : await startFakeAnthropic(byStage(fixtureAnswers('retry-budget')))
console.error(
  fake
    ? 'No ANTHROPIC_API_KEY: using a SCRIPTED model (a local fake of the Messages API on 127.0.0.1 serving __fixtures__/retry-budget/model/). No key, no network.\n'
    : 'ANTHROPIC_API_KEY is set: asking the real Anthropic API.\n'
)
const env = fake ? { ...process.env, ANTHROPIC_API_KEY: 'scripted-demo', ANTHROPIC_BASE_URL: fake.baseURL } : process.env
try {
  process.exitCode = await runCli(
    // The example and its bug report are ours, so its tests may run unsandboxed where no sandbox can start.
    ['--repo', repo.dir, '--base', repo.base, '--head', repo.head, '--issue', repo.issuePath, '--out', outDir, '--allow-unisolated-tests'],
    env
  )
} finally {
  await fake?.close()
}
await printReport()

/** report.md; a scripted model's tokens are the script's, so no price is put on them. */
async function printReport(): Promise<void> {
  const path = join(outDir, 'report.md')
  let markdown = await readFile(path, 'utf8').catch(() => null)
  if (markdown === null) return
  if (fake) {
    markdown = markdown.replace(/, ≈ \$[\d.]+ at list prices;/, ', no cost (a scripted model);')
    await writeFile(path, markdown)
  }
  process.stdout.write(markdown)
}
