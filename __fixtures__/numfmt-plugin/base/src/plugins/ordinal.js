'use strict'

const SUFFIXES = ['th', 'st', 'nd', 'rd']

/** `{o}`: `1st`, `22nd`, `104th`. */
function render(n) {
  const suffix = SUFFIXES[n % 10] || 'th'
  return `${n}${suffix}`
}

module.exports = { token: 'o', render }
