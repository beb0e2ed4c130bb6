/**
 * A generated suite that fails for a reason outside its files — the runner's configuration does not load or
 * does not collect it, a conftest.py breaks, the build output it imports is missing — cannot be repaired by
 * rewriting the tests: the run ends as an error naming it, instead of paying for repair rounds.
 */
import type { RunResult } from '../domain.js'
import { firstErrorLines } from '../frameworks/output.js'

// What a test file's own mistakes look like: these are the model's to repair, whatever else the runner says.
const THE_FILES_OWN_ERROR = /ERROR collecting|errors? during collection|SyntaxError|ModuleNotFoundError|ImportError(?! while loading conftest)|Cannot find module|is not defined|TypeError|ReferenceError/

interface OutsideCause {
  pattern: RegExp
  what: string
  hint: string
  /** Not when the output also shows a test file's own error (pytest prints "no tests ran" after an import error). */
  unlessTheFilesOwn?: boolean
  /** The runner itself, not the code under test: the same before the fix as at head. */
  runner?: boolean
}

const OUTSIDE_THE_TESTS: OutsideCause[] = [
  { pattern: /ImportError while loading conftest|conftest\.py.* (?:error|Error)\b/, what: 'a conftest.py does not load', hint: 'fix the conftest, or the interpreter and dependencies it needs', runner: true },
  { pattern: /failed to load config|Startup Error|● Validation Error|Configuration error:/, what: "the runner's configuration does not load", hint: "set test-command to the repository's own way of running one test file", runner: true },
  { pattern: /No tests? found|No test files found|collected 0 items|no tests ran/i, what: "the runner's configuration does not collect the suite's files", hint: "set test-command to a command that runs the files given ({files}), or move the suite where the configuration looks", unlessTheFilesOwn: true, runner: true },
  { pattern: /Cannot find module ['"][^'"]*\/(?:lib|dist|build|out)\//, what: 'the tests import build output that is not there', hint: 'set build-command' }
]

export interface OutsideFailure {
  what: string
  evidence: string
  hint: string
}

/** Only when no test of the suite ran at all: a test that ran and failed is the tests' own to fix. */
export function outsideFailure(run: RunResult): OutsideFailure | null {
  return firstCause(run, OUTSIDE_THE_TESTS)
}

/**
 * The pre-fix run crashed in the runner itself (its configuration, a conftest, nothing collected): no test
 * failed there, so it proves nothing. Missing build output is left out: before a fix that adds a module,
 * its import failing is the very failure the suite shows.
 */
export function runnerFailure(run: RunResult): OutsideFailure | null {
  return firstCause(run, OUTSIDE_THE_TESTS.filter((cause) => cause.runner))
}

function firstCause(run: RunResult, causes: OutsideCause[]): OutsideFailure | null {
  if (run.tests.length > 0) return null
  const text = [...run.fileErrors.map((error) => error.message), run.output].join('\n')
  for (const { pattern, what, hint, unlessTheFilesOwn } of causes) {
    const match = pattern.exec(text)
    if (match && !(unlessTheFilesOwn && THE_FILES_OWN_ERROR.test(text))) return { what, hint, evidence: firstErrorLines(text.slice(text.lastIndexOf('\n', match.index) + 1), 3) }
  }
  return null
}
