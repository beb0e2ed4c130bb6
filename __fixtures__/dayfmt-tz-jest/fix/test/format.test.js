'use strict'

const { formatDay } = require('../src')

describe('formatDay', () => {
  // Late in the evening, UTC: the same day only where the tests run in UTC (the test script sets TZ=UTC).
  test('gives the UTC day of a late evening instant', () => {
    expect(formatDay(new Date('2024-11-30T22:30:00Z')).endsWith('-30')).toBe(true)
  })

  test('gives a zero-padded month counted from 1 (#44)', () => {
    expect(formatDay(new Date('2024-03-09T22:30:00Z'))).toBe('2024-03-09')
  })
})
