/**
 * Why a test failed on the pre-fix tree: an expectation did not hold (`assertion`), the code under test threw
 * (`exception`), the file could not load (`load`: it imports what the fix added), it ran out of time
 * (`timeout`), it met one of the sandbox's limits (`resource`: memory, processes, file size) — or it never
 * ran there (`not-run`: a hook or a test before it failed, so its own code proved nothing). Read from the
 * structure the adapters give first (the status, a file error in place of the test's result), then from the
 * first lines of the runner's message.
 */
import type { ClassifiedTest, PreFixFailureKind, RunResult, TestResult } from '../domain.js'
import { describeLimit, type LimitName } from '../sandbox-limits.js'

export type PreFixOutcome = PreFixFailureKind | 'not-run'

export interface PreFixFailure {
  kind: PreFixOutcome
  /** The failure's first meaningful line: the assertion, the exception, the import that failed, the hook. */
  line: string
}

/** The longest line kept; longer ones end with `…`. */
export const MAX_LINE_CHARS = 200

/**
 * How the test failed on the pre-fix tree; null when it did not fail there (it passed, was skipped, or has
 * no result and no file error: the pre-fix run left its file out).
 */
export function classifyPreFixFailure(test: { file: string; name: string }, preFixRun: RunResult | null): PreFixFailure | null {
  if (!preFixRun) return null
  const result = preFixRun.tests.find((candidate) => candidate.file === test.file && candidate.name === test.name)
  return preFixFailureOf(result, preFixRun.fileErrors.find((error) => error.file === test.file)?.message)
}

/** As classifyPreFixFailure, from the test's pre-fix result and its file's pre-fix file error. */
export function preFixFailureOf(result: TestResult | undefined, fileError: string | undefined): PreFixFailure | null {
  if (result) {
    if (result.status !== 'failed' && result.status !== 'errored') return null
    const kind = result.status === 'errored' ? erroredKind(result.message) : failedKind(result.message)
    return { kind, line: failureLine(result.message, kind, result.name) }
  }
  if (fileError === undefined) return null
  const kind = fileErrorKind(fileError)
  return { kind, line: failureLine(fileError, kind) }
}

/**
 * True when the suite has fail-to-pass tests and every one of them failed before the fix only because its
 * file could not load: a weak proof (any test importing what the fix added fails so), which a test failing
 * by an assertion or an exception would make strong.
 */
export function onlyLoadFailures(tests: ClassifiedTest[]): boolean {
  const failToPass = tests.filter((test) => test.kind === 'fail-to-pass')
  return failToPass.length > 0 && failToPass.every((test) => test.preFixFailure === 'load')
}

// --- Signatures, as the runners word them (see test/verdict/failure-kind.test.ts for the real messages). ---

const TIMEOUT = [
  /Exceeded timeout of \d+\s*ms/, // jest-circus
  /Timeout - Async callback was not invoked/, // jest-jasmine2
  /Timeout of \d+ms exceeded/, // mocha
  /Test timed out in \d+\s*ms/, // vitest
  /^(?:Error: )?STACK_TRACE_ERROR$/m, // vitest 3's JSON report of a timeout (it keeps the stack of its placeholder error)
  /test timed out after \d+\s*ms/, // node:test
  /^(?:Error: )?Test timeout exceeded/m, // ava's t.timeout()
  /Timed out while running tests/, // ava's --timeout
  /^Failed: Timeout >[\d.]+s/m // pytest-timeout
]

// What a process says when it meets one of the sandbox's limits (see sandbox-limits.ts).
const RESOURCE: Array<[LimitName, RegExp[]]> = [
  ['memory', [/Array buffer allocation failed/, /JavaScript heap out of memory/, /\bENOMEM\b/, /Cannot allocate memory/, /std::bad_alloc/, /^(?:E\s+)?MemoryError\b/m]],
  ['processes', [/\b(?:spawn|fork)\b.*\bEAGAIN\b/, /\bfork: (?:retry: )?Resource temporarily unavailable/, /\bBlockingIOError: \[Errno 11\]/, /\buv_thread_create\b/]],
  ['file size', [/\bEFBIG\b/, /File too large/, /\bSIGXFSZ\b/]]
]

