import { describe, it } from 'node:test'
import assert from 'node:assert/strict'
import { parse, splitRecords } from '../src/parse.js'

describe('parse', () => {
  it('returns arrays of fields without a header', () => {
    assert.deepEqual(parse('a,b\nc,d\n'), [['a', 'b'], ['c', 'd']])
  })

  it('keys records by the header row', () => {
    assert.deepEqual(parse('id,name\r\n1,Ann\r\n2,Bo\r\n', { header: true }), [{ id: '1', name: 'Ann' }, { id: '2', name: 'Bo' }])
  })

  it('rejects a record with too few fields', () => {
    assert.throws(() => parse('id,name,city\n1,Ann\n', { header: true }), { name: 'RangeError', message: 'row 2 has 2 fields, the header has 3' })
  })
})

describe('splitRecords', () => {
  it('keeps a line break inside quotes', () => {
    assert.deepEqual(splitRecords('a,"line 1\nline 2"\nb,c'), ['a,"line 1\nline 2"', 'b,c'])
  })
})
