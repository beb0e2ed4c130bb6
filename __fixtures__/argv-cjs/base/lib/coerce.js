'use strict'

const TRUE_WORDS = new Set(['true', 'yes', 'on', '1'])
const FALSE_WORDS = new Set(['false', 'no', 'off', '0'])

/**
 * Turns a flag's raw value into the type its options declare. Strings stay strings unless the flag is a
 * number or a boolean; `true` (a flag given without a value) stays `true`.
 */
function coerce (name, raw, spec) {
  if (spec.boolean.has(name)) return toBoolean(name, raw)
  if (spec.number.has(name)) return toNumber(name, raw)
  return raw
}

function toBoolean (name, raw) {
  if (typeof raw === 'boolean') return raw
  const word = String(raw).toLowerCase()
  if (TRUE_WORDS.has(word)) return true
  if (FALSE_WORDS.has(word)) return false
  throw new TypeError(`--${name} expects a boolean, got "${raw}"`)
}

function toNumber (name, raw) {
  const value = typeof raw === 'string' && raw.trim() !== '' ? Number(raw) : NaN
  if (Number.isNaN(value)) throw new TypeError(`--${name} expects a number, got "${raw}"`)
  return value
}

module.exports = { coerce, toBoolean, toNumber }
