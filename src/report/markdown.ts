/** report.md: what a reviewer reads — verdict first, then why, then the numbers. */
import { briefList } from '../diff/generated.js'
import type { Report } from './report.js'
import { failToPassCount } from './report.js'
import { inputTokens } from '../model/cost.js'
import { describeRanges } from '../verdict/line-ranges.js'
import { persistedCredentialsWarning } from '../persisted-credentials.js'
import { cell, inertText, inlineCode } from './markdown-text.js'
import { costLine } from './cost-line.js'
import { deliveryLine } from './delivery-line.js'

const VERDICT_LINE: Record<Report['verdict'], string> = {
  'fail-to-pass': '✅ **fail-to-pass** — the suite proves the fix: it passes on the fix and fails without it.',
  'no-fail-to-pass': '❌ **no-fail-to-pass** — no test fails on the pre-fix code, so the suite does not prove the fix.',
  'not-applicable': '➖ **not-applicable** — the change has nothing to prove, so nothing ran.',
  error: '⚠️ **error** — the pipeline could not finish.'
}

/** How the repository's own test command started its runner, and what it ran before it (the build). */
function runnerLine(report: Report): string | null {
  const runner = report.runner
  if (!runner?.captured) return null
  const before = runner.beforeRunner.map((step) => inlineCode(step.command))
  return `▶️ Runs as ${inlineCode(runner.command)} does: ${runner.via.map(inlineCode).join(' → ')}${before.length ? `, after ${before.join(', ')} (the build, in each tree)` : ''}.`
}

export function renderMarkdown(report: Report): string {
  if (report.verdict === 'not-applicable') return notApplicable(report)
  return [
    '# Regression tests for this fix',
    VERDICT_LINE[report.verdict] + (report.reason ? `\n\nReason: ${inertText(report.reason)}` : ''),
    `${failToPassCount(report)} fail-to-pass of ${report.tests.length} test(s) · mode \`${report.mode}\` · framework ${report.framework ?? 'unknown'}${report.runnerWrapper ? ` (through ${inlineCode(report.runnerWrapper)})` : ''} · \`${report.repository.base.slice(0, 7)}...${report.repository.head.slice(0, 7)}\``,
    deliveryLine(report.delivery),
    mergeBaseLine(report),
    isolation(report),
    credentialsWarning(report),
    testNetwork(report),
    runnerLine(report),
    report.build && `🔨 Built in each tree before its tests: ${inlineCode(report.build.command)} (${inertText(report.build.why)}).`,
    report.bugReport && `**Bug report** (${report.bugReport.source}): ${inertText(report.bugReport.title)}`,
    rootCauseLine(report),
    // What a reviewer reads at a glance first; the long analysis and the accounting folded away below.
    scenarios(report),
    hunkGuards(report),
    budgetLine(report),
    fixConcerns(report),
    tests(report),
    diffCoverage(report),
    generated(report),
    suite(report),
    costLine(report.model),
    collapsed('Root-cause analysis', rootCause(report)),
    collapsed('Model calls and tokens', model(report)),
    collapsed('Timings', timings(report))
  ]
    .filter(Boolean)
    .join('\n\n')
    .concat('\n')
}

/** The analysis's summary, one line: its first sentence. */
function rootCauseLine(report: Report): string | null {
  if (!report.analysis) return null
  const summary = report.analysis.summary.replace(/\s+/g, ' ').trim()
  const firstSentence = /^.+?[.!?](?=\s|$)/.exec(summary)?.[0] ?? summary
  return `**Root cause:** ${inertText(firstSentence.length > 400 ? `${firstSentence.slice(0, 399)}…` : firstSentence)}`
}

