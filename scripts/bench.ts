/**
 * `npm run bench`: on the bundled example, each phase's time (median of BENCH_RUNS runs, default 3), the
 * harness overhead — the share of a run spent outside the model and the test runs — and the pre-fix
 * tree made by worktree + dependency reuse against a fresh clone + install of the same commit.
 * The model is the scripted fake (answers at once), so the model phases here are the harness's own cost.
 * Then context building on a fix beside a rewritten table of 1k to 100k lines: its time and the context's size;
 * and the context's size for a one-function fix in a 2,400-line module (the budget rule in context/budget.ts).
 * Then what the model's repository reads cost on a repository of 2,000 files. Last, the dev cases' recorded
 * generate runs before and after issue 23 (bench/requests): tokens and estimated cost per stage and per run.
 */
import { execFile, spawnSync } from 'node:child_process'
import { readdirSync } from 'node:fs'
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { promisify } from 'node:util'
import { CONTEXT_BUDGET } from '../src/context/budget.js'
import { buildContext } from '../src/context/context.js'
import { createRepositoryView } from '../src/context/repository-view.js'
import { readChangeSet } from '../src/diff/change-set.js'
import { dependencyLinks } from '../src/execute/dependencies.js'
import { addPreFixTree, revertFix } from '../src/execute/trees.js'
import { frameworkFor } from '../src/frameworks/detect.js'
import { renderContext, renderConventions } from '../src/model/render.js'
import { createGit } from '../src/ports/git.js'
import { createSandboxProvider, sandboxCommand, unisolated, type Sandbox } from '../src/ports/sandbox.js'
import { findMountTools, privateMountsLink } from '../src/ports/private-mounts.js'
import { DEFAULT_LIMITS, prlimitOptions } from '../src/sandbox-limits.js'
import type { Report } from '../src/report/report.js'
import { runWithRealPorts } from '../src/run.js'
import { buildSettings } from '../src/settings.js'
import { startFakeAnthropic } from '../test/support/fake-anthropic.js'
import { buildLargeChange } from '../test/context/large-change.js'
import { buildLargeModule } from '../test/context/large-module.js'
import { buildFixtureRepo } from '../test/support/fixture-repo.js'
import { byStage, fixtureAnswers } from '../test/support/scripted-model.js'
import { TWO_HUNK_FIX } from '../test/support/two-hunk-fix.js'
import { printModelCost, printRecordedRunsCost } from './bench-cost.js'

const RUNS = Number(process.env.BENCH_RUNS ?? 3)
const MODEL_PHASES = ['analyse', 'scenarios', 'write-tests', 'repair', 'strengthen']
const TEST_RUN_PHASES = ['preflight', 'run-head', 'run-pre-fix']
const silent = { info: () => undefined, warn: (message: string) => console.error(message), error: (message: string) => console.error(message), debug: () => undefined }
const run = promisify(execFile)
const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]
const ms = (value: number) => `${Math.round(value)} ms`.padStart(9)

// The example's node_modules as installing its package.json makes it (jest, ts-jest, typescript and what
// they need), not all of this project's: the trees link each of its entries.
const repo = await buildFixtureRepo('retry-budget', { withFixTest: false, onlyDeclaredDependencies: true })
try {
  await pipelinePhases()
  await gateAndHunkTrees()
  await preFixTreeSpeedUp()
  await sandboxCost()
  await chainGroupsCost()
} finally {
  await repo.cleanup()
}
await contextBuilding()
await repositoryReads()
printRecordedRunsCost()

