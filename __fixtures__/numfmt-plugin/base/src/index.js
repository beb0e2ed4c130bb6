'use strict'

const ordinal = require('./plugins/ordinal')
const padded = require('./plugins/padded')

const renderers = new Map()

/** Adds a token: `{token}` in a pattern is replaced by `plugin.render(n)`. */
function extend(plugin) {
  renderers.set(plugin.token, plugin.render)
  return numfmt
}

/** Fills a pattern's tokens with the number as each token's plugin writes it; unknown tokens stay. */
function format(n, pattern) {
  return pattern.replace(/\{(\w+)\}/g, (token, name) => (renderers.has(name) ? renderers.get(name)(n) : token))
}

const numfmt = { format, extend }
extend(ordinal).extend(padded)

module.exports = numfmt
