/** Build detection on real git repositories: which build, if any, the tests need before they run. */
import { execFileSync } from 'node:child_process'
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { dirname, join } from 'node:path'
import { buildForTrees, commandText, detectBuild } from '../../src/execute/build-detection.js'

const dirs: string[] = []
afterAll(() => dirs.forEach((dir) => rmSync(dir, { recursive: true, force: true })))

interface RepoFiles {
  /** Committed, path → content (objects become JSON). */
  tracked: Record<string, string | object>
  /** Written but not committed: build output, installed bins. */
  untracked?: Record<string, string>
}

/** A committed repository; detection gets the files git tracks, as the pipeline does. */
function repo({ tracked, untracked = {} }: RepoFiles): { dir: string; files: string[] } {
  const dir = mkdtempSync(join(tmpdir(), 'rtg-build-'))
  dirs.push(dir)
  const write = (path: string, content: string | object) => {
    mkdirSync(dirname(join(dir, path)), { recursive: true })
    writeFileSync(join(dir, path), typeof content === 'string' ? content : JSON.stringify(content, null, 2))
  }
  const git = (...args: string[]) => execFileSync('git', ['-c', 'user.name=t', '-c', 'user.email=t@t', ...args], { cwd: dir, encoding: 'utf8' })
  git('init', '-q', '-b', 'main')
  write('.gitignore', 'node_modules/\nlib/\ndist/\n')
  for (const [path, content] of Object.entries(tracked)) write(path, content)
  git('add', '-A')
  git('commit', '-q', '-m', 'head')
  for (const [path, content] of Object.entries(untracked)) write(path, content)
  return { dir, files: git('ls-files', '-z').split('\0').filter(Boolean) }
}

const detect = (files: RepoFiles, packageDir = '') => {
  const { dir, files: tracked } = repo(files)
  return detectBuild(dir, packageDir, tracked)
}

const manifest = (fields: object) => ({ name: 'pkg', version: '1.0.0', ...fields })

