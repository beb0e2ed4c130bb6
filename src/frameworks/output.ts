/** Cleaning test-runner text before it reaches results, prompts and logs. */

/** How much of a failure message a TestResult keeps (the head: the assertion, then the top of the stack). */
export const MESSAGE_CHARS = 2000
/** How much of a run's output a RunResult keeps (the tail: summaries and crashes come last). */
export const OUTPUT_TAIL_CHARS = 20_000

// CSI sequences (colours, cursor moves) and OSC sequences (hyperlinks, titles), as terminals emit them.
const ANSI_PATTERN = /[\u001B\u009B][[\]()#;?]*(?:(?:(?:;[-a-zA-Z\d/#&.:=?%@~_]*)*)?\u0007|(?:\d{1,4}(?:;\d{0,4})*)?[\dA-PR-TZcf-ntqry=><~])/g

export function stripAnsi(text: string): string {
  return text.replace(ANSI_PATTERN, '')
}

/** Keeps the start of a message, marking the cut. */
export function trimMessage(text: string, maxChars = MESSAGE_CHARS): string {
  const trimmed = text.trim()
  return trimmed.length <= maxChars ? trimmed : `${trimmed.slice(0, maxChars)}\n… (${trimmed.length - maxChars} more characters)`
}

/** Keeps the end of an output, marking the cut. */
export function trimTail(text: string, maxChars = OUTPUT_TAIL_CHARS): string {
  const trimmed = text.trim()
  return trimmed.length <= maxChars ? trimmed : `(… ${trimmed.length - maxChars} earlier characters)\n${trimmed.slice(-maxChars)}`
}

/** Keeps the start and the end of an output — what the run set out to do, and how it ended — cutting the middle. */
export function headAndTail(text: string, maxChars: number): string {
  const trimmed = text.trim()
  if (trimmed.length <= maxChars) return trimmed
  const half = Math.floor(maxChars / 2)
  return `${trimmed.slice(0, half)}\n[… ${trimmed.length - 2 * half} characters cut …]\n${trimmed.slice(-half)}`
}

/** The lines that say what went wrong: the first few that are not blank, a stack frame or a banner. */
export function firstErrorLines(output: string, count = 6): string {
  const meaningful = output
    .split('\n')
    .map((line) => line.trimEnd())
    .filter((line) => line.trim() && !/^\s+at /.test(line) && !/^[\s⎯─=*-]+$/.test(line))
  return meaningful.slice(0, count).join(' / ') || '(no output)'
}
