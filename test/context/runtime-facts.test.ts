/** How the tests run, read from the configuration: what the model is told about type-checking, interface, environment, Node. */
import { runtimeFacts } from '../../src/context/runtime-facts.js'

const typeChecking = (framework: string, config: string) => runtimeFacts({ framework, language: 'typescript', config, nodeVersion: null }).find((fact) => fact.startsWith('TypeScript')) ?? null

test.each([
  ['jest', '{"devDependencies":{"jest":"29","ts-jest":"29"}}\nmodule.exports = { preset: "ts-jest" }', /^TypeScript tests are type-checked: .* \(ts-jest\)\.$/],
  ['jest', '{"scripts":{"test":"tsdx test"},"devDependencies":{"tsdx":"0.14"}}', /^TypeScript tests are type-checked: /],
  ['jest', 'module.exports = { transform: { "^.+\\\\.tsx?$": ["ts-jest", { isolatedModules: true }] } }', /^TypeScript tests are not type-checked/],
  ['jest', 'module.exports = { transform: { "^.+\\\\.tsx?$": ["ts-jest", { diagnostics: false }] } }', /^TypeScript tests are not type-checked/],
  ['jest', '{"devDependencies":{"jest":"29","@swc/jest":"0.2"}}', /^TypeScript tests are not type-checked/],
  ['jest', '{"devDependencies":{"jest":"29"}}', null],
  ['vitest', '{"devDependencies":{"vitest":"1"}}', /^TypeScript tests are not type-checked: .* \(vitest, esbuild\)\.$/],
  ['mocha', '{"scripts":{"test":"mocha -r ts-node/register test/**/*.ts"}}', /^TypeScript tests are type-checked: .* \(ts-node\)\.$/],
  ['mocha', '{"scripts":{"test":"TS_NODE_TRANSPILE_ONLY=1 mocha -r ts-node/register"}}', /^TypeScript tests are not type-checked/],
  ['node-test', '{"scripts":{"test":"node --import tsx --test test/*.ts"}}', /^TypeScript tests are not type-checked/]
])('type-checking: %s with %s', (framework, config, expected) => {
  const note = typeChecking(framework, config)
  if (expected === null) expect(note).toBeNull()
  else expect(note).toMatch(expected)
})

test('the Node version, mocha\'s TDD interface and jest\'s environment, when the configuration says so', () => {
  expect(runtimeFacts({ framework: 'mocha', language: 'javascript', config: '{"mocha":{"ui":"tdd"}}', nodeVersion: 'v20.11.1' })).toEqual([
    'Node 20.11.1 runs the tests.',
    "mocha's TDD interface: suite(), test(), suiteSetup(), setup() — not describe()/it()."
  ])
  expect(runtimeFacts({ framework: 'mocha', language: 'javascript', config: '{"scripts":{"test":"mocha --ui tdd"}}', nodeVersion: null })).toHaveLength(1)
  expect(runtimeFacts({ framework: 'mocha', language: 'javascript', config: '{"scripts":{"test":"mocha"}}', nodeVersion: null })).toEqual([])
  expect(runtimeFacts({ framework: 'jest', language: 'javascript', config: 'module.exports = { testEnvironment: "jsdom" }', nodeVersion: null })).toEqual(["jest's test environment: jsdom (a browser-like DOM: document, window)."])
  expect(runtimeFacts({ framework: 'jest', language: 'javascript', config: '{"scripts":{"test":"tsdx test --env=node"}}', nodeVersion: null })).toEqual(["jest's test environment: node."])
})
