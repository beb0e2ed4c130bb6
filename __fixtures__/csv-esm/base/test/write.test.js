import { beforeEach, describe, it } from 'node:test'
import assert from 'node:assert/strict'
import { readFile } from 'node:fs/promises'
import { readCsv, writeCsv } from '../src/files.js'
import { formatRow } from '../src/format.js'
import { freshTmp, tmpPath } from './helpers/tmp.js'

describe('formatRow', () => {
  it('quotes fields with a delimiter, a quote or a line break', () => {
    assert.equal(formatRow(['1', 'Smith, Jo', 'says "hi"', 'two\nlines']), '1,"Smith, Jo","says ""hi""","two\nlines"')
  })

  it('writes null and undefined as empty fields', () => {
    assert.equal(formatRow(['a', null, undefined, 'd']), 'a,,,d')
  })
})

describe('writeCsv', () => {
  beforeEach(freshTmp)

  it('writes CRLF records', async () => {
    await writeCsv(tmpPath('out.csv'), [['id', 'name'], ['1', 'Ann']])
    assert.equal(await readFile(tmpPath('out.csv'), 'utf8'), 'id,name\r\n1,Ann\r\n')
  })

  it('round-trips quoted fields through readCsv', async () => {
    const rows = [['id', 'note'], ['1', 'says "hi", twice']]
    await writeCsv(tmpPath('notes.csv'), rows)
    assert.deepEqual(await readCsv(tmpPath('notes.csv')), rows)
  })
})