/** Which of the sandbox's limits a failure's message says the process met, if any. */
export function limitHit(message: string): LimitName | null {
  return RESOURCE.find(([, patterns]) => matchesAny(patterns, message))?.[0] ?? null
}

// An import that failed, or a name the module does not have (yet).
const LOAD = [
  /Cannot find module\b/,
  /ERR_MODULE_NOT_FOUND/,
  /Failed to load url\b/, // vitest
  /does not provide an export named\b/, // native ESM
  /Named export '[^']*' not found/, // native ESM from CommonJS
  /Cannot use import statement outside a module/,
  /\berror TS\d{4,5}\b/, // ts-jest's diagnostics
  /\bTS\d{4,5}:/,
  /has no exported member\b/,
  /is not exported by\b/,
  /\bModuleNotFoundError\b/,
  /\bImportError\b/,
  /No module named\b/,
  /module '[^']+' has no attribute\b/, // Python: a name the module lacks
  // A transpiled call of an imported binding that is undefined: `(0 , _mod.name)` (babel, esbuild, vitest),
  // `mod_1.name` (tsc), `__vi_import_0__.name` / `__vite_ssr_import_0__.name` (vite-node).
  /\(0\s*,\s*[\w$.]+\) is not a (?:function|constructor)/,
  /\b[\w$]+_\d+\.[\w$]+ is not a (?:function|constructor)/,
  /__vi(?:te_ssr)?_import_\d+__\.[\w$]+ is not a (?:function|constructor)/
]

