'use strict'

const { coerce } = require('./coerce')

// Keys that would write to Object.prototype (or replace a constructor) instead of the result.
const FORBIDDEN_KEYS = new Set(['__proto__', 'constructor', 'prototype'])

/**
 * Parses command-line arguments into an object: `_` holds the positionals, each flag its value.
 *
 * options: `boolean`, `number`, `string`, `array` (names), `alias` ({ short: long }), `default` ({ name: value }).
 */
function parse (argv, options = {}) {
  const spec = normalize(options)
  const result = { _: [] }
  for (const [name, value] of Object.entries(spec.defaults)) result[name] = value
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i]
    if (arg === '--') {
      result._.push(...argv.slice(i + 1))
      break
    }
    if (arg.startsWith('--no-')) {
      assign(result, spec, arg.slice(5), false)
    } else if (arg.startsWith('--')) {
      const [name, inline] = splitFlag(arg)
      if (inline !== undefined) {
        assign(result, spec, name, inline)
      } else if (takesValue(spec, name) && argv[i + 1] !== undefined && !argv[i + 1].startsWith('-')) {
        assign(result, spec, name, argv[++i])
      } else {
        assign(result, spec, name, true)
      }
    } else if (arg.startsWith('-') && arg.length > 1) {
      // -abc: three switches; the last one may take the next word as its value (-p 8080).
      const letters = arg.slice(1).split('')
      const last = letters.pop()
      for (const letter of letters) assign(result, spec, letter, true)
      const next = argv[i + 1]
      if (takesValue(spec, last) && next !== undefined && !next.startsWith('-')) {
        assign(result, spec, last, next)
        i++
      } else {
        assign(result, spec, last, true)
      }
    } else {
      result._.push(arg)
    }
  }
  return result
}

/** `--name=value` → ['name', 'value']; `--name` → ['name', undefined]. */
function splitFlag (arg) {
  const [name, value] = arg.slice(2).split('=')
  return [name, value]
}

function normalize (options) {
  const alias = options.alias || {}
  return {
    boolean: new Set(options.boolean || []),
    number: new Set(options.number || []),
    string: new Set(options.string || []),
    array: new Set(options.array || []),
    alias,
    defaults: Object.assign({}, options.default)
  }
}

function canonical (spec, name) {
  return Object.prototype.hasOwnProperty.call(spec.alias, name) ? spec.alias[name] : name
}

/** Whether a flag given without `=value` reads the next word: declared numbers, strings and arrays do. */
function takesValue (spec, name) {
  const key = canonical(spec, name)
  return spec.number.has(key) || spec.string.has(key) || spec.array.has(key)
}

function assign (result, spec, name, raw) {
  const key = canonical(spec, name)
  if (FORBIDDEN_KEYS.has(key)) throw new Error(`refusing to set --${key}`)
  const value = coerce(key, raw, spec)
  if (!spec.array.has(key)) {
    result[key] = value
  } else if (Object.prototype.hasOwnProperty.call(spec.defaults, key) && result[key] === spec.defaults[key]) {
    // The first value given replaces the default rather than adding to it.
    result[key] = [value]
  } else {
    result[key] = (result[key] || []).concat(value)
  }
}

module.exports = { parse }