describe('the tests import build output git does not track', () => {
  test("through the package's main, which points into an ignored folder: the build script", async () => {
    const build = await detect({
      tracked: {
        'package.json': manifest({ main: 'lib/index.js', scripts: { build: 'babel src -d lib', test: 'mocha' } }),
        'src/index.js': 'module.exports = 1\n',
        'test/index.test.js': "const value = require('../')\n"
      },
      // Built in the checkout, but not in git: a worktree would not have it.
      untracked: { 'lib/index.js': 'module.exports = 1\n' }
    })
    expect(build).toEqual({ command: ['npm', 'run', 'build'], why: "test/index.test.js imports '../', which leads into lib/, a folder git does not track; the build script makes it" })
  })

  test('directly, a path in dist/, with the package manager of the lockfile', async () => {
    const build = await detect({
      tracked: {
        'package.json': manifest({ scripts: { 'build:lib': 'tsc -p tsconfig.lib.json', build: 'tsup' } }),
        'pnpm-lock.yaml': 'lockfileVersion: 6.0\n',
        'src/index.ts': 'export const x = 1\n',
        'test/helpers.ts': 'export const helper = 1\n',
        'test/index.test.ts': "import { helper } from './helpers'\nimport { x } from '../dist/esm/index.js'\n"
      }
    })
    expect(build?.command).toEqual(['pnpm', 'run', 'build'])
    expect(build?.why).toMatch(/^test\/index\.test\.ts imports '\.\.\/dist\/esm\/index\.js', which leads into dist\//)
  })

  test("through the package's own name, whose exports point into lib/", async () => {
    const build = await detect({
      tracked: {
        'package.json': manifest({ name: '@scope/pkg', exports: { '.': { types: './types/index.d.ts', require: './lib/index.cjs' } }, scripts: { compile: 'rollup -c' } }),
        'yarn.lock': '',
        'src/index.js': 'export const x = 1\n',
        'spec/pkg.spec.js': "const { x } = require('@scope/pkg')\n"
      }
    })
    expect(build?.command).toEqual(['yarn', 'run', 'compile'])
  })

  test('in one package of a monorepo: the lockfile at the root, the paths of the package', async () => {
    const build = await detect(
      {
        tracked: {
          'package.json': { private: true, workspaces: ['packages/*'] },
          'yarn.lock': '',
          'packages/a/package.json': manifest({ main: 'dist/index.js', scripts: { build: 'tsc' } }),
          'packages/a/src/index.ts': 'export const a = 1\n',
          'packages/a/test/a.test.ts': "import { a } from '..'\n",
          // Another package's test imports build output too: not the package under test.
          'packages/b/test/b.test.ts': "import '../lib/b.js'\n"
        }
      },
      'packages/a'
    )
    expect(build).toEqual({ command: ['yarn', 'run', 'build'], why: "packages/a/test/a.test.ts imports '..', which leads into packages/a/dist/, a folder git does not track; the build script makes it" })
  })
})

describe('the test scripts build before the runner', () => {
  test('a pretest script that builds: npm run pretest', async () => {
    const build = await detect({ tracked: { 'package.json': manifest({ scripts: { pretest: 'rimraf lib && npm run build', build: 'node scripts/build.js', test: 'jest' } }) } })
    expect(build).toEqual({ command: ['npm', 'run', 'pretest'], why: 'the pretest script builds: rimraf lib && npm run build' })
  })

  test('a pretest script that lints and builds: only its build, the tool from node_modules/.bin', async () => {
    const build = await detect({
      tracked: { 'package.json': manifest({ scripts: { pretest: 'eslint . && tsc -p tsconfig.build.json', test: 'mocha' } }) },
      untracked: { 'node_modules/.bin/tsc': '#!/usr/bin/env node\n' }
    })
    expect(build?.command).toEqual(['node_modules/.bin/tsc', '-p', 'tsconfig.build.json'])
  })

  test('npm run build && jest', async () => {
    const build = await detect({ tracked: { 'package.json': manifest({ scripts: { build: 'tsc', test: 'npm run build && jest' } }) } })
    expect(build).toEqual({ command: ['npm', 'run', 'build'], why: 'the test script builds before its runner: npm run build && jest' })
  })

  test('tsc && mocha', async () => {
    const build = await detect({ tracked: { 'package.json': manifest({ scripts: { test: 'tsc && mocha' } }) }, untracked: { 'node_modules/.bin/tsc': '' } })
    expect(build?.command).toEqual(['node_modules/.bin/tsc'])
  })

  test('yarn build; ... with a yarn lockfile, and a script that builds under another name', async () => {
    const build = await detect({ tracked: { 'package.json': manifest({ scripts: { make: 'webpack', test: 'yarn make; NODE_ENV=test jest' } }), 'yarn.lock': '' } })
    expect(build?.command).toEqual(['yarn', 'run', 'make'])
  })

  test("in a monorepo's package: the tool from the root's node_modules/.bin, relative to the package", async () => {
    const build = await detect(
      { tracked: { 'package.json': { private: true }, 'packages/a/package.json': manifest({ scripts: { test: 'tsc -b && jest' } }) }, untracked: { 'node_modules/.bin/tsc': '' } },
      'packages/a'
    )
    expect(build?.command).toEqual(['../../node_modules/.bin/tsc', '-b'])
  })

  test('its variables and a cross-env wrapper: NAME=value words, then the tool', async () => {
    const build = await detect({
      tracked: { 'package.json': manifest({ scripts: { test: 'cross-env NODE_ENV=production rollup -c && jest' } }) },
      untracked: { 'node_modules/.bin/rollup': '' }
    })
    expect(build?.command).toEqual(['NODE_ENV=production', 'node_modules/.bin/rollup', '-c'])
  })
})

describe('a repository that needs no build gets none', () => {
  test.each([
    ['its main is tracked', { '.gitignore': 'node_modules/\n', 'package.json': manifest({ main: 'lib/index.js', scripts: { build: 'echo', test: 'mocha' } }), 'lib/index.js': '', 'test/a.test.js': "require('..')\n" }],
    ["its main is built, but the tests import the sources", { 'package.json': manifest({ main: 'dist/index.cjs', scripts: { build: 'unbuild', test: 'vitest run' } }), 'src/index.ts': '', 'test/a.test.ts': "import { a } from '../src'\n" }],
    ['its CommonJS entry is tracked, only the import condition is built', { '.gitignore': 'node_modules/\ndist/\n', 'package.json': manifest({ main: 'lib/app.js', exports: { '.': { require: './lib/app.js', import: './dist/app.mjs' } }, scripts: { build: 'gen-esm-wrapper . ./dist/app.mjs' } }), 'lib/app.js': '', '__tests__/app.js': "const App = require('..')\n" }],
    ['a pretest that only lints', { 'package.json': manifest({ scripts: { pretest: 'eslint .', test: 'jest' } }) }],
    ['a type check before the runner', { 'package.json': manifest({ scripts: { test: 'tsc --noEmit && npm run lint && jest', lint: 'eslint .' } }) }],
    ['a build after the runner', { 'package.json': manifest({ scripts: { test: 'jest', posttest: 'npm run build', build: 'tsc' } }) }],
    ['an import of a missing file in a tracked folder', { 'package.json': manifest({ scripts: { build: 'tsc' } }), 'test/a.test.js': "require('./fixtures/generated.json')\n", 'test/fixtures/x.json': '{}' }],
    ['a command named like an object property', { 'package.json': manifest({ scripts: { test: 'constructor && jest' } }) }],
    ['no package.json', { 'setup.py': '' }]
  ])('%s', async (_, tracked) => {
    expect(await detect({ tracked })).toBeNull()
  })

  test('the tests import untracked output that no script builds: nothing to run', async () => {
    expect(await detect({ tracked: { 'package.json': manifest({ main: 'lib/index.js', scripts: { test: 'mocha' } }), 'test/a.test.js': "require('..')\n" } })).toBeNull()
  })
})

test('an explicit build-command wins, without looking at the repository', async () => {
  const { dir } = repo({ tracked: { 'package.json': manifest({ scripts: { test: 'npm run build && jest', build: 'tsc' } }) } })
  const listed: string[] = []
  const explicit = await buildForTrees(['make', 'all'], dir, '', async () => (listed.push('asked'), []))
  expect(explicit).toEqual({ command: ['make', 'all'], why: 'the build-command setting', detected: false })
  expect(listed).toEqual([])
  expect(await buildForTrees(null, dir, '', async () => ['package.json'])).toEqual({ command: ['npm', 'run', 'build'], why: 'the test script builds before its runner: npm run build && jest', detected: true })
})

test('commandText quotes only the words that need it', () => {
  expect(commandText(['npm', 'run', 'build:lib'])).toBe('npm run build:lib')
  expect(commandText(['node', '-e', "console.log('a b')"])).toBe(`node -e "console.log('a b')"`)
})
