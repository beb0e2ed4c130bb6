/**
 * Which command shows how the repository runs its tests: the test-command setting when it has no `{files}`
 * (a command to run as is), else the package's own `test` script, else (a workspace package without one)
 * the workspace root's, else `make test` where a Makefile has that target. Null: nothing to ask; the
 * adapters' own detection decides.
 */
import { existsSync } from 'node:fs'
import { join } from 'node:path'
import { commandText } from '../execute/build-detection.js'
import { FILES_PLACEHOLDER } from '../frameworks/command.js'
import { readPackageJsonSync } from '../frameworks/packages.js'
import { readPlainFileSync } from '../ports/sandbox-files.js'

export interface CommandToCapture {
  /** Shell text, run by `/bin/sh -c` inside the sandbox. */
  command: string
  /** Where it runs, tree-relative ('' for the root). */
  dir: string
  /** Where the command came from, for the log and the report. */
  source: string
}

// `npm init`'s placeholder: a script that says there are no tests.
const NO_TEST_SPECIFIED = /no test specified/

/** `packageDir`: the package whose tests run ('' for the root), in the checkout at `repoDir`. */
export function commandToCapture(repoDir: string, packageDir: string, testCommand: string[] | null): CommandToCapture | null {
  if (testCommand) return testCommand.includes(FILES_PLACEHOLDER) ? null : { command: commandText(testCommand), dir: packageDir, source: 'the test-command setting' }
  const own = testScript(join(repoDir, packageDir))
  if (own) return { command: 'npm test', dir: packageDir, source: `the test script: ${own}` }
  const root = packageDir ? testScript(repoDir) : null
  if (root) return { command: 'npm test', dir: '', source: `the workspace root's test script: ${root}` }
  if (hasMakeTarget(join(repoDir, packageDir), 'test')) return { command: 'make test', dir: packageDir, source: 'the Makefile\'s test target' }
  return null
}

function testScript(dir: string): string | null {
  const script = readPackageJsonSync(dir)?.scripts?.test
  return typeof script === 'string' && script.trim() && !NO_TEST_SPECIFIED.test(script) ? script.trim() : null
}

function hasMakeTarget(dir: string, target: string): boolean {
  const makefile = ['GNUmakefile', 'makefile', 'Makefile'].map((name) => join(dir, name)).find((path) => existsSync(path))
  const text = makefile ? readPlainFileSync(makefile) : null
  return text !== null && new RegExp(`^${target}\\s*:(?!=)`, 'm').test(text)
}