async function pipelinePhases(): Promise<void> {
  const reports: Report[] = []
  for (let i = 0; i < RUNS; i++) {
    const fake = await startFakeAnthropic(byStage(fixtureAnswers('retry-budget')))
    const out = await mkdtemp(join(tmpdir(), 'rtg-bench-'))
    const settings = buildSettings({ repo: repo.dir, base: repo.base, head: repo.head, out, apiKey: 'bench', baseURL: fake.baseURL, issueFile: repo.issuePath })
    reports.push((await runWithRealPorts(settings, silent)).report)
    await fake.close()
    await rm(out, { recursive: true, force: true })
  }
  const phases = [...new Set(reports.flatMap((report) => Object.keys(report.timings)))]
  const phase = (name: string) => median(reports.map((report) => report.timings[name] ?? 0))
  const total = median(reports.map((report) => report.durationMs))
  const sum = (report: Report, names: string[]) => names.reduce((spent, name) => spent + (report.timings[name] ?? 0), 0)
  // Each run's own overhead (its total less its own model and test runs): medians of different runs' phases do not add up.
  const overheads = reports.map((report) => report.durationMs - sum(report, MODEL_PHASES) - sum(report, TEST_RUN_PHASES))
  const shares = reports.map((report, index) => (100 * overheads[index]) / report.durationMs)
  console.log(`Pipeline on the bundled example, median of ${RUNS} run(s) (verdict ${reports[0].verdict}):`)
  for (const name of phases) console.log(`  ${name.padEnd(16)}${ms(phase(name))}`)
  console.log(`  ${'total'.padEnd(16)}${ms(total)}`)
  console.log(`  model phases ${ms(median(reports.map((report) => sum(report, MODEL_PHASES))))} · test runs ${ms(median(reports.map((report) => sum(report, TEST_RUN_PHASES))))} · harness overhead ${ms(median(overheads))}`)
  console.log(`Harness overhead share: ${median(shares).toFixed(1)}% of the run is outside the model and the test runs (preflight, the gate's runs); each run's: ${shares.map((share) => `${share.toFixed(1)}%`).join(', ')}`)
  console.log(`Preflight share: ${((100 * phase('preflight')) / total).toFixed(1)}% of the run (one existing test file at head with the import check's, before any model call; the import check's pre-fix run, ${ms(phase('import-check')).trim()}, starts beside it)`)
  console.log(`Dependency links: ${ms(phase('dependency-links')).trim()} to link the example's ${nodeModulesEntries()} node_modules entries (its package.json's dependencies and theirs) once for the run's trees, beside fetching the history, reading the diff and opening the sandbox; prepare-trees is what the trees took after the sandbox opened`)
  const capture = median(reports.map((report) => report.runner?.durationMs ?? 0))
  console.log(`Capture share: ${((100 * phase('capture')) / total).toFixed(1)}% of the run (\`npm test\` asked at head how it starts its runner, on the pre-fix tree only where the fix reverts what decides it; ${ms(capture)} at head)`)
  // The scripted model answers alike in every run: the first run's tokens are every run's.
  printModelCost(reports[0])
}

/** The example's installed packages: the entries of its node_modules (this project's own, linked). */
function nodeModulesEntries(): number {
  return readdirSync(join(repo.dir, 'node_modules')).length
}

/**
 * Verify on a two-hunk fix: what the determinism gate (every run after the first at head, the second run
 * on the pre-fix tree) and the per-hunk trees add, as shares of the run's wall time.
 */
async function gateAndHunkTrees(): Promise<void> {
  const twoHunks = await buildFixtureRepo('range-wrapper', TWO_HUNK_FIX)
  const reports: Report[] = []
  try {
    for (let i = 0; i < RUNS; i++) {
      const out = await mkdtemp(join(tmpdir(), 'rtg-bench-'))
      const settings = buildSettings({ mode: 'verify', repo: twoHunks.dir, base: twoHunks.base, head: twoHunks.head, out })
      reports.push((await runWithRealPorts(settings, silent)).report)
      await rm(out, { recursive: true, force: true })
    }
  } finally {
    await twoHunks.cleanup()
  }
  const phase = (name: string) => median(reports.map((report) => report.timings[name] ?? 0))
  const total = median(reports.map((report) => report.durationMs))
  const { head, preFix } = reports[0].runs
  // In verify mode the preflight's run is the first at head, so every timed head run is the gate's.
  const gate = phase('run-head') + (phase('run-pre-fix') * (preFix - 1)) / preFix
  const share = (value: number) => `${((100 * value) / total).toFixed(1)}%`
  console.log(`Verify on a two-hunk fix (jest through a wrapper), median of ${RUNS} run(s), ${head} run(s) at head and ${preFix} on the pre-fix tree, ${reports[0].hunks?.length ?? 0} hunk trees:`)
  console.log(`  total ${ms(total)} · determinism gate ${ms(gate)} (${share(gate)}) · per-hunk trees ${ms(phase('hunks'))} (${share(phase('hunks'))})`)
}

