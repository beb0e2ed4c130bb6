import { sep } from 'node:path'
import type { RunResult } from '../domain.js'
import { escapeRegExp } from '../regexp.js'

/**
 * A run's report with the run's temporary tree folders taken out of its messages and titles, so a test's
 * failure reads the same from either tree and the report never shows the runner's temporary folders.
 * Compilers also print paths relative to a folder of their own (`../../../tmp/rtg-x/trees/pre-fix/src/a`).
 */
export function withoutTreePaths(run: RunResult, treeDirs: string[]): RunResult {
  const patterns = treeDirs.flatMap((dir) => [absolutePath(dir), relativePath(dir)])
  const clean = (text: string) => patterns.reduce((result, pattern) => result.replace(pattern, ''), text)
  // A title built from the working folder (`relative(process.cwd(), …)`) names the same test in both trees.
  const title = (name: string) => treeDirs.reduce((result, dir) => result.split(dir).join('<tree>'), clean(name))
  return {
    ...run,
    tests: run.tests.map((test) => ({ ...test, name: title(test.name), message: clean(test.message) })),
    fileErrors: run.fileErrors.map((error) => ({ ...error, message: clean(error.message) })),
    output: clean(run.output)
  }
}

const anySep = '[\\\\/]'

function absolutePath(dir: string): RegExp {
  return new RegExp(escapeRegExp(`${dir}${sep}`), 'g')
}

/** `../` steps up, any folders, then the tree's own last two folders (`trees/pre-fix/`, `<tree>/packages/x/`). */
function relativePath(dir: string): RegExp {
  const tail = dir.split(/[\\/]/).filter(Boolean).slice(-2).map(escapeRegExp).join(anySep)
  return new RegExp(`(?:\\.\\.${anySep})+(?:[^\\s'"\\\\/]+${anySep})*?${tail}${anySep}`, 'g')
}
