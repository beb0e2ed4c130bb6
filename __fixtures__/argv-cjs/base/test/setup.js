'use strict'

// Loaded by `mocha --require ./test/setup.js` (the test script): node's strict assert for every test file,
// and a check that no test left anything on Object.prototype (a flag parser is one step from pollution).
global.assert = require('node:assert/strict')

exports.mochaHooks = {
  afterEach () {
    const leaked = Object.getOwnPropertyNames(Object.prototype).filter((key) => !BUILT_IN.has(key))
    assert.deepEqual(leaked, [], 'a test left properties on Object.prototype')
  }
}

const BUILT_IN = new Set(Object.getOwnPropertyNames(Object.prototype))
