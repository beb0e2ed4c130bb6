import { mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { runCli } from '../../src/cli.js'
import { consoleLogger } from '../../src/ports/console-log.js'
import { forTerminal } from '../../src/text.js'
import { startFakeAnthropic } from '../support/fake-anthropic.js'
import { buildFixtureRepo } from '../support/fixture-repo.js'
import { byStage, fixtureAnswers } from '../support/scripted-model.js'

const ESC = '\u001b'
// Anything a terminal acts on instead of printing: C0 but tab and newline, DEL, C1.
const TERMINAL_CONTROL = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f]/

/** Sequences that would recolour, clear, retitle, write the clipboard or hide a link on a terminal. */
const HOSTILE = [
  `${ESC}[31mred${ESC}[0m`,
  `${ESC}[2J${ESC}[H`,
  `${ESC}]0;pwned title${ESC}\\`,
  `${ESC}]52;c;cm0gLXJmIH4=\u0007`,
  `${ESC}]8;;https://evil.example${ESC}\\a link${ESC}]8;;${ESC}\\`,
  `${ESC}P1$r0m${ESC}\\`,
  '\u009b2K',
  '\u009d0;c1 title\u009c',
  `${ESC}7${ESC}8`,
  'over\rwritten\b\u0007\u0000\u0085'
]

/** What each of HOSTILE prints as. */
const PLAIN = ['red', '', '', '', 'a link', '', '', '', '', 'overwritten']

test('forTerminal drops escape sequences and controls, keeping the text, tabs and newlines', () => {
  expect(HOSTILE.map(forTerminal)).toEqual(PLAIN)
  expect(forTerminal('Root cause:\tthe budget — shared\r\nacross calls ✓')).toBe('Root cause:\tthe budget — shared\nacross calls ✓')
  // Unterminated, a sequence loses its introducer: what is left prints as text.
  expect(forTerminal(`unterminated ${ESC}]52;c;x and a lone ${ESC}`)).toBe('unterminated 52;c;x and a lone ')
  for (const text of HOSTILE) expect(forTerminal(text)).not.toMatch(TERMINAL_CONTROL)
})

/** What console.log and console.error print while `body` runs. */
async function capturingConsole<T>(body: () => Promise<T>): Promise<{ result: T; printed: string }> {
  const real = { log: console.log, error: console.error }
  let printed = ''
  console.log = console.error = (...parts: unknown[]) => void (printed += `${parts.join(' ')}\n`)
  try {
    return { result: await body(), printed }
  } finally {
    Object.assign(console, real)
  }
}

test('the console logger prints info, warnings and errors for a terminal', async () => {
  const { printed } = await capturingConsole(async () => {
    consoleLogger.info(`Root cause: ${HOSTILE.join(' ')}`)
    consoleLogger.warn(`${ESC}[2Jpwned`)
    consoleLogger.error(`${ESC}]0;title${ESC}\\stopped`)
  })
  expect(printed).not.toMatch(TERMINAL_CONTROL)
  expect(printed).toBe(`Root cause: ${PLAIN.join(' ')}\nwarning: pwned\nerror: stopped\n`)
})

test('the CLI prints the model\'s text (progress and --print) without terminal escapes', async () => {
  const answers = fixtureAnswers('retry-budget')
  const analyse = answers.analyse as { tool_use: { name: string; input: { summary: string } } }
  const summary = `${analyse.tool_use.input.summary} ${HOSTILE.join(' ')}`
  const model = await startFakeAnthropic(byStage({ ...answers, analyse: { tool_use: { ...analyse.tool_use, input: { ...analyse.tool_use.input, summary } } } }))
  const repo = await buildFixtureRepo('retry-budget', { withFixTest: false })
  const out = await mkdtemp(join(tmpdir(), 'rtg-out-'))
  try {
    const args = ['--repo', repo.dir, '--base', repo.base, '--head', repo.head, '--out', out, '--print']
    const { result, printed } = await capturingConsole(() => runCli(args, { ANTHROPIC_API_KEY: 'test-key', ANTHROPIC_BASE_URL: model.baseURL }))
    expect(result).toBe(0)
    // The summary reached both the progress line and the printed report (where it is one line of inert
    // markdown, its runs of spaces folded), as plain text.
    expect(printed).toContain('Root cause: StreamingTransport._open')
    expect(printed.split(PLAIN.join(' '))).toHaveLength(2)
    expect(printed).toContain(PLAIN.filter(Boolean).join(' '))
    expect(printed).not.toMatch(TERMINAL_CONTROL)
  } finally {
    await Promise.all([model.close(), repo.cleanup(), rm(out, { recursive: true, force: true })])
  }
})
