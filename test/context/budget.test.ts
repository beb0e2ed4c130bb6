import { allot, ClippedText, linesLeftOut } from '../../src/context/budget.js'

const sum = (values: number[]) => values.reduce((total, value) => total + value, 0)

test('shares are what each piece wants when all fit', () => {
  expect(allot([10, 20, 30], 60, 5)).toEqual([10, 20, 30])
})

test('a small piece beside a huge one gets all it wants; the huge one gets the rest', () => {
  expect(allot([100, 1_000_000], 10_000, 50)).toEqual([100, 9_900])
  expect(allot([5_000, 5_000, 5_000], 9_000, 50)).toEqual([3_000, 3_000, 3_000])
  expect(sum(allot([7, 900, 40, 3_000, 12], 1_000, 10))).toBeLessThanOrEqual(1_000)
})

test('too many pieces to share usefully: the first ones get the minimum share, in order, until the total runs out', () => {
  const shares = allot(Array<number>(100).fill(1_000), 5_000, 600)
  expect(shares.slice(0, 9)).toEqual([600, 600, 600, 600, 600, 600, 600, 600, 200])
  expect(shares.slice(9).every((share) => share === 0)).toBe(true)
})

test('the marker says how many lines were left out, in the singular for one', () => {
  expect(linesLeftOut(1)).toBe('[… 1 line left out]')
  expect(linesLeftOut(812)).toBe('[… 812 lines left out]')
})

describe('ClippedText', () => {
  const lines = Array.from({ length: 100 }, (_, i) => `line ${i} ${'x'.repeat(30)}`)

  it('shows whole lines up to its allowance and marks the rest', () => {
    const text = new ClippedText(400, lines)
    expect(text.show(0, 99)).toBe(false)
    const shown = text.finish(99)
    expect(shown.length).toBeLessThanOrEqual(400)
    expect(shown.startsWith(`${lines[0]}\n${lines[1]}\n`)).toBe(true)
    const kept = shown.split('\n').length - 1
    expect(shown.endsWith(`\n${linesLeftOut(100 - kept)}`)).toBe(true)
  })

  it('marks the gap between the spans it shows', () => {
    const text = new ClippedText(10_000, lines)
    text.show(0, 1)
    text.show(50, 50)
    expect(text.finish(60)).toBe([lines[0], lines[1], linesLeftOut(48), lines[50], linesLeftOut(10)].join('\n'))
  })

  it('cuts a line longer than the room left inside itself (minified code)', () => {
    const text = new ClippedText(500, ['short', `var a=${'x+'.repeat(10_000)}1`])
    text.show(0, 1)
    const shown = text.finish(1)
    expect(shown.length).toBeLessThanOrEqual(500)
    expect(shown).toMatch(/^short\nvar a=x\+x\+[x+]* \[… \d+ characters left out\]$/)
  })
})
