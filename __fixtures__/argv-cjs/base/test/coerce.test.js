'use strict'

const { coerce } = require('../lib/coerce')

const spec = (types) => ({
  boolean: new Set(types.boolean || []),
  number: new Set(types.number || []),
  string: new Set(),
  array: new Set()
})

describe('coerce', () => {
  it('reads yes/no words as booleans', () => {
    assert.equal(coerce('color', 'yes', spec({ boolean: ['color'] })), true)
    assert.equal(coerce('color', 'OFF', spec({ boolean: ['color'] })), false)
  })

  it('rejects a word that is no boolean', () => {
    assert.throws(() => coerce('color', 'maybe', spec({ boolean: ['color'] })), /--color expects a boolean, got "maybe"/)
  })

  it('reads numbers, and rejects empty or non-numeric values', () => {
    assert.equal(coerce('port', '8080', spec({ number: ['port'] })), 8080)
    assert.throws(() => coerce('port', '', spec({ number: ['port'] })), TypeError)
    assert.throws(() => coerce('port', 'http', spec({ number: ['port'] })), /expects a number/)
  })

  it('leaves undeclared flags as given', () => {
    assert.equal(coerce('name', 'x=1', spec({})), 'x=1')
  })
})
