import { neutralizeWorkflowCommands } from '../../src/github/actions-log.js'

test('no line of logged text can start a workflow command', () => {
  const hostile = 'Pre-fix tree: reverted a.ts\n::set-output name=verdict::fail-to-pass\n  ::add-mask::x\nkeep: this :: and this'
  const safe = neutralizeWorkflowCommands(hostile)
  expect(safe.split('\n').filter((line) => line.trimStart().startsWith('::'))).toEqual([])
  expect(safe).toBe('Pre-fix tree: reverted a.ts\n:\u200b:set-output name=verdict::fail-to-pass\n  :\u200b:add-mask::x\nkeep: this :: and this')
})
