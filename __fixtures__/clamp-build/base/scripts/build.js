'use strict'
// The published code is lib/, made from src/ (a stand-in for a compiler): lib/ is not in git.
const fs = require('fs')
const path = require('path')

const root = path.join(__dirname, '..')
fs.rmSync(path.join(root, 'lib'), { recursive: true, force: true })
fs.mkdirSync(path.join(root, 'lib'))
for (const file of fs.readdirSync(path.join(root, 'src'))) {
  const source = fs.readFileSync(path.join(root, 'src', file), 'utf8')
  fs.writeFileSync(path.join(root, 'lib', file), `// Built from src/${file}: do not edit.\n${source}`)
}
