/**
 * A pull request's own ava test that fights the tool's reading of runner output, through the bundled CLI
 * in verify mode: while it runs it finds the TAP report its runner writes (the wrapper's argument) and
 * replaces it — with a link to a file only root may read, a FIFO, a file over the size limit — or drops a
 * deeply nested V8 coverage file where node writes coverage. The tool (root) must follow no link, never
 * block, and end the run with a clear error instead of a hang, a crash or the file's content in an output.
 */
import { execFile } from 'node:child_process'
import { chmod, mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { promisify } from 'node:util'
import { buildFixtureRepo, type FixtureRepo } from '../support/fixture-repo.js'
import { describeWhereSandboxed } from '../support/sandbox-probe.js'
import type { Report } from '../../src/report/report.js'

const root = join(import.meta.dirname ?? new URL('.', import.meta.url).pathname, '..', '..')
const ATTACK_TEST = 'test/attack.test.js'
// Long enough for a few runs of the tool; a run that hangs (the FIFO before the fix) is killed here.
const RUN_LIMIT_MS = 150_000

/** What the attacking test does with the report path (`report`) or the coverage folder (`coverageDir`). */
const ATTACKS = {
  link: (secret: string) => `fs.rmSync(report, { force: true }); fs.symlinkSync(${JSON.stringify(secret)}, report)`,
  fifo: () => `fs.rmSync(report, { force: true }); execFileSync('mkfifo', [report])`,
  oversized: () => `fs.rmSync(report, { force: true }); fs.writeFileSync(report, ''); fs.truncateSync(report, 40 * 1024 * 1024)`,
  nestedCoverage: () =>
    `if (coverageDir) fs.writeFileSync(coverageDir + '/coverage-99999-1-0.json', '{"result":' + '['.repeat(200000) + ']'.repeat(200000) + '}')`
}

/** An ava test (ESM, run in a worker thread of ava's process, whose parent is the tool's TAP wrapper). */
function attackTest(attack: string): string {
  return `import test from 'ava'
import fs from 'node:fs'
import { execFileSync } from 'node:child_process'
// The wrapper runs as \`node tap-to-file.mjs <report> <ava> …\`: find it up the process tree.
let report = null
for (let pid = process.ppid; pid > 0 && !report; ) {
  const args = fs.readFileSync('/proc/' + pid + '/cmdline', 'utf8').split('\\0')
  if ((args[1] || '').endsWith('tap-to-file.mjs')) report = args[2]
  pid = Number(/^PPid:\\s*(\\d+)/m.exec(fs.readFileSync('/proc/' + pid + '/status', 'utf8'))[1])
}
const coverageDir = process.env.NODE_V8_COVERAGE
test('an ordinary test', (t) => {
  if (report) { ${attack} }
  t.pass()
})
`
}

async function pullRequestWithAttack(attack: string): Promise<FixtureRepo> {
  // Without c8, ava's coverage run is node's own V8 coverage, which the tool reads itself.
  return buildFixtureRepo('paginate-ava', { headChanges: { [ATTACK_TEST]: attackTest(attack) }, withoutPackages: ['c8'] })
}

async function runBundledVerify(repo: FixtureRepo, out: string) {
  return promisify(execFile)(process.execPath, [join(root, 'dist/cli/index.js'), 'verify', '--repo', repo.dir, '--base', repo.base, '--head', repo.head, '--out', out], {
    env: { PATH: process.env.PATH, HOME: process.env.HOME },
    timeout: RUN_LIMIT_MS,
    killSignal: 'SIGKILL'
  }).then(
    (result) => ({ code: 0, killed: false, ...result }),
    (error: { code: number; killed?: boolean; stdout: string; stderr: string }) => ({ code: error.code, killed: error.killed === true, stdout: error.stdout, stderr: error.stderr })
  )
}

/** Every file the run wrote, with its stdout and stderr. */
async function everythingWritten(out: string, run: { stdout: string; stderr: string }): Promise<string> {
  const entries = await readdir(out, { recursive: true, withFileTypes: true })
  const files = entries.filter((entry) => entry.isFile()).map((entry) => join(entry.parentPath, entry.name))
  return [...(await Promise.all(files.map((file) => readFile(file, 'utf8')))), run.stdout, run.stderr].join('\n')
}

async function attackRun(attack: string) {
  const repo = await pullRequestWithAttack(attack)
  const out = await mkdtemp(join(tmpdir(), 'rtg-reads-out-'))
  try {
    const run = await runBundledVerify(repo, out)
    const report = JSON.parse(await readFile(join(out, 'report.json'), 'utf8')) as Report
    return { run, report, written: await everythingWritten(out, run) }
  } finally {
    await repo.cleanup()
  }
}

describeWhereSandboxed('a test that replaces its own runner output, through the bundled CLI', () => {
  const secretDir = { path: '' }
  beforeAll(async () => {
    secretDir.path = await mkdtemp(join(tmpdir(), 'rtg-root-only-'))
  })
  afterAll(async () => {
    await rm(secretDir.path, { recursive: true, force: true })
  })

  test('a link to a root-only file: not followed, its content nowhere, the run ends saying why', async () => {
    const secret = join(secretDir.path, 'root-only.txt')
    await writeFile(secret, 'ROOT-ONLY-CONTENT-7f3a9\nnot ok 1 - forged\n')
    await chmod(secret, 0o600)
    const { run, report, written } = await attackRun(ATTACKS.link(secret))
    expect(written).not.toContain('ROOT-ONLY-CONTENT-7f3a9')
    expect(report.verdict).toBe('error')
    expect(report.reason).toMatch(/^Refused to read \S+tap\S*, written by the repository's tests: it is a symbolic link/)
    expect(run.code).toBe(2)
  }, RUN_LIMIT_MS + 30_000)

  test('a FIFO: the run ends with a clear error instead of waiting for a writer', async () => {
    const { run, report } = await attackRun(ATTACKS.fifo())
    expect(run.killed).toBe(false)
    expect(report.verdict).toBe('error')
    expect(report.reason).toContain('it is not a regular file (a FIFO)')
    expect(run.code).toBe(2)
  }, RUN_LIMIT_MS + 30_000)

  test('a report over the size limit: refused, naming the limit', async () => {
    const { run, report } = await attackRun(ATTACKS.oversized())
    expect(report.verdict).toBe('error')
    expect(report.reason).toContain('it is 40 MB, over the 32 MB limit for this kind of report')
    expect(run.code).toBe(2)
  }, RUN_LIMIT_MS + 30_000)

  test('a deeply nested V8 coverage file: refused with its depth and the limit, no TypeError', async () => {
    const { run, report, written } = await attackRun(ATTACKS.nestedCoverage())
    expect(written).not.toContain('TypeError')
    expect(report.verdict).toBe('error')
    expect(report.reason).toMatch(/coverage-99999-1-0\.json, written by the repository's tests: its JSON nests 200001 levels deep \(the limit is 64\)/)
    expect(run.code).toBe(2)
  }, RUN_LIMIT_MS + 30_000)
})
