/** The deliver stage on a real repository, with a scripted destination: which mode, the fallback to the patch, and the reasons. */
import { existsSync, readFileSync } from 'node:fs'
import { mkdtemp } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import type { ChangeSet, ClassifiedTest, SuiteFile } from '../../src/domain.js'
import { DELIVERY_MARKER, type Delivery, type DeliverMode, type PushResult, type SuiteDestination } from '../../src/deliver/delivery.js'
import { deliverSuite, type DeliverContext } from '../../src/deliver/stage.js'
import { createGit } from '../../src/ports/git.js'
import { emptyReport, type Report } from '../../src/report/report.js'
import { linesLogger } from '../support/cli-run.js'
import { scratchRepo } from '../support/scratch-repo.js'

const repo = scratchRepo('rtg-deliver-stage-')
beforeEach(() => repo.git('init', '-q'))
const SUITE = 'test/regression/issue-7.test.js'

const test_ = (file: string, name: string, kind: ClassifiedTest['kind']): ClassifiedTest => ({ file, name, head: 'passed', preFix: kind === 'fail-to-pass' ? 'failed' : 'passed', kind, flaky: false, message: '', scenario: null, preFixFailure: null, preFixFailureLine: null })

/** A recording destination: refuses with `refusal`, else pushes to a made-up URL. */
function destination(refusal: string | null = null): SuiteDestination & { pushes: Array<{ delivery: Delivery; mode: string }> } {
  const pushes: Array<{ delivery: Delivery; mode: string }> = []
  return {
    pushes,
    async push(delivery, mode): Promise<PushResult> {
      pushes.push({ delivery, mode })
      return refusal ? { pushed: false, reason: refusal } : { pushed: true, url: `https://github.example/o/r/${mode}/1` }
    }
  }
}

async function setUp(headMessage = 'fix: the bug') {
  const base = await repo.commit({ 'src/a.js': 'module.exports = 1\n' })
  await repo.commit({ 'src/a.js': 'module.exports = 2\n' })
  repo.git('-c', 'user.name=t', '-c', 'user.email=t@t', 'commit', '--amend', '-qm', headMessage)
  const head = repo.git('rev-parse', 'HEAD')
  const changeSet: ChangeSet = { base, head, mergeBase: base, files: [{ path: 'src/a.js', basePath: 'src/a.js', status: 'modified', role: 'source', hunks: [] }] }
  const report: Report = { ...emptyReport('generate', repo.dir, base, head), verdict: 'fail-to-pass', reason: null }
  report.tests = [test_(SUITE, 'a › fails before the fix', 'fail-to-pass'), test_(SUITE, 'a › still works', 'pass-to-pass')]
  report.bugReport = { title: 'a is wrong (#7)', source: 'issue-text', truncated: false }
  const suite: SuiteFile[] = [{ path: SUITE, content: "test('x', () => {})\n", tests: [] }]
  return { changeSet, report, suite }
}

async function deliverWith(deliver: DeliverMode, overrides: Partial<DeliverContext> = {}, headMessage?: string) {
  const { changeSet, report, suite } = await setUp(headMessage)
  const outDir = await mkdtemp(join(tmpdir(), 'rtg-deliver-out-'))
  const lines: string[] = []
  const context: DeliverContext = { mode: 'generate', deliver, outDir, links: null, issueReferences: [], report, suite, concerns: [], changeSet, git: createGit(repo.dir), destination: null, log: linesLogger(lines), ...overrides }
  const outcome = await deliverSuite(context)
  const patchPath = join(outDir, 'suite.patch')
  return { ...outcome, lines, patch: existsSync(patchPath) ? readFileSync(patchPath, 'utf8') : null }
}

test('patch: suite.patch adds the deliverable files, and the log says where', async () => {
  const run = await deliverWith('patch')
  expect(run.record).toEqual({ mode: 'patch', files: [SUITE], url: null, reason: null })
  expect(run.patch).toContain(`+++ b/${SUITE}\n@@ -0,0 +1 @@\n+test('x', () => {})\n`)
  expect(run.files.map((file) => file.path)).toEqual([SUITE])
  expect(run.lines).toContain(`Delivery: suite.patch in the output folder adds 1 file(s): ${SUITE}; apply it at the head with \`git apply suite.patch\``)
})

