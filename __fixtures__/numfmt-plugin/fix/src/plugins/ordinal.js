'use strict'

const SUFFIXES = ['th', 'st', 'nd', 'rd']

/** `{o}`: `1st`, `22nd`, `104th`; the teens (`11th`, `112th`) always take `th`. */
function render(n) {
  const teen = n % 100 >= 11 && n % 100 <= 13
  const suffix = teen ? 'th' : SUFFIXES[n % 10] || 'th'
  return `${n}${suffix}`
}

module.exports = { token: 'o', render }
