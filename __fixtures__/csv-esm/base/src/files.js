import { readFile, writeFile } from 'node:fs/promises'
import { formatRow } from './format.js'
import { parse } from './parse.js'

export async function readCsv(path, options = {}) {
  return parse(await readFile(path, 'utf8'), options)
}

/** Writes records with CRLF line endings, as spreadsheet programs expect. */
export async function writeCsv(path, rows, options = {}) {
  await writeFile(path, rows.map((fields) => `${formatRow(fields, options)}\r\n`).join(''))
}
