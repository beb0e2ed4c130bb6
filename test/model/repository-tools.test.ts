/** The read tools' calls: checked against their schemas before anything is read. */
import type { RepositoryView } from '../../src/context/repository-view.js'
import { REPOSITORY_TOOLS, runRepositoryTool } from '../../src/model/repository-tools.js'

const calls: string[] = []
const view: RepositoryView = {
  readFile: async (request) => (calls.push(`read ${JSON.stringify(request)}`), { text: 'file', isError: false, summary: 'read' }),
  search: async (request) => (calls.push(`search ${JSON.stringify(request)}`), { text: 'found', isError: false, summary: 'search' }),
  listFiles: async (request) => (calls.push(`list ${JSON.stringify(request)}`), { text: 'listed', isError: false, summary: 'list' })
}

beforeEach(() => calls.splice(0))

test('each tool reaches its view method with the input as given', async () => {
  await runRepositoryTool(view, 'read_file', { path: 'src/a.js', startLine: 3, at: 'pre-fix' })
  await runRepositoryTool(view, 'search', { pattern: 'x(', regex: false, path: 'src' })
  await runRepositoryTool(view, 'list_files', {})
  expect(calls).toEqual(['read {"path":"src/a.js","startLine":3,"at":"pre-fix"}', 'search {"pattern":"x(","regex":false,"path":"src"}', 'list {}'])
  expect(REPOSITORY_TOOLS.map((tool) => tool.name)).toEqual(['read_file', 'search', 'list_files'])
})

test.each([
  ['read_file', { path: 'a', startLine: 0 }, '/startLine must be >= 1'],
  ['read_file', { path: 'a', at: 'base' }, '/at must be equal to one of the allowed values'],
  ['read_file', { file: 'a' }, "must have required property 'path'"],
  ['search', { pattern: '' }, '/pattern must NOT have fewer than 1 characters'],
  ['list_files', { path: 'a', recursive: true }, 'must NOT have additional properties'],
  ['run_shell', { command: 'ls' }, 'There is no tool run_shell.']
])('%s %j is refused without reading: %s', async (name, input, problem) => {
  const output = await runRepositoryTool(view, name, input)
  expect(output.isError).toBe(true)
  expect(output.text).toContain(problem)
  expect(calls).toEqual([])
})
