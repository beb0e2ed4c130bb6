// The published module is lib/kebab.esm.js, made from src/ (a stand-in for a bundler): lib/ is not in git.
import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs'

rmSync('lib', { recursive: true, force: true })
mkdirSync('lib')
writeFileSync('lib/kebab.esm.js', `// Built from src/kebab.js: do not edit.\n${readFileSync('src/kebab.js', 'utf8')}`)
