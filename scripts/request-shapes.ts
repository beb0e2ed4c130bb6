/**
 * `npx tsx scripts/request-shapes.ts DIR OUT.json`: a record of a run's recorded requests (DIR, as
 * scripts/request-cost.ts reads it) that keeps none of their text, for a run whose requests hold code or text
 * that may not be committed (the dev cases' repositories). Per request: its stage, the output tokens of its
 * reply, `tool_choice` and `thinking`, and each block of the prompt (tools, system, each message block) as
 * the sha256 of its bytes, a token estimate and whether it carries `cache_control`.
 * `scripts/request-cost.ts OUT.json` prices the record as it prices DIR; `npm run bench` prints bench/requests/.
 */
import { writeFileSync } from 'node:fs'
import { formatShapes, readRequestFolder } from './recorded-run.js'

const [dir, out] = process.argv.slice(2)
if (!dir || !out?.endsWith('.json')) {
  console.error('usage: tsx scripts/request-shapes.ts DIR OUT.json (DIR: a folder of NNNN.request.json files)')
  process.exit(2)
}

const run = readRequestFolder(dir)
if (run.requests.length === 0) {
  console.error(`${dir} holds no NNNN.request.json files`)
  process.exit(1)
}
writeFileSync(out, formatShapes(run))
console.log(`${out}: ${run.requests.length} request(s), ${run.requests.reduce((sum, request) => sum + request.shape.blocks.length, 0)} blocks`)