async function preFixTreeSpeedUp(): Promise<void> {
  const git = createGit(repo.dir)
  const changeSet = await readChangeSet(git, repo.base, repo.head)
  const worktreeTimes: number[] = []
  // As in a run: the node_modules links made once for all its trees (the head, the pre-fix, the hunk trees).
  const treesDir = await mkdtemp(join(tmpdir(), 'rtg-bench-trees-'))
  const links = dependencyLinks(repo.dir, '', treesDir)
  const linksStarted = performance.now()
  await links.made()
  const linksTime = performance.now() - linksStarted
  for (let i = 0; i < RUNS; i++) {
    const dir = join(treesDir, `pre-fix-${i}`)
    const started = performance.now()
    await addPreFixTree(git, changeSet, dir, { sandbox: unisolated('the bench times the tree alone'), timeoutMs: 600_000, installCommand: null, packageDir: '', cache: null, log: silent }, links)
    worktreeTimes.push(performance.now() - started)
    await git.removeWorktree(dir)
  }
  await rm(treesDir, { recursive: true, force: true })

  const cloneDir = await mkdtemp(join(tmpdir(), 'rtg-bench-clone-'))
  const started = performance.now()
  await run('git', ['clone', '--quiet', '--no-local', '--no-checkout', repo.dir, cloneDir])
  await run('git', ['-C', cloneDir, 'checkout', '--quiet', '--detach', repo.head])
  await revertFix(git, changeSet, cloneDir)
  await run('npm', ['install', '--no-audit', '--no-fund', '--prefer-offline', '--ignore-scripts', '--loglevel=error'], { cwd: cloneDir })
  const cloneTime = performance.now() - started
  await rm(cloneDir, { recursive: true, force: true })

  const worktree = median(worktreeTimes)
  console.log('Pre-fix tree for the same commit:')
  console.log(`  worktree + dependency reuse ${ms(worktree)} (median of ${RUNS}; the run's node_modules links, made once for all its trees: ${ms(linksTime)})`)
  console.log(`  fresh clone + npm install   ${ms(cloneTime)}`)
  console.log(`Pre-fix tree speed-up: ${(cloneTime / worktree).toFixed(1)}x faster by worktree + dependency reuse`)
}

/**
 * What the sandbox adds to each test run: the chain's start-up (sudo/unshare/setpriv), on a bare process and
 * on jest; then what the tests' network namespace (and bringing its loopback up) adds to each command.
 */
async function sandboxCost(): Promise<void> {
  const work = await mkdtemp(join(tmpdir(), 'rtg-bench-sandbox-'))
  try {
    const sandbox = await createSandboxProvider().open(work, [repo.dir])
    if (sandbox.isolation === 'none') return console.log(`Sandbox: none on this machine (${sandbox.detail})`)
    const plain = unisolated('the baseline')
    const jest = [join(repo.dir, 'node_modules', 'jest', 'bin', 'jest.js'), '--ci', '--silent', 'test/retry-budget.test.ts']
    const timed = async (box: Sandbox, args: string[], network = false) => {
      const times: number[] = []
      for (let i = 0; i < Math.max(RUNS, 5); i++) {
        const result = await box.processes.run({ command: process.execPath, args, cwd: repo.dir, timeoutMs: 120_000, network })
        if (result.exitCode !== 0) throw new Error(`bench run failed: ${result.output.slice(-500)}`)
        times.push(result.durationMs)
      }
      return median(times)
    }
    console.log(`Sandbox (${sandbox.detail}), per test run:`)
    for (const [name, args] of [['node -e 0', ['-e', '0']], ['jest, one file', jest]] as const) {
      const [bare, boxed] = [await timed(plain, [...args]), await timed(sandbox, [...args])]
      console.log(`  ${name.padEnd(16)}${ms(bare)} unisolated ${ms(boxed)} sandboxed   (+${Math.round(boxed - bare)} ms)`)
    }
    if (!sandbox.isolatesNetwork) return console.log('  no network namespace for the tests on this machine (see the detail above)')
    const [open, loopbackOnly] = [await timed(sandbox, ['-e', '0'], true), await timed(sandbox, ['-e', '0'], false)]
    console.log(`Network namespace per command (node -e 0): ${ms(open)} with the network ${ms(loopbackOnly)} loopback only   (+${Math.round(loopbackOnly - open)} ms)`)
  } finally {
    await rm(work, { recursive: true, force: true })
  }
}

