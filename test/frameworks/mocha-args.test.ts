import { parseMochaArgs, parseOptsFile, scriptFlags } from '../../src/frameworks/mocha-args.js'
import { scriptCommands } from '../../src/frameworks/package-scripts.js'

describe('scriptFlags', () => {
  it.each<[string, Record<string, string>, string[]]>([
    ['plain mocha', { test: 'mocha' }, []],
    ['flags and a quoted spec glob', { test: "mocha --recursive --require ./test/setup.js --timeout 5000 'test/**/*.spec.js'" }, ['--recursive', '--require', './test/setup.js', '--timeout', '5000']],
    ['short aliases with values', { test: 'mocha -r ts-node/register -u tdd -t 0 test' }, ['-r', 'ts-node/register', '-u', 'tdd', '-t', '0']],
    ['inline values and node flags', { test: 'mocha --ui=bdd --enable-source-maps --loader=ts-node/esm test/*.ts' }, ['--ui=bdd', '--enable-source-maps', '--loader=ts-node/esm']],
    ['mocha behind c8, then a linter', { test: 'c8 --reporter=text --reporter=html mocha test/*.cjs && standardx' }, []],
    ['the mocha bin by path', { test: 'node ./node_modules/mocha/bin/_mocha --check-leaks test' }, ['--check-leaks']],
    ['a script running another script', { test: 'npm run lint && npm run test:unit', 'test:unit': 'mocha --require @babel/register' }, ['--require', '@babel/register']],
    ['yarn running another script', { test: 'yarn unit', unit: 'mocha --ui qunit' }, ['--ui', 'qunit']],
    ['no mocha at all', { test: 'jest --ci' }, []]
  ])('%s', (_label, scripts, flags) => {
    expect(scriptFlags(scripts).flags).toEqual(flags)
  })

  it('drops what the run decides itself: files, reporter, filters, bail, watch', () => {
    const script = 'mocha -R spec --reporter-options a=b -O c=d --grep slow --invert -b --bail --watch --watch-files lib --spec test/a.js --dry-run --forbid-only -- test/b.js'
    expect(scriptFlags({ test: script }).flags).toEqual(['--forbid-only'])
  })

  it('takes variables before mocha, and the config sources apart', () => {
    const found = scriptFlags({ test: 'TZ=UTC NODE_ENV=test mocha --config .mocharc.ci.yml --no-package --opts test/o.opts --exit' })
    expect(found).toEqual({ flags: ['--exit'], env: { TZ: 'UTC', NODE_ENV: 'test' }, config: '.mocharc.ci.yml', package: false, opts: 'test/o.opts' })
    expect(scriptFlags({ test: 'cross-env FOO=a=b mocha --no-config' })).toMatchObject({ env: { FOO: 'a=b' }, config: false })
  })

  it('does not loop on scripts that run each other', () => {
    expect(scriptFlags({ test: 'npm run a', a: 'npm run test' }).flags).toEqual([])
  })
})

describe('parseMochaArgs', () => {
  it('keeps a value flag at the end without its value', () => {
    expect(parseMochaArgs(['--require']).flags).toEqual(['--require'])
  })
})

describe('parseOptsFile', () => {
  it('reads a mocha.opts file: flags on lines, comments, no spec paths', () => {
    const opts = '# setup\n--require test/setup.js\n--ui bdd --recursive\ntest/**/*.spec.js\n'
    expect(parseOptsFile(opts).flags).toEqual(['--require', 'test/setup.js', '--ui', 'bdd', '--recursive'])
  })
})

describe('scriptCommands', () => {
  it('splits at shell operators and keeps quoted words whole', () => {
    expect(scriptCommands(`a "b c" && d 'e;f' || g; h | i & j`)).toEqual([['a', 'b c'], ['d', 'e;f'], ['g'], ['h'], ['i'], ['j']])
  })
})
