'use strict'

const numfmt = require('../src')

describe('format', () => {
  test('writes ordinals', () => {
    expect(numfmt.format(1, '{o}')).toBe('1st')
    expect(numfmt.format(22, 'the {o} time')).toBe('the 22nd time')
    expect(numfmt.format(104, '{o}')).toBe('104th')
  })

  test('pads to two digits', () => {
    expect(numfmt.format(7, '{00}:{00}')).toBe('07:07')
  })

  test('the teens take "th" (#31)', () => {
    expect(numfmt.format(11, '{o}')).toBe('11th')
    expect(numfmt.format(112, '{o}')).toBe('112th')
  })

  test('leaves unknown tokens as they are', () => {
    expect(numfmt.format(3, '{x} {o}')).toBe('{x} 3rd')
  })
})

describe('extend', () => {
  test('adds a token', () => {
    numfmt.extend({ token: 'hex', render: (n) => n.toString(16) })
    expect(numfmt.format(255, '0x{hex}')).toBe('0xff')
  })
})
