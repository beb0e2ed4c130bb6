import { describe, expect, it } from '@jest/globals'
import type { RunResult } from '../../src/domain.js'
import { withoutTreePaths } from '../../src/execute/tree-paths.js'

const treeDir = '/tmp/regression-testgen-ILLo4j/trees/pre-fix'

function runWith(message: string, name = 'adds'): RunResult {
  return {
    tests: [{ file: 'test/a.test.ts', name, status: 'failed', durationMs: 1, message }],
    fileErrors: [{ file: 'test/b.test.ts', message }],
    exitCode: 1,
    timedOut: false,
    durationMs: 10,
    output: message
  }
}

describe('withoutTreePaths', () => {
  it('takes the tree folder out of absolute paths', () => {
    const run = withoutTreePaths(runWith(`Error at ${treeDir}/src/utils.ts:3:7`), [treeDir])
    expect(run.tests[0].message).toBe('Error at src/utils.ts:3:7')
    expect(run.fileErrors[0].message).toBe('Error at src/utils.ts:3:7')
    expect(run.output).toBe('Error at src/utils.ts:3:7')
  })

  it('takes the tree folder out of a path a compiler printed relative to its own folder', () => {
    const message = `error TS2305: Module '"../../../../regression-testgen-ILLo4j/trees/pre-fix/src/utils"' has no exported member 'isEmptyArray'.`
    const run = withoutTreePaths(runWith(message), [treeDir])
    expect(run.tests[0].message).toBe(`error TS2305: Module '"src/utils"' has no exported member 'isEmptyArray'.`)
  })

  it('keeps relative paths that do not lead into the tree', () => {
    const message = `Cannot find module '../../lib/trees/pre-fix-helpers' from 'test/a.test.ts'; see ../docs/pre-fix/x`
    expect(withoutTreePaths(runWith(message), [treeDir]).tests[0].message).toBe(message)
  })

  it('names the tree in a title built from the working folder, so both trees give the same title', () => {
    const run = withoutTreePaths(runWith('', `runs in ${treeDir}`), [treeDir])
    expect(run.tests[0].name).toBe('runs in <tree>')
  })
})
