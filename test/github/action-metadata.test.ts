/** action.yml, the input/output constants and the README agree: every name defined once, documented once. */
import { readFileSync } from 'node:fs'
import { Inputs, Outputs } from '../../src/github/constants.js'

const root = new URL('../../', import.meta.url)
const actionYml = readFileSync(new URL('action.yml', root), 'utf8')
const readme = readFileSync(new URL('README.md', root), 'utf8')

/** The keys of a top-level section of action.yml (two-space indented names). */
function sectionKeys(section: string): string[] {
  const body = actionYml.split(new RegExp(`^${section}:\\n`, 'm'))[1].split(/^\S/m)[0]
  return [...body.matchAll(/^ {2}([\w-]+):/gm)].map((match) => match[1])
}

test('action.yml declares exactly the inputs and outputs the code reads and sets', () => {
  expect(sectionKeys('inputs').sort()).toEqual(Object.values(Inputs).sort())
  expect(sectionKeys('outputs').sort()).toEqual(Object.values(Outputs).sort())
})

test('the README documents every input and output in its tables', () => {
  for (const name of [...Object.values(Inputs), ...Object.values(Outputs)]) expect(readme).toMatch(new RegExp(`^\\| \`${name}\` \\|`, 'm'))
})

test('the action runs the committed bundle on node24', () => {
  expect(actionYml).toMatch(/^runs:\n {2}using: node24\n {2}main: dist\/index\.js$/m)
})
