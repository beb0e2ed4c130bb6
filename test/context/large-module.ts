/**
 * A one-function fix in a large module (2,000+ lines of ordinary functions), as a real git repository in a
 * temp folder: the shape whose whole context the budget rule (src/context/budget.ts) keeps small. The
 * fixed function calls a helper defined far below it and a function of a small module it imports.
 */
import { tempGitRepo } from '../support/temp-git-repo.js'

export interface LargeModule {
  dir: string
  base: string
  head: string
  /** The changed module, its lines at head, and the names the tests rely on. */
  path: string
  lines: number
  fixedFunction: string
  fixedLine: string
  /** A function of the module the fix calls (defined far from it), and one the fix never touches. */
  callee: string
  untouched: string
  cleanup(): Promise<void>
}

const PATH = 'src/ledger.ts'
const FIXED_FUNCTION = 'applyFee'
const FIXED_LINE = '  if (fee <= 0) return balance'
const CALLEE = 'normaliseFee'

/**
 * A repository whose head commit fixes one line of `applyFee` in a module of `functions` other functions
 * (16 lines each); `applyFee` has `longBody` more lines before the fix (a long function), and its test
 * file `otherTests` tests of other functions before the one of `applyFee`.
 */
export async function buildLargeModule(functions = 130, longBody = 0, otherTests = 0): Promise<LargeModule> {
  const { dir, commit, cleanup } = await tempGitRepo('rtg-large-module-')
  const base = await commit({
    'package.json': JSON.stringify({ devDependencies: { jest: '^29' } }),
    'src/money.ts': 'export function roundCents(value: number): number {\n  return Math.round(value * 100) / 100\n}\n',
    'test/ledger.test.ts': `import { ${FIXED_FUNCTION}, report0 } from '../src/ledger'\n\n${ledgerTests(otherTests)}test('fees', () => {\n  expect(${FIXED_FUNCTION}(10, 2)).toBe(8)\n})\n`,
    [PATH]: ledger(functions, longBody, '  if (fee < 0) return balance')
  })
  const head = await commit({ [PATH]: ledger(functions, longBody, FIXED_LINE) })
  const lines = ledger(functions, longBody, FIXED_LINE).split('\n').length
  return { dir, base, head, path: PATH, lines, fixedFunction: FIXED_FUNCTION, fixedLine: FIXED_LINE, callee: CALLEE, untouched: `report${functions - 1}`, cleanup }
}

/** Tests of a function the fix does not touch. */
function ledgerTests(count: number): string {
  return Array.from({ length: count }, (_, i) => `test('report ${i}', () => {\n  expect(report0([${i}, 1], 10)).toBe(${i <= 10 ? i + 1 : 1})\n})\n\n`).join('')
}

/** The imports, half the filler functions, the fixed function, the other half, the callee at the end. */
function ledger(functions: number, longBody: number, guard: string): string {
  const filler = (i: number) => [
    `export function report${i}(entries: number[], limit: number): number {`,
    `  // Report ${i}: the sum of the entries under the limit, rounded to cents.`,
    '  let total = 0',
    '  for (const entry of entries) {',
    '    if (entry > limit) continue',
    `    total += entry * ${i + 1}`,
    '  }',
    '  if (total > limit * entries.length) {',
    '    total = limit * entries.length',
    '  }',
    '  const rounded = roundCents(total)',
    `  const label = 'report-${i}'`,
    '  void label',
    '  return rounded',
    '}',
    ''
  ]
  const half = Math.floor(functions / 2)
  return [
    "import { roundCents } from './money'",
    '',
    ...Array.from({ length: half }, (_, i) => filler(i)).flat(),
    `export function ${FIXED_FUNCTION}(balance: number, fee: number): number {`,
    ...Array.from({ length: longBody }, (_, i) => `  balance = fee > ${i * 10} ? balance - ${i % 7} : balance // tier ${i} of the fee table`),
    guard,
    `  return roundCents(balance - ${CALLEE}(fee))`,
    '}',
    '',
    ...Array.from({ length: functions - half }, (_, i) => filler(half + i)).flat(),
    `function ${CALLEE}(fee: number): number {`,
    '  return Math.min(fee, 1_000)',
    '}',
    ''
  ].join('\n')
}
