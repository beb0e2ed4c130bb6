/** action.yml, the input/output constants and the README agree: every name defined once, documented once. */
import { readFileSync } from 'node:fs'
import { parse } from 'yaml'
import { Inputs, Outputs } from '../../src/github/constants.js'

const root = new URL('../../', import.meta.url)
const actionYml = readFileSync(new URL('action.yml', root), 'utf8')
const readme = readFileSync(new URL('README.md', root), 'utf8')

/** action.yml as GitHub reads it: a YAML document (a stray quote makes the whole action unloadable). */
const metadata = parse(actionYml) as { inputs: Record<string, { description: string }>; outputs: Record<string, { description: string }>; runs: { using: string; main: string } }

test('action.yml declares exactly the inputs and outputs the code reads and sets, each with a description', () => {
  expect(Object.keys(metadata.inputs).sort()).toEqual(Object.values(Inputs).sort())
  expect(Object.keys(metadata.outputs).sort()).toEqual(Object.values(Outputs).sort())
  for (const entry of [...Object.values(metadata.inputs), ...Object.values(metadata.outputs)]) expect(entry.description).toEqual(expect.any(String))
})

test('the README documents every input and output in its tables', () => {
  for (const name of [...Object.values(Inputs), ...Object.values(Outputs)]) expect(readme).toMatch(new RegExp(`^\\| \`${name}\` \\|`, 'm'))
})

test('the action runs the committed bundle on node24', () => {
  expect(metadata.runs).toMatchObject({ using: 'node24', main: 'dist/index.js' })
})
