// `@units/…` resolves only through unit-scripts' own jest configuration (its moduleNameMapper).
const { range } = require('@units/range')

describe('range', () => {
  it('counts up from start to end, excluding end', () => {
    expect(range(0, 4)).toEqual([0, 1, 2, 3])
  })

  it('takes a step', () => {
    expect(range(0, 10, 5)).toEqual([0, 5])
  })

  it('refuses a step of 0', () => {
    expect(() => range(0, 1, 0)).toThrow(RangeError)
  })
})
