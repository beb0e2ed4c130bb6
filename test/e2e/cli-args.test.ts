import { CLI_OPTIONS, runCli, USAGE } from '../../src/cli.js'

const quiet = () => {
  const lines: string[] = []
  return { lines, log: { info: (m: string) => lines.push(m), warn: (m: string) => lines.push(m), debug: () => {} } }
}

test('unknown commands and missing commits are usage errors (exit 2) that say what to do', async () => {
  const unknown = quiet()
  expect(await runCli(['deploy'], {}, unknown.log)).toBe(2)
  expect(unknown.lines).toEqual(['regression-testgen: Unknown command "deploy" (see --help)'])

  const missing = quiet()
  expect(await runCli(['verify', '--head', 'HEAD'], {}, missing.log)).toBe(2)
  expect(missing.lines).toEqual(['regression-testgen: Invalid base: a commit SHA or ref is required'])

  const noKey = quiet()
  expect(await runCli(['--base', 'a', '--head', 'b'], {}, noKey.log)).toBe(2)
  expect(noKey.lines[0]).toContain('generate mode needs an Anthropic API key (ANTHROPIC_API_KEY); without one, use verify mode')
})

test('the usage text documents exactly the options the parser accepts', () => {
  const documented = new Set([...USAGE.slice(USAGE.indexOf('Options:')).matchAll(/--([\w-]+)/g)].map((m) => m[1]))
  expect([...documented].sort()).toEqual(Object.keys(CLI_OPTIONS).sort())
})
