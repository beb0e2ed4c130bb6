export { parseLine } from './parse-line.js'
export { parse, splitRecords } from './parse.js'
export { formatRow } from './format.js'
export { readCsv, writeCsv } from './files.js'