/**
 * What each group of the sandbox's chain adds to every command it runs, on `true` (median of 50): the
 * network namespace with loopback brought up, the private mounts (tmpfs on /tmp, /var/tmp, /dev/shm, the
 * run's folders bound back in, the git config masked) and the limits (prlimit); each timed as the whole
 * chain against the chain without that group.
 */
async function chainGroupsCost(): Promise<void> {
  if (process.getuid?.() !== 0) return console.log('Sandbox chain groups: timed as root only (the chain without sudo)')
  const where = async (name: string) => (await run('sh', ['-c', `command -v ${name}`])).stdout.trim()
  const path = process.env.PATH ?? ''
  const tools = findMountTools(path)
  const [sh, ip] = [await where('sh'), await where('ip').catch(() => '')]
  const work = await mkdtemp(join(tmpdir(), 'rtg-bench-chain-'))
  try {
    const masks = await createGit(repo.dir).credentialFreeConfig(work)
    const launcher = {
      privilege: [], env: await where('env'), setpriv: await where('setpriv'), unshare: await where('unshare'), prlimit: await where('prlimit'), limits: DEFAULT_LIMITS,
      loopbackUp: ip ? [sh, '-c', '"$1" link set lo up && shift && exec "$@"', 'sh', ip] : null,
      privateMounts: tools ? privateMountsLink(tools, [work, repo.dir], masks, undefined) : undefined,
      user: { name: 'nobody', uid: 65534, gid: 65534 }
    }
    const words = (chain: { command: string; args: string[] }) => [chain.command, ...chain.args]
    const full = words(sandboxCommand(launcher, {}, '/bin/true', [], false))
    const at = full.indexOf(launcher.prlimit)
    const variants: Array<[string, string[] | null]> = [
      ['the network namespace', launcher.loopbackUp ? words(sandboxCommand(launcher, {}, '/bin/true', [], true)) : null],
      ['the private mounts', launcher.privateMounts ? words(sandboxCommand({ ...launcher, privateMounts: undefined }, {}, '/bin/true', [], false)) : null],
      [`the limits (prlimit ${prlimitOptions(DEFAULT_LIMITS).join(' ')})`, [...full.slice(0, at), ...full.slice(at + prlimitOptions(DEFAULT_LIMITS).length + 2)]]
    ]
    // Interleaved, so that the machine's load drifts alike over every variant.
    const chains = [full, ...variants.flatMap(([, without]) => (without ? [without] : []))]
    const times = chains.map(() => [] as number[])
    for (let i = 0; i < 50; i++) {
      chains.forEach((chain, index) => {
        const started = performance.now()
        const result = spawnSync(chain[0], chain.slice(1), { cwd: work, stdio: 'ignore' })
        if (result.status !== 0) throw new Error(`bench chain failed (exit ${result.status}): ${chain.join(' ')}`)
        times[index].push(performance.now() - started)
      })
    }
    const timed = (chain: string[]) => median(times[chains.indexOf(chain)])
    const whole = timed(full)
    console.log(`Sandbox chain per command (median of 50, on true): ${whole.toFixed(1)} ms with every group; each group adds:`)
    for (const [name, without] of variants) {
      if (!without) {
        console.log(`  ${name} — not on this machine`)
        continue
      }
      const rest = timed(without)
      console.log(`  ${name}: +${(whole - rest).toFixed(1)} ms   (${rest.toFixed(1)} ms without it)`)
    }
  } finally {
    await rm(work, { recursive: true, force: true })
  }
}