test('commit: the destination gets the files, the message with the marker, and the head as the parent', async () => {
  const to = destination()
  const run = await deliverWith('commit', { destination: to })
  expect(run.record).toEqual({ mode: 'commit', files: [SUITE], url: 'https://github.example/o/r/commit/1', reason: null })
  expect(to.pushes).toHaveLength(1)
  const { delivery, mode } = to.pushes[0]
  expect(mode).toBe('commit')
  expect(delivery.head).toBe(repo.git('rev-parse', 'HEAD'))
  expect(delivery.title).toBe('test: regression tests for a is wrong (#7)')
  expect(delivery.body.endsWith(`\n\n${DELIVERY_MARKER}`)).toBe(true)
  expect(delivery.files.map((file) => file.path)).toEqual([SUITE])
  // The record of what the commit added.
  expect(run.patch).toContain(`+++ b/${SUITE}`)
  expect(run.lines).toContain(`Delivery: committed with 1 file(s): ${SUITE}: https://github.example/o/r/commit/1`)
})

test('a refused push falls back to the patch, with the refusal as the reason', async () => {
  const to = destination('the head branch is in a fork')
  const run = await deliverWith('pull-request', { destination: to })
  expect(to.pushes.map((push) => push.mode)).toEqual(['pull-request'])
  expect(run.record).toEqual({ mode: 'patch', files: [SUITE], url: null, reason: 'the head branch is in a fork' })
  expect(run.patch).toContain(`+++ b/${SUITE}`)
  expect(run.lines).toContain('warning: Could not deliver the suite as a pull-request: the head branch is in a fork. It is in suite.patch instead')
})

test('a push that throws is a refusal too: the patch, never a lost verdict', async () => {
  const throwing: SuiteDestination = { push: async () => Promise.reject(new Error('socket hang up')) }
  const run = await deliverWith('commit', { destination: throwing })
  expect(run.record).toEqual({ mode: 'patch', files: [SUITE], url: null, reason: 'the push failed: socket hang up' })
})

test('the CLI has no destination: commit becomes the patch, saying why', async () => {
  const run = await deliverWith('commit')
  expect(run.record).toMatchObject({ mode: 'patch', reason: 'commit needs the action (it pushes through the GitHub API); here the suite is a patch' })
})

test('nothing is delivered, each time with its reason, and no patch is written', async () => {
  const to = destination()
  const artifact = await deliverWith('artifact', { destination: to })
  expect(artifact.record).toEqual({ mode: 'none', files: [], url: null, reason: 'deliver: artifact — the suite is in the artifact and the output folder (suite/)' })
  const verify = await deliverWith('commit', { destination: to, mode: 'verify' })
  expect(verify.record.reason).toBe("verify mode: the pull request's own tests are already in it")
  const { report } = await setUp()
  const unproven = await deliverWith('commit', { destination: to, report: { ...report, verdict: 'no-fail-to-pass' } })
  expect(unproven.record.reason).toBe('the verdict is no-fail-to-pass, not fail-to-pass: only a proven suite is delivered (it stays in the artifact)')
  const own = await deliverWith('commit', { destination: to }, `test: regression tests for a\n\nbody\n\n${DELIVERY_MARKER}\n`)
  expect(own.record).toEqual({ mode: 'none', files: [], url: null, reason: "this is regression-testgen's own commit: its suite is already in it" })
  expect(own.lines).toContain("Delivery: none (this is regression-testgen's own commit: its suite is already in it)")
  for (const run of [artifact, verify, unproven, own]) expect(run.patch).toBeNull()
  expect(to.pushes).toHaveLength(0)
})

test('a file left out says why; with none left, nothing is delivered', async () => {
  const { report } = await setUp()
  const flaky = { ...report, tests: [{ ...report.tests[0], kind: 'flaky' as const, flaky: true }] }
  const run = await deliverWith('patch', { report: flaky })
  expect(run.record).toMatchObject({ mode: 'none', files: [], reason: `no file could be delivered: ${SUITE} (1 of its 1 test(s) neither fail-to-pass nor pass-to-pass (a › fails before the fix: flaky))` })
  expect(run.lines).toContain(`Delivery: ${SUITE} left out: 1 of its 1 test(s) neither fail-to-pass nor pass-to-pass (a › fails before the fix: flaky)`)
  expect(run.patch).toBeNull()
})

test('a failure inside the stage is a warning and nothing delivered, never an exception', async () => {
  const broken = { listFiles: async () => Promise.reject(new Error('git broke')), commitMessage: async () => 'fix' }
  const run = await deliverWith('patch', { git: broken })
  expect(run.record).toEqual({ mode: 'none', files: [], url: null, reason: 'the delivery failed: git broke' })
  expect(run.lines).toContain("warning: Could not deliver the suite (git broke); it stays in the output folder's suite/")
})
