/** How the tests run, read from the configuration: what the model is told about type-checking, interface, environment, Node. */
import { execFileSync } from 'node:child_process'
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { dirname, join } from 'node:path'
import { buildContext } from '../../src/context/context.js'
import { runtimeFacts } from '../../src/context/runtime-facts.js'
import { readChangeSet } from '../../src/diff/change-set.js'
import { frameworkFor } from '../../src/frameworks/detect.js'
import { renderConventions } from '../../src/model/render.js'
import { createGit } from '../../src/ports/git.js'

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

test('the conventions say it for a TypeScript fix under ts-jest, with the Node version; nothing on types for JavaScript', async () => {
  const dir = await mkdtemp(join(tmpdir(), 'rtg-type-checking-'))
  try {
    const git = (...args: string[]) => execFileSync('git', ['-c', 'user.name=t', '-c', 'user.email=t@t', ...args], { cwd: dir, encoding: 'utf8' }).trim()
    const write = async (files: Record<string, string>) => {
      for (const [path, content] of Object.entries(files)) await mkdir(dirname(join(dir, path)), { recursive: true }).then(() => writeFile(join(dir, path), content))
      git('add', '-A')
      git('commit', '-qm', 'x')
      return git('rev-parse', 'HEAD')
    }
    git('init', '-q')
    const base = await write({
      'package.json': JSON.stringify({ devDependencies: { jest: '^29', 'ts-jest': '^29' } }),
      'jest.config.js': "module.exports = { preset: 'ts-jest' }\n",
      'src/cart.ts': 'export interface Cart { add(id: string): void }\nexport const total = (n: number) => n\n',
      'src/plain.js': 'module.exports = 1\n',
      'test/cart.test.ts': "import { total } from '../src/cart'\ntest('total', () => expect(total(1)).toBe(1))\n"
    })
    const head = await write({ 'src/cart.ts': 'export interface Cart { add(id: string): void; clear(): void }\nexport const total = (n: number) => n\n' })
    const repo = createGit(dir)
    const context = await buildContext(await readChangeSet(repo, base, head), repo, await frameworkFor(dir, 'jest'))
    const conventions = renderConventions(context, 'test/regression/a.test.ts')
    expect(conventions).toMatch(/^- TypeScript tests are type-checked: a type error fails the whole file \(before the fix too\).* \(ts-jest\)\.$/m)
    expect(conventions).toMatch(/^- Node \d+\.\d+\.\d+ runs the tests\.$/m)

    const jsHead = await write({ 'src/plain.js': 'module.exports = 2\n' })
    const jsContext = await buildContext(await readChangeSet(repo, head, jsHead), repo, await frameworkFor(dir, 'jest'))
    expect(jsContext.runtime.some((fact) => fact.startsWith('TypeScript'))).toBe(false)
    expect(renderConventions(jsContext, 'test/regression/a.test.js')).not.toContain('TypeScript tests are')
  } finally {
    await rm(dir, { recursive: true, force: true })
  }
})
