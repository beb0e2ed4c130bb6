/** Progress lines: each long step (build, test run, model call) says when it starts, before its result. */
import { runCliOnFixture } from '../support/cli-run.js'
import { fixtureAnswers } from '../support/scripted-model.js'

test('a generate run says when each build, test run and model call starts, just before its result', async () => {
  const build = `${process.execPath} -e "require('fs').writeFileSync('BUILT.txt', 'ok')"`
  const run = await runCliOnFixture({ script: fixtureAnswers('retry-budget'), fixtureOptions: { withFixTest: false }, args: ['--build-command', build] })
  expect(run.report.verdict).toBe('fail-to-pass')
  const { log } = run
  const after = (starting: string) => log[log.indexOf(starting) + 1]

  expect(log.filter((line) => line.startsWith('The build '))).toEqual([
    expect.stringMatching(/^The build at head: .*BUILT\.txt.*…$/),
    expect.stringMatching(/^The build of the pre-fix tree: .*BUILT\.txt.*…$/)
  ])
  expect(after('Asking the model: analyse…')).toMatch(/^Root cause: /)
  expect(after('Asking the model: scenarios…')).toMatch(/^Scenarios: /)
  expect(after('Asking the model: write-tests…')).toMatch(/^Tests written: /)

  // Every numbered run of the suite: which tree, how many files, then its result.
  const results = log.filter((line) => /^Run \d+ /.test(line))
  expect(results).toHaveLength(5)
  for (const result of results) {
    const [, number, where] = /^Run (\d+) (at head|on the pre-fix tree)/.exec(result)!
    expect(log[log.indexOf(result) - 1]).toBe(`Testing 1 file(s) ${where} (run ${number})…`)
  }
})
