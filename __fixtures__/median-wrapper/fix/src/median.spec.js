// `~/…` resolves only through unit-kit's own jest configuration (its moduleNameMapper).
const { median } = require('~/median')

describe('median', () => {
  it('gives the middle of an odd count', () => {
    expect(median([3, 1, 2])).toBe(2)
  })

  it('gives the mean of the middle two for an even count (#9)', () => {
    expect(median([1, 2, 3, 4])).toBe(2.5)
  })

  it('refuses no numbers', () => {
    expect(() => median([])).toThrow(RangeError)
  })
})