/** Context building on ever larger changed files: it must stay near-linear in time and within the budget in size. */
async function contextBuilding(): Promise<void> {
  const count = (value: number) => value.toLocaleString('en-US')
  console.log(`Context building, a one-line fix beside a table whose every row changed (median of ${RUNS}; budget ${count(CONTEXT_BUDGET)} characters):`)
  for (const lines of [1_000, 4_000, 8_000, 100_000]) {
    const change = await buildLargeChange(lines)
    try {
      const git = createGit(change.dir)
      const changeSet = await readChangeSet(git, change.base, change.head)
      const framework = await frameworkFor(change.dir, 'jest')
      const times: number[] = []
      let size = 0
      for (let i = 0; i < RUNS; i++) {
        const started = performance.now()
        const pack = await buildContext(changeSet, git, framework)
        times.push(performance.now() - started)
        size = renderContext(pack).length + renderConventions(pack, 'test/regression/bench.test.ts').length
      }
      const fileSize = (await git.fileAt(change.head, change.path))?.length ?? 0
      console.log(`  ${`${count(lines)} lines`.padEnd(14)}${`(${count(fileSize)} chars)`.padEnd(18)}${ms(median(times))}   context ${count(size).padStart(7)} chars (${(size / fileSize).toFixed(2)}x the file)`)
    } finally {
      await change.cleanup()
    }
  }
  await largeModuleContext()
}

/** A one-line fix in one function of a large module: the context sent with every model call, against the module's size. */
async function largeModuleContext(): Promise<void> {
  const count = (value: number) => value.toLocaleString('en-US')
  console.log('Context building, a one-line fix in one function of a large module (the budget rule in src/context/budget.ts):')
  for (const [label, longBody] of [['a 4-line function', 0], ['a 300-line function', 300]] as const) {
    const module = await buildLargeModule(150, longBody)
    try {
      const git = createGit(module.dir)
      const pack = await buildContext(await readChangeSet(git, module.base, module.head), git, await frameworkFor(module.dir, 'jest'))
      const code = renderContext(pack).length
      const size = code + renderConventions(pack, 'test/regression/bench.test.ts').length
      const fileSize = (await git.fileAt(module.head, module.path))?.length ?? 0
      console.log(`  ${label.padEnd(20)} ${count(module.lines)} lines (${count(fileSize)} chars): context ${count(size)} chars (the code ${count(code)}), ${(size / fileSize).toFixed(2)}x the module, about ${count(Math.round(size / 4))} tokens in each model call`)
    } finally {
      await module.cleanup()
    }
  }
}

/** The model's reads (repository-view.ts) on 2,000 tracked files of 50 lines: the first read lists the tree once. */
async function repositoryReads(): Promise<void> {
  const dir = await mkdtemp(join(tmpdir(), 'rtg-bench-reads-'))
  try {
    for (let index = 0; index < 2_000; index++) {
      const folder = join(dir, 'src', `m${Math.floor(index / 100)}`)
      await mkdir(folder, { recursive: true })
      await writeFile(join(folder, `f${index}.js`), Array.from({ length: 50 }, (_, line) => `export const value${line} = ${index} // needle ${line % 7}`).join('\n') + '\n')
    }
    const git = (...args: string[]) => run('git', ['-c', 'user.name=b', '-c', 'user.email=b@b', ...args], { cwd: dir })
    await git('init', '-q')
    await git('add', '-A')
    await git('commit', '-qm', 'files')
    const head = (await git('rev-parse', 'HEAD')).stdout.trim()
    const timed = async (work: () => Promise<unknown>) => {
      const times: number[] = []
      for (let i = 0; i < RUNS; i++) {
        const started = performance.now()
        await work()
        times.push(performance.now() - started)
      }
      return ms(median(times))
    }
    const fresh = () => createRepositoryView(createGit(dir), { head, preFix: new Map() })
    const view = fresh()
    console.log(`Repository reads by the model, 2,000 tracked files (median of ${RUNS}):`)
    console.log(`  first read_file (lists the tree) ${await timed(() => fresh().readFile({ path: 'src/m3/f345.js' }))}`)
    await view.readFile({ path: 'src/m0/f0.js' })
    console.log(`  read_file, tree known            ${await timed(() => view.readFile({ path: 'src/m7/f789.js' }))}`)
    console.log(`  search, 60 of 14,000 matches     ${await timed(() => view.search({ pattern: 'needle 3' }))}`)
    console.log(`  search, a regular expression     ${await timed(() => view.search({ pattern: 'value4[0-9] = 19', regex: true }))}`)
    console.log(`  list_files, 20 folders           ${await timed(() => view.listFiles({ path: 'src' }))}`)
  } finally {
    await rm(dir, { recursive: true, force: true })
  }
}