// Lines that are the runner's assertion (the first meaningful line, or ava's `assertion:` line).
const ASSERTION_FIRST_LINE = [
  /^(?:[\w$]+\.)*[\w$]*AssertionError\b/, // node:assert, chai, vitest's expect, Python, JestAssertionError
  /^(?:Error: )?expect(?:\.[\w$]+)?\(/, // jest's expect(received).toBe(expected), expect.assertions(1)
  /^assert(?:\.[\w$]+)?\(/, // jest's rendering of node:assert
  /^assert\b/, // pytest's rewritten assert
  /^Failed: /, // pytest.fail, pytest.raises: DID NOT RAISE
  /^Assertion failed\b/, // ava's rendering of node:assert
  /^(?:Error: )?expected number of assertions\b/, // vitest's expect.assertions
  // vitest 0.x's JSON report keeps only the message, without the error's name: chai's wording says assertion.
  /^expected .+ to (?:not )?(?:be|equal|deeply|have|include|contain|match|throw|satisfy|exist)\b/
]
const AVA_ASSERTION = /^assertion: t\.[\w$.]+\(\)/m
// The code under test threw where the test expected a value: an exception, whatever matcher saw it.
const REJECTED = [/Received promise rejected instead of resolved/, /promise rejected .* instead of resolving/, /^(?:Error thrown in test|Rejected promise returned by test)\b/m]

// A hook failed, so the test's own code did not run (or did not decide the result), as a test's message says it.
const HOOK_IN_TEST = [
  /^Test skipped due to failure in hook\b/m, // mocha --fail-hook-affected-tests
  /^failed running (?:before|after)(?:Each)? hook\b/m, // node:test
  /Hook timed out in \d+\s*ms/ // vitest
]
// ... and as a file error says it, the tests it kept from running left without a result.
const HOOK_FAILED = [
  ...HOOK_IN_TEST,
  /"(?:before|after) (?:all|each)" hook\b/, // mocha's hook titles
  /^(?:before|after)(?:Each)?(?:\.always)? hook(?: for .*)? failed: /m, // ava (ava-report.ts)
  /^a hook or suite of this file failed\b/m, // vitest (vitest.ts)
  /^not run: /m // node:test, a file never reached before the time limit
]
// jest-circus runs hooks and tests through these; the first one on the stack says which threw.
const JEST_HOOK_FRAME = /^\s*at _callCircusHook\b/m
const JEST_TEST_FRAME = /^\s*at _callCircusTest\b/m

const matchesAny = (patterns: RegExp[], text: string) => patterns.some((pattern) => pattern.test(text))

/** A test that ran and failed. */
function failedKind(message: string): PreFixOutcome {
  const head = messageHead(message)
  if (limitHit(head)) return 'resource'
  if (thrownInJestHook(message) || matchesAny(HOOK_IN_TEST, head)) return 'not-run'
  if (matchesAny(TIMEOUT, head)) return 'timeout'
  if (matchesAny(LOAD, head)) return 'load'
  if (matchesAny(REJECTED, head)) return 'exception'
  const first = meaningfulLines(message)[0] ?? ''
  if (matchesAny(ASSERTION_FIRST_LINE, first) || AVA_ASSERTION.test(head)) return 'assertion'
  return 'exception'
}

/** A test the runner meant to run and did not (adapters report `errored`): a hook or its file's setup failed. */
function erroredKind(message: string): PreFixOutcome {
  if (limitHit(messageHead(message))) return 'resource'
  return matchesAny(LOAD, messageHead(message)) ? 'load' : 'not-run'
}

/** No result, but a file error: the file did not load, the run ran out of time, or a hook kept the tests from running. */
function fileErrorKind(message: string): PreFixOutcome {
  // The adapters put what happened first; the rest is detail (and may be a run's output).
  const first = message.trim().split('\n')[0]
  if (matchesAny(HOOK_FAILED, first)) return 'not-run'
  if (limitHit(messageHead(message))) return 'resource'
  if (/\btimed out\b/i.test(first) || matchesAny(TIMEOUT, first)) return 'timeout'
  return 'load'
}

function thrownInJestHook(message: string): boolean {
  const hook = JEST_HOOK_FRAME.exec(message)
  if (!hook) return false
  const test = JEST_TEST_FRAME.exec(message)
  return !test || hook.index < test.index
}

// --- The first meaningful line. ---

const STACK_FRAME = /^at\s/
// Lines that frame an error rather than say it: runners' banners, our adapters' prefaces, code excerpts.
const NOISE = [
  /^●\s/, // jest's "● Test suite failed to run"
  /^(?:jest|mocha|vitest|ava|pytest|node --test) wrote no (?:complete |TAP )?report\b/,
  /^The file failed to load, or its process ended before its tests did\b/,
  /^A suite, a hook or the file itself failed outside its tests\b/,
  /^collection failure$/,
  /^.* exited with a non-zero exit code: \d+$/,
  /^Hint: /,
  /^Traceback\b/,
  /^Require stack:$/,
  /^- \//, // a require stack entry
  /^file:\/\/\S+:\d+$/, // where a SyntaxError was, before the excerpt
  /^>?\s*\d+\s*\|/, // a code frame line
  /^\|/,
  /^\^+$/,
  /^[\w./\\-]+\.py:\d+: in \S+$/, // a pytest traceback location
  /^✖ /, // node:test's summary
  /^'test failed'$/,
  /^[{}]$/,
  /^\w+: .*,$/ // a property of an inspected error (`code: 'ERR_ASSERTION',`)
]
const PREFIXES = [/^Exception during run:\s*/, /^E\s{3}/, /^Error: (?=expect|thrown: |assert)/, /^thrown: "?/]
// An error's own line: `TypeError: …`, `AssertionError [ERR_ASSERTION]: …`, `ImportError: …`.
const ERROR_HEADER = /^(?:[\w$]+\.)*[\w$]*(?:Error|Exception)\b(?: \[[\w$]+\])?: \S/

/** The message's lines that say something, cleaned of prefixes, before its stack and code excerpts. */
function meaningfulLines(message: string, testName?: string): string[] {
  const lines: string[] = []
  for (const raw of message.split('\n')) {
    let line = raw.trim()
    for (const prefix of PREFIXES) line = line.replace(prefix, '')
    if (!line || STACK_FRAME.test(line) || NOISE.some((pattern) => pattern.test(line))) continue
    // ava repeats a test's title (with its file's) where there is no message; and says `X` then `X:`.
    if (testName && (line === testName || line.endsWith(` › ${testName}`))) continue
    if (lines.length > 0 && line.replace(/:$/, '') === lines[lines.length - 1]) lines.pop()
    lines.push(line)
  }
  return lines
}

/** The message before its stack: where runners say what failed. */
function messageHead(message: string): string {
  const lines = message.split('\n')
  const frame = lines.findIndex((line) => STACK_FRAME.test(line.trim()))
  return lines.slice(0, frame < 0 ? 20 : Math.max(frame, 1)).slice(0, 20).join('\n')
}

/** The failure's first meaningful line, for a table cell: one line, at most MAX_LINE_CHARS. */
export function failureLine(message: string, kind: PreFixOutcome, testName?: string): string {
  const lines = meaningfulLines(message, testName)
  let line: string
  if (kind === 'load') line = lines.find((l) => ERROR_HEADER.test(l) && matchesAny(LOAD, l)) ?? lines.find((l) => matchesAny(LOAD, l)) ?? withDetails(lines, 0)
  else if (kind === 'timeout') line = timeoutLine(lines)
  else if (kind === 'not-run') line = hookLine(message, lines)
  else if (kind === 'resource') line = resourceLine(message, lines)
  else line = thrownLine(message) ?? withDetails(lines, 0)
  return clip(line || message.trim().split('\n')[0] || 'failed without an error message')
}

/** The limit named first (the runner's own words say only what failed), then the line that says it. */
function resourceLine(message: string, lines: string[]): string {
  const limit = limitHit(message) ?? 'memory'
  const said = lines.find((line) => limitHit(line) === limit) ?? lines[0] ?? ''
  return `hit the sandbox's ${describeLimit(limit)}: ${said}`
}

function timeoutLine(lines: string[]): string {
  const line = lines.find((l) => matchesAny(TIMEOUT, l) || /\btimed out\b/i.test(l)) ?? lines[0] ?? ''
  if (/STACK_TRACE_ERROR/.test(line)) return 'test timed out (vitest reports it as STACK_TRACE_ERROR)'
  // mocha's advice on done() and promises says nothing of this test.
  return line.replace(/"$/, '').replace(/(exceeded\.) For async tests and hooks, .*$/, '$1')
}

function hookLine(message: string, lines: string[]): string {
  const index = Math.max(0, lines.findIndex((l) => matchesAny(HOOK_FAILED, l)))
  // node:test says which hook on one line and its error on the next.
  const said = /: /.test(lines[index] ?? '') || index + 1 >= lines.length ? withDetails(lines, index) : `${lines[index]}: ${lines[index + 1]}`
  // mocha quotes a hook's title, itself quoted: `hook ""before each" hook for "x""`.
  const line = said.replace(/""/g, '"')
  // jest says nothing of the hook: its error is the test's. ava says what it threw further down.
  if (thrownInJestHook(message)) return `a hook failed: ${line}`
  const thrown = thrownLine(message)
  return thrown ? line.replace(/(?:Error thrown in test|Rejected promise returned by test)$/, thrown.replace(/^[^:]*: /, '')) : line
}

/** ava's "Error thrown in test" / "Rejected promise returned by test", with the error it shows. */
function thrownLine(message: string): string | null {
  const intro = /^(Error thrown in test|Rejected promise returned by test)\b/m.exec(message)
  if (!intro) return null
  const error = /^([\w$]+) \{\n\s+message: '((?:[^'\\]|\\.)*)'/m.exec(message)
  return error ? `${intro[1]}: ${error[1]}: ${error[2].replace(/\\(.)/g, '$1')}` : intro[1]
}

// A line that only announces what follows: jest's matcher line, ava's `assertion: t.is()`, a line ending in ':'.
const ANNOUNCES = [/:$/, /^(?:expect|assert)[\w$.]*\(.*\)(?: \/\/ .*)?$/, /^assertion: t\.[\w$.]+\(\)$/]

// Lines that detail the one before: jest's `Expected: 4`, a diff's `- 3` / `+ 4`, pytest's `+  where 3 = add(1, 2)`.
const DETAIL = /^(?:Expected|Received|Rejected to value|Resolved to value)\b|^[-+] /

/** The line at `index`, with the lines after it while they detail it (`… Expected: 4 Received: 3`). */
function withDetails(lines: string[], index: number): string {
  let line = lines[index] ?? ''
  let last = line
  for (let next = index + 1; next < lines.length && next <= index + 5 && line.length < MAX_LINE_CHARS; next++) {
    if (!ANNOUNCES.some((pattern) => pattern.test(last)) && !DETAIL.test(lines[next])) break
    last = lines[next]
    line = `${line} ${last}`
  }
  return line
}

function clip(line: string): string {
  const flat = line.replace(/\s+/g, ' ').trim()
  return flat.length <= MAX_LINE_CHARS ? flat : `${flat.slice(0, MAX_LINE_CHARS - 1)}…`
}
