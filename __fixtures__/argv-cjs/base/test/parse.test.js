'use strict'

const { parse } = require('../lib/parse')

describe('parse', () => {
  it('collects positionals and stops at --', () => {
    assert.deepEqual(parse(['build', 'src', '--', '--not-a-flag']), { _: ['build', 'src', '--not-a-flag'] })
  })

  describe('long flags', () => {
    it('reads --name=value', () => {
      assert.deepEqual(parse(['--mode=production']), { _: [], mode: 'production' })
    })

    it('reads --name value for declared strings and numbers', () => {
      assert.deepEqual(parse(['--mode', 'dev', '--port', '8080'], { string: ['mode'], number: ['port'] }), { _: [], mode: 'dev', port: 8080 })
    })

    it('treats an undeclared flag before a word as a switch', () => {
      assert.deepEqual(parse(['--watch', 'src']), { _: ['src'], watch: true })
    })

    it('negates with --no-', () => {
      assert.deepEqual(parse(['--no-color'], { boolean: ['color'] }), { _: [], color: false })
    })

    it('keeps an empty value', () => {
      assert.deepEqual(parse(['--prefix='], { string: ['prefix'] }), { _: [], prefix: '' })
    })
  })

  describe('short flags', () => {
    it('reads a cluster of switches', () => {
      assert.deepEqual(parse(['-abc']), { _: [], a: true, b: true, c: true })
    })

    it('gives the next word to the last letter when it takes a value', () => {
      assert.deepEqual(parse(['-vp', '3000'], { number: ['port'], alias: { p: 'port', v: 'verbose' } }), { _: [], verbose: true, port: 3000 })
    })
  })

  describe('arrays and defaults', () => {
    it('collects repeated array flags', () => {
      assert.deepEqual(parse(['--tag', 'a', '--tag=b'], { array: ['tag'] }), { _: [], tag: ['a', 'b'] })
    })

    it('replaces an array default with the values given', () => {
      assert.deepEqual(parse(['--tag', 'x'], { array: ['tag'], default: { tag: ['latest'] } }), { _: [], tag: ['x'] })
      assert.deepEqual(parse([], { array: ['tag'], default: { tag: ['latest'] } }), { _: [], tag: ['latest'] })
    })
  })

  it('refuses keys that would reach Object.prototype', () => {
    assert.throws(() => parse(['--__proto__=1']), /refusing to set --__proto__/)
    assert.throws(() => parse(['--constructor', 'x']), /refusing/)
  })
})
