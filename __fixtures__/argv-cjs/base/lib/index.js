'use strict'

const { parse } = require('./parse')
const { coerce } = require('./coerce')

module.exports = { parse, coerce }
