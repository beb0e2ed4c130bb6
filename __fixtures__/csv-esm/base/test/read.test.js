import { beforeEach, describe, it } from 'node:test'
import assert from 'node:assert/strict'
import { writeFile } from 'node:fs/promises'
import { readCsv } from '../src/files.js'
import { freshTmp, tmpPath } from './helpers/tmp.js'

describe('readCsv', () => {
  beforeEach(freshTmp)

  it('reads a file exported with CRLF line endings', async () => {
    await writeFile(tmpPath('people.csv'), 'id,name\r\n1,"Smith, Jo"\r\n')
    assert.deepEqual(await readCsv(tmpPath('people.csv'), { header: true }), [{ id: '1', name: 'Smith, Jo' }])
  })

  it('reads a semicolon-separated file', async () => {
    await writeFile(tmpPath('prices.csv'), 'sku;price\nA-1;3,50\n')
    assert.deepEqual(await readCsv(tmpPath('prices.csv'), { header: true, delimiter: ';' }), [{ sku: 'A-1', price: '3,50' }])
  })
})