/** A section folded into a `<details>` block, its heading as the summary. */
function collapsed(title: string, section: string | null): string | null {
  if (!section) return null
  const body = section.replace(/^## [^\n]*\n+/, '')
  return `<details><summary><b>${title}</b></summary>\n\n${body}\n\n</details>`
}

function rootCause(report: Report): string | null {
  if (!report.analysis) return null
  const defects = report.analysis.defects.map((defect, index) =>
    [
      `### Defect ${index + 1}: ${inertText(defect.bugClass)}`,
      `- **Observed failure:** ${inertText(defect.observedFailure)}`,
      `- **Root cause:** ${inertText(defect.rootCause)}`,
      `- **Fix:** ${inertText(defect.fixMechanism)}`,
      `- **Blast radius:** ${inertText(defect.blastRadius.join('; '))}`
    ].join('\n')
  )
  return ['## Root cause', inertText(report.analysis.summary), ...defects].join('\n\n')
}

/** Each scenario with how its tests ran: the proof, scenario by scenario. */
function scenarios(report: Report): string | null {
  if (report.scenarios.length === 0) return null
  const rows = report.scenarios.map((s) => {
    const tests = report.tests.filter((test) => test.scenario === s.name)
    const results = tests.length ? `${tally(tests.map((test) => test.head))} | ${tally(tests.map((test) => test.preFix))}` : `${s.priority === 'P2' ? 'not written (P2)' : 'no test'} | `
    return `| ${s.priority} | ${cell(inertText(s.name))} | ${cell(inertText(s.kind))} | ${s.failsBeforeFix ? 'yes' : 'no'} | ${results} | ${cell(inertText(s.verifies))} |`
  })
  return ['## Scenarios', '| Priority | Scenario | Type | Must fail before fix | At head | Pre-fix | Verifies |', '|---|---|---|---|---|---|---|', ...rows].join('\n')
}

/** `passed`, `failed ×3`, or `2 passed, 1 failed`. */
function tally(statuses: string[]): string {
  const counts = new Map<string, number>()
  for (const status of statuses) counts.set(status, (counts.get(status) ?? 0) + 1)
  if (counts.size === 1) return statuses.length === 1 ? statuses[0] : `${statuses[0]} ×${statuses.length}`
  return [...counts].map(([status, count]) => `${count} ${status}`).join(', ')
}

/** When `git diff base...head` starts from a merge-base that is not `base`: the base branch moved on since the fork. */
function mergeBaseLine(report: Report): string | null {
  const { base, mergeBase } = report.repository
  if (mergeBase === null || mergeBase === base) return null
  return `ℹ️ The fix is the change from the merge-base \`${mergeBase.slice(0, 7)}\` of base and head (\`git diff base...head\`), not from base \`${base.slice(0, 7)}\`: what the base branch got after the fork is not part of it.`
}

/**
 * Names the tests, each with its line or its place among its twins where its file has another test of
 * that name. Counted once: a report may hold 100,000 tests.
 */
function testNamer(all: Report['tests']): (test: Report['tests'][number]) => string {
  const key = (test: Report['tests'][number]) => `${test.file}\0${test.name}`
  const counts = new Map<string, number>()
  for (const test of all) counts.set(key(test), (counts.get(key(test)) ?? 0) + 1)
  return (test) => {
    if ((counts.get(key(test)) ?? 0) < 2) return inlineCode(test.name)
    const which = [test.line !== undefined && `line ${test.line}`, test.occurrence && `#${test.occurrence}`].filter(Boolean)
    return `${inlineCode(test.name)} (${which.join(', ')})`
  }
}

function tests(report: Report): string {
  if (report.tests.length === 0) return '## Tests\n\nNo test ran.'
  // The proof first: the fail-to-pass tests, then the others, each group in run order.
  const failToPassFirst = [...report.tests.filter((t) => t.kind === 'fail-to-pass'), ...report.tests.filter((t) => t.kind !== 'fail-to-pass')]
  const nameOf = testNamer(report.tests)
  const rows = failToPassFirst.map((t) => `| ${cell(inlineCode(t.file))} | ${cell(nameOf(t))} | ${t.head} | ${t.preFix} | **${t.kind}** | ${beforeTheFix(t)} |`)
  return ['## Tests', '| File | Test | At head | Pre-fix | Kind | Before the fix |', '|---|---|---|---|---|---|', ...rows].join('\n')
}

/** How a fail-to-pass test failed before the fix (`load`: a weak proof), or why a test passing at head did not run there. */
function beforeTheFix(test: Report['tests'][number]): string {
  if (test.preFixFailureLine === null) return ''
  const line = cell(inlineCode(test.preFixFailureLine))
  if (test.preFixFailure === 'load') return `**load** (weak proof): ${line}`
  return test.preFixFailure ? `**${test.preFixFailure}**: ${line}` : `not run: ${line}`
}

/** Hunk × test: ✓ where the test fails with that hunk alone taken out. A list past six tests. */
function hunkGuards(report: Report): string | null {
  if (!report.hunks) return null
  const tests = [...new Set(report.hunks.flatMap((hunk) => hunk.guardedBy ?? []))]
  const name = (hunk: NonNullable<Report['hunks']>[number]) => `${cell(inlineCode(hunk.file))}:${hunk.startLine}–${hunk.endLine}${hunk.onlyRemoves ? ' (removal)' : ''}`
  const intro = '## Which test guards which hunk\n\nEach source hunk of the fix taken out alone, in a tree of its own: the tests that pass at head and fail there need it.'
  if (tests.length > 0 && tests.length <= 6) {
    const header = `| Hunk | ${tests.map((test) => cell(inlineCode(test))).join(' | ')} |\n|---|${tests.map(() => '---').join('|')}|`
    const rows = report.hunks.map((hunk) => `| ${name(hunk)} | ${tests.map((test) => (hunk.guardedBy === null ? '—' : hunk.guardedBy.includes(test) ? '✓' : '')).join(' | ')} |`)
    return [intro, [header, ...rows].join('\n'), unguardedNote(report)].filter(Boolean).join('\n\n')
  }
  const failToPass = report.tests.filter((test) => test.kind === 'fail-to-pass').length
  const guards = (guardedBy: string[]) => (guardedBy.length > 1 && guardedBy.length === failToPass ? `all ${failToPass} fail-to-pass tests` : guardedBy.map((test) => cell(inlineCode(test))).join('; '))
  const rows = report.hunks.map((hunk) => `| ${name(hunk)} | ${hunk.guardedBy === null ? 'not checked' : guards(hunk.guardedBy) || '⚠️ none'} |`)
  return [intro, ['| Hunk | Fails without it |', '|---|---|', ...rows].join('\n'), unguardedNote(report)].filter(Boolean).join('\n\n')
}

/** Inputs the fixed code still gets wrong, each with the test that fails at head: apart from the suite and the verdict. */
function fixConcerns(report: Report): string | null {
  if (!report.fixConcerns?.length) return null
  const intro = "## The fix may be incomplete\n\nThe model traced input(s) the fixed code still gets wrong, and a test asserting the correct behaviour fails at head for each; one that passed before the fix is an input the fix broke. They are not part of the suite and do not change the verdict; the tests are under `concerns/` in the output folder."
  const rows = report.fixConcerns.map((concern) =>
    `| ${cell(inlineCode(concern.input))} | ${cell(inertText(concern.expected))} | ${cell(inertText(concern.actual))} | ${cell(`${inlineCode(concern.where.file)} · ${inlineCode(concern.where.function)}`)} | ${cell(inlineCode(concern.test.name))} | **${concern.failure}**: ${cell(inlineCode(concern.failureLine))} | ${BEFORE_THE_FIX[concern.preFixResult ?? 'unknown']} |`
  )
  return [intro, ['| Input | Expected | The fixed code | Where | Test | At head | Before the fix |', '|---|---|---|---|---|---|---|', ...rows].join('\n')].join('\n\n')
}

/** The optional runs the test budget left out: a reader should know what was not checked, and why. */
function budgetLine(report: Report): string | null {
  const { minutes, spentMs, skipped } = report.testBudget ?? { minutes: 0, spentMs: 0, skipped: [] }
  if (skipped.length === 0) return null
  return `⏱️ The test budget (test-budget-minutes: ${minutes}) was spent after ${(spentMs / 1000).toFixed(1)} s of test runs: skipped ${skipped.map(inertText).join(', ')}.`
}

const BEFORE_THE_FIX = { passed: '**passed**: the fix broke this', failed: 'failed too', unknown: 'did not run' }

function unguardedNote(report: Report): string | null {
  const unguarded = (report.hunks ?? []).filter((hunk) => hunk.guardedBy?.length === 0)
  const removals = unguarded.filter((hunk) => hunk.onlyRemoves).length
  const others = unguarded.length - removals
  return [
    others ? `⚠️ ${others} hunk(s) no test fails without: the suite does not show the fix needs them.` : '',
    removals ? `${removals} removal(s) no test fails without: right for dead code; otherwise the suite does not show the fix needs them.` : ''
  ].filter(Boolean).join(' ') || null
}

function diffCoverage(report: Report): string | null {
  const coverage = report.diffCoverage
  const note = report.diffCoverageNote && `Diff coverage ${inertText(report.diffCoverageNote)}.`
  if (!coverage) return note && `## Diff coverage\n\n${note}`
  const percent = coverage.total === 0 ? 'no executable changed lines' : `${Math.round((100 * coverage.covered) / coverage.total)}%`
  const rows = coverage.files.map((f) => `| ${cell(inlineCode(f.file))} | ${f.covered}/${f.total} | ${describeRanges(f.uncoveredLines) || '—'} |`)
  const summary = `${coverage.covered} of ${coverage.total} changed executable lines run by the suite at head (${percent}).${note ? ` ${note}` : ''}`
  return [`## Diff coverage\n\n${summary}`, '| File | Covered | Uncovered changed lines |\n|---|---|---|\n' + rows.join('\n')].join('\n\n')
}

/** Files the repository marks generated: kept out of the proof, so a reader knows why they are not in it. */
function generated(report: Report): string | null {
  if (!report.generatedFiles?.length) return null
  return `🏭 Generated, by the repository's .gitattributes (\`linguist-generated\` or \`-diff\`), so not part of the fix: kept as at head in the pre-fix tree, left out of diff coverage, the hunks and what the model is shown — ${briefList(report.generatedFiles, inlineCode)}.`
}

function suite(report: Report): string | null {
  const lines = report.suite.files.map((file) => `- ${inlineCode(file.path)}${file.compiledPath ? ` (runs as ${inlineCode(file.compiledPath)})` : ''}${collectionNote(file.collectedByRepoTests)}${unconfirmedNote(file.unconfirmed)}`)
  const refused = [...report.suite.refused, ...report.suite.dropped].map((file) => `- ${inlineCode(file.path)} left out: ${inertText(file.reason)}`)
  const reverted = report.preFixTree ? [`Pre-fix tree: reverted ${report.preFixTree.reverted.map((p) => inlineCode(p)).join(', ') || 'nothing'}; dependencies ${report.preFixTree.dependencies}.`] : []
  if (lines.length + refused.length + reverted.length === 0) return null
  return ['## Suite', ...lines, ...refused, '', ...reverted].join('\n')
}

/** Lines where the model said it could not see something: a reviewer checks those first. */
function unconfirmedNote(unconfirmed: string[] | undefined): string {
  if (!unconfirmed?.length) return ''
  return ` — ⚠️ ${unconfirmed.length} \`TODO: confirm\` left by the model: ${unconfirmed.map((line) => inlineCode(line)).join('; ')}`
}

/** Whether copying the file in is enough for the project's own test command to run it. */
function collectionNote(collected: boolean | null | undefined): string {
  if (collected === true) return " — run by the repository's own test command"
  if (collected === false) return " — ⚠️ **not collected** by the repository's own test command: move it where its configuration looks"
  return collected === null ? " — whether the repository's own test command runs it is unknown (its configuration could not be read)" : ''
}

/** The trees are where the repository's code first runs (its install): a run that ended before them ran none. */
const nothingRan = (report: Report) => report.timings['prepare-trees'] === undefined

function isolation(report: Report): string {
  if (nothingRan(report)) return `Nothing of the repository's code ran${report.isolation === 'none' ? ` (no sandbox: ${report.isolationDetail})` : ''}.`
  return report.isolation === 'sandbox'
    ? `🔒 The repository's code ran in the sandbox: ${report.isolationDetail}.`
    : `⚠️ **No isolation**: the repository's code ran as this job's own user — ${report.isolationDetail}.`
}

function credentialsWarning(report: Report): string | null {
  const warning = persistedCredentialsWarning(report.persistedCredentials)
  return warning && `⚠️ **Credentials in the checkout**: ${warning}.`
}

function testNetwork(report: Report): string | null {
  if (nothingRan(report)) return null
  return report.network.tests === 'loopback-only' ? `🔌 The tests reached only loopback: ${report.network.why}.` : `🌐 The tests had the network: ${report.network.why}.`
}

function model(report: Report): string | null {
  const usage = report.model
  if (usage.calls + usage.cachedCalls === 0) return null
  const cached = usage.cachedCalls > 0 ? ` and ${usage.cachedCalls} answered from the response cache` : ''
  const cost = usage.costUsd === null ? 'cost unknown for this model' : `≈ $${usage.costUsd.toFixed(4)} at list prices`
  const stageRows = Object.entries(usage.stages).map(([stage, own]) => `| ${stage} | ${own.calls} | ${inputTokens(own)} | ${own.cacheWriteTokens} | ${own.cacheReadTokens} | ${own.outputTokens} | ${own.costUsd === null ? '?' : own.costUsd.toFixed(4)} |`)
  const rows = usage.perCall.map((call) => `| ${call.stage}${call.cached ? ' (cached)' : ''} | ${inputTokens(call)} | ${call.cacheReadTokens} | ${call.outputTokens} | ${call.durationMs} |`)
  const refused = usage.reads.filter((read) => read.isError).length
  const reads = usage.reads.length
    ? `The model read the repository ${usage.reads.length} time(s)${refused ? `, ${refused} refused` : ''}:\n\n${usage.reads.map((read) => `- ${read.stage}: ${inlineCode(read.summary)}${read.isError ? ' (refused)' : ''}`).join('\n')}`
    : null
  return [
    `## Model\n\n${usage.name}: ${usage.calls} call(s)${cached}; ${inputTokens(usage)} input (${usage.cacheReadTokens} from the prompt cache) and ${usage.outputTokens} output tokens, ${cost}; ${report.rounds.repair} repair and ${report.rounds.strengthen} strengthen round(s).`,
    '| Stage | Calls | Input tokens | of which cache writes | of which cache reads | Output tokens | ≈ $ |\n|---|---|---|---|---|---|---|\n' + stageRows.join('\n'),
    '| Call | Input tokens | of which cache reads | Output tokens | ms |\n|---|---|---|---|---|\n' + rows.join('\n'),
    reads
  ].filter(Boolean).join('\n\n')
}

function timings(report: Report): string {
  const rows = Object.entries(report.timings).map(([phase, ms]) => `| ${phase} | ${ms} |`)
  return ['## Timings', `Total ${report.durationMs} ms.`, '', '| Phase | ms |', '|---|---|', ...rows].join('\n')
}

/** Nothing ran: the headline, why, and the change it looked at; no isolation, tests or accounting to show. */
function notApplicable(report: Report): string {
  const { base, head } = report.repository
  return [
    '# Regression tests for this fix',
    `${VERDICT_LINE[report.verdict]}\n\nReason: ${inertText(report.reason ?? '')}`,
    `mode \`${report.mode}\` · \`${base.slice(0, 7)}...${head.slice(0, 7)}\` · ${report.changedFiles.length} changed file(s)`,
    credentialsWarning(report)
  ].filter(Boolean).join('\n\n').concat('\n')
}
