/**
 * `npm run check-dist`: after `npm run build`, fails when dist/ differs from what is committed (changed,
 * deleted or new files), so a release never ships a bundle older than src/.
 */
import { execFileSync } from 'node:child_process'

const changes = execFileSync('git', ['status', '--porcelain', '--untracked-files=all', '--', 'dist'], { encoding: 'utf8' })
if (changes.trim()) {
  process.stderr.write(`${changes}dist/ is stale: run 'npm run build' and commit dist/.\n`)
  process.exit(1)
}
console.log('dist/ is a fresh build of src/.')
