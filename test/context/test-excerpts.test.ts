import { testsNamingTheChange } from '../../src/context/test-excerpts.js'

const filler = (i: number) => `it('keeps case ${i}', () => {\n  expect(total([${i}, ${i}])).toBe(${2 * i})\n})\n`
const file = (tests: string[]) => `const { total, applyFee } = require('../src/ledger')\nconst fixtures = require('./fixtures')\n\n${tests.join('\n')}`

test('a test file within the limit is shown whole', () => {
  const content = file([filler(1)])
  expect(testsNamingTheChange(content, ['applyFee'], 8_000)).toBe(content)
})

test('a long test file shows its head, the tests naming the changed code in their groups, and the other tests by line', () => {
  const fees = "describe('fees', () => {\n  it('charges the fee', () => {\n    expect(applyFee(10, 2)).toBe(8)\n  })\n})\n"
  const tests = [...Array.from({ length: 150 }, (_, i) => filler(i)), fees, ...Array.from({ length: 150 }, (_, i) => filler(150 + i))]
  const content = file(tests)
  const lines = content.split('\n')
  const shown = testsNamingTheChange(content, ['applyFee', 'expect'], 8_000)!
  expect(content.length).toBeGreaterThan(2 * 8_000)
  expect(shown.length).toBeLessThanOrEqual(8_000)
  expect(shown.startsWith("const { total, applyFee } = require('../src/ledger')\nconst fixtures = require('./fixtures')\n\n[… ")).toBe(true)
  expect(shown).toContain(fees.trimEnd())
  // `expect` is in every test: only the changed code's own names choose the tests.
  expect(shown).not.toContain('expect(total([3, 3]))')
  const describeAt = lines.indexOf("describe('fees', () => {")
  expect(shown).toMatch(new RegExp(`\\[… ${describeAt - 3} lines left out\\]\\ndescribe\\('fees'`))
  expect(shown).toContain('… (the other tests of the file, by line, to read what you need:)\n4: it(\'keeps case 0\', () => {')
  expect(shown).toMatch(/\[… \d+ more tests left out\]$/)
})

test('a long test file none of whose tests names the changed code is left to the caller (cut as a prefix)', () => {
  const content = file(Array.from({ length: 300 }, (_, i) => filler(i)))
  expect(testsNamingTheChange(content, ['applyFee'], 8_000)).toBeNull()
  expect(testsNamingTheChange(content, [], 8_000)).toBeNull()
})

test('pytest and unittest tests are found by their def, inside their class', () => {
  const method = (i: number) => `    def test_case_${i}(self):\n        self.assertEqual(total([${i}]), ${i})\n`
  const fee = '    def test_fee(self):\n        self.assertEqual(apply_fee(10, 2), 8)\n'
  const content = `import unittest\nfrom ledger import total, apply_fee\n\n\nclass LedgerTest(unittest.TestCase):\n${[...Array.from({ length: 200 }, (_, i) => method(i)), fee].join('\n')}`
  const shown = testsNamingTheChange(content, ['apply_fee'], 4_000)!
  expect(shown).toContain('class LedgerTest(unittest.TestCase):\n[… ')
  expect(shown).toContain(fee.trimEnd())
  expect(shown).toContain('\n6: def test_case_0(self):\n')
})
