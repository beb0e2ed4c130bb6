/**
 * A fix inside a very large changed file, as a real git repository in a temp folder: the shape that made
 * context building quadratic. The module holds a generated table whose every row the change rewrites
 * (thousands of changed lines with no enclosing function) and, after it, one small function with the fix.
 */
import { tempGitRepo } from '../support/temp-git-repo.js'

export interface LargeChange {
  dir: string
  base: string
  head: string
  /** The changed module. */
  path: string
  /** The function the fix changed, its changed line at head, and the lines of the changed module. */
  fixedFunction: string
  fixedLine: string
  lines: number
  cleanup(): Promise<void>
}

const PATH = 'src/rates.ts'
const FIXED_FUNCTION = 'applyRefund'
const FIXED_LINE = '  if (refund <= 0) return balance'

/** A repository whose head commit rewrites every row of a `lines`-line table and fixes `applyRefund` below it. */
export async function buildLargeChange(lines: number): Promise<LargeChange> {
  const { dir, commit, cleanup } = await tempGitRepo('rtg-large-change-')
  const base = await commit({
    'package.json': JSON.stringify({ devDependencies: { jest: '^29' } }),
    'test/rates.test.ts': "import { applyRefund } from '../src/rates'\n\ntest('refunds', () => {\n  expect(applyRefund(1, 2)).toBe(3)\n})\n",
    [PATH]: rates(lines, 1, '  if (refund < 0) return balance')
  })
  const head = await commit({ [PATH]: rates(lines, 2, FIXED_LINE) })
  return { dir, base, head, path: PATH, fixedFunction: FIXED_FUNCTION, fixedLine: FIXED_LINE, lines, cleanup }
}

/** The module: a table of rows (every one differs between versions), then the function with the fix. */
function rates(lines: number, version: number, guard: string): string {
  const fn = [`export function ${FIXED_FUNCTION}(balance: number, refund: number): number {`, guard, '  return balance + refund', '}', '']
  const rows = Array.from({ length: lines - fn.length - 2 }, (_, i) => `  ${(i * 7 + version) % 9973}, // row ${i}`)
  return ['export const RATES = [', ...rows, ']', ...fn].join('\n')
}
