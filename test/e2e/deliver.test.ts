/**
 * The deliver stage from the command line (issue 24): `--deliver patch` through the bundled CLI gives a
 * suite.patch that applies at a real checkout of the head, and `--apply` writes exactly the delivered files
 * into the working tree. Run `npm run build` first.
 */
import { execFileSync } from 'node:child_process'
import { existsSync, mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { dirname, join } from 'node:path'
import { runCli } from '../../src/cli.js'
import { linesLogger, runBundledCliOnFixture, runCliOnFixture } from '../support/cli-run.js'
import { fixtureAnswers } from '../support/scripted-model.js'

const SUITE_PATH = 'test/regression/issue-4471.test.ts'
const git = (dir: string, ...args: string[]) => execFileSync('git', args, { cwd: dir, encoding: 'utf8', stdio: 'pipe' })
/** Every change of the working tree, one entry per file (untracked ones too). */
const status = (dir: string) => git(dir, 'status', '--porcelain', '--untracked-files=all', '-z').split('\0').filter(Boolean)

test('--deliver patch: suite.patch applies at the head with git apply, giving exactly the delivered files', async () => {
  const run = await runBundledCliOnFixture('retry-budget', { generate: true, args: ['--deliver', 'patch'] })
  expect(run.exitCode).toBe(0)
  expect(run.report.verdict).toBe('fail-to-pass')
  expect(run.report.delivery).toEqual({ mode: 'patch', files: [SUITE_PATH], url: null, reason: null })
  expect(run.markdown).toContain(`📬 **Delivered as a patch**: \`suite.patch\` in the output folder (and the artifact) adds \`${SUITE_PATH}\`; \`git apply suite.patch\` at the head.`)
  expect(run.runLog).toContain(`Delivery: suite.patch in the output folder adds 1 file(s): ${SUITE_PATH}; apply it at the head with \`git apply suite.patch\``)
  // The checkout is at the head and clean: the patch is all that changes it.
  expect(git(run.repo.dir, 'rev-parse', 'HEAD').trim()).toBe(run.report.repository.head)
  expect(status(run.repo.dir)).toEqual([])
  const patch = join(run.outDir, 'suite.patch')
  git(run.repo.dir, 'apply', '--check', patch)
  git(run.repo.dir, 'apply', patch)
  expect(status(run.repo.dir)).toEqual([`?? ${SUITE_PATH}`])
  expect(readFileSync(join(run.repo.dir, SUITE_PATH), 'utf8')).toBe(readFileSync(join(run.outDir, 'suite', SUITE_PATH), 'utf8'))
})

test('--apply: the delivered files land in the working tree, and git status shows exactly them', async () => {
  const run = await runBundledCliOnFixture('retry-budget', { generate: true, args: ['--apply'] })
  expect(run.exitCode).toBe(0)
  expect(run.report.delivery).toEqual({ mode: 'patch', files: [SUITE_PATH], url: null, reason: null })
  expect(status(run.repo.dir)).toEqual([`?? ${SUITE_PATH}`])
  expect(readFileSync(join(run.repo.dir, SUITE_PATH), 'utf8')).toBe(readFileSync(join(run.outDir, 'suite', SUITE_PATH), 'utf8'))
  expect(run.log).toContain(`--apply: wrote 1 new file(s) into ${run.repo.dir}: ${SUITE_PATH}. Review them with \`git status\` (untracked), or \`git add --intent-to-add\` them and \`git diff\``)
})

test('--apply writes nothing when a delivered path is taken in the working tree, and says why (exit 2)', async () => {
  const mine = "// the user's own work in progress\n"
  const run = await runCliOnFixture({
    script: fixtureAnswers('retry-budget'),
    args: ['--apply'],
    range: async (repo) => {
      // Untracked: the head has no file there, so the suite is placed and proven there.
      mkdirSync(dirname(join(repo.dir, SUITE_PATH)), { recursive: true })
      writeFileSync(join(repo.dir, SUITE_PATH), mine)
      return repo
    }
  })
  expect(run.report.verdict).toBe('fail-to-pass')
  expect(run.exitCode).toBe(2)
  expect(run.log).toContain(`error: regression-testgen: --apply wrote nothing: ${SUITE_PATH} (a file already exists there) (move or remove what is in the way, or apply suite.patch from the output folder by hand)`)
  expect(readFileSync(join(run.repo.dir, SUITE_PATH), 'utf8')).toBe(mine)
  expect(status(run.repo.dir)).toEqual([`?? ${SUITE_PATH}`])
  expect(existsSync(join(run.outDir, 'suite.patch'))).toBe(true)
})

test('--apply on a run that proves nothing writes nothing, and says why', async () => {
  const answers = fixtureAnswers('retry-budget')
  const passesOnBothTrees = { tool_use: { name: 'write_test_files', input: { files: [{ path: SUITE_PATH, content: "it('holds', () => {\n  expect(1).toBe(1)\n})\n", tests: [] }] } } }
  const run = await runCliOnFixture({ script: { ...answers, 'write-tests': passesOnBothTrees, strengthen: passesOnBothTrees }, args: ['--apply'] })
  expect(run.report.verdict).toBe('no-fail-to-pass')
  expect(run.report.delivery).toEqual({ mode: 'none', files: [], url: null, reason: 'the verdict is no-fail-to-pass, not fail-to-pass: only a proven suite is delivered (it stays in the artifact)' })
  expect(run.log).toContain('--apply: nothing to write (the verdict is no-fail-to-pass, not fail-to-pass: only a proven suite is delivered (it stays in the artifact))')
  expect(status(run.repo.dir)).toEqual([])
  expect(existsSync(join(run.outDir, 'suite.patch'))).toBe(false)
})

test('commit and pull-request are the action\'s: the CLI refuses them before any work, naming --deliver', async () => {
  const scratch = mkdtempSync(join(tmpdir(), 'rtg-deliver-flags-'))
  const out = join(scratch, 'out')
  const refusal = async (...args: string[]) => {
    const lines: string[] = []
    const code = await runCli([...args, '--repo', scratch, '--base', 'main', '--head', 'fix', '--out', out], { ANTHROPIC_API_KEY: 'sk-test-key-0123456789' }, linesLogger(lines))
    return { code, lines }
  }
  expect(await refusal('--deliver', 'commit')).toEqual({
    code: 2,
    lines: ["error: regression-testgen: Invalid --deliver: commit needs the action (it pushes through the GitHub API with the workflow's token); on the command line use artifact or patch, and --apply to write the files into the working tree (see --help)"]
  })
  expect((await refusal('--deliver', 'pull-request')).lines[0]).toContain('Invalid --deliver: pull-request needs the action')
  expect((await refusal('--deliver', 'zip')).lines[0]).toContain('Invalid --deliver: ')
  expect(await refusal('--apply', '--deliver', 'artifact')).toEqual({ code: 2, lines: ['error: regression-testgen: Invalid --apply: it writes the files a patch adds: use it with --deliver patch (or no --deliver), not artifact (see --help)'] })
  expect(existsSync(out)).toBe(false)
})
