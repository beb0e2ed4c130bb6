// The API list, read from the built module.
import { writeFileSync } from 'node:fs'

const api = await import('../lib/kebab.esm.js')
writeFileSync('lib/API.md', Object.keys(api).map((name) => `- \`${name}\`\n`).join(''))
