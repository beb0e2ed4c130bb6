/** Which formatter and linter the repository asks for, from its configuration and scripts; only installed ones count. */
import { detectTidyTools, type RepositoryAtHead } from '../../../src/execute/tidy/detect.js'
import { scriptCommands } from '../../../src/frameworks/package-scripts.js'
import { scriptUse } from '../../../src/execute/tidy/scripts.js'
import { TOOLS } from '../../../src/execute/tidy/tools.js'

/** A repository at head holding `files`, with `installed` programs (by name) at /bin. */
function repo(files: Record<string, string>, installed: string[] = ['prettier', 'eslint', 'biome', 'xo', 'ruff', 'black']): RepositoryAtHead {
  return { files: Object.keys(files), read: async (path) => files[path] ?? null, installed: (spec) => (installed.includes(spec.program) ? `/bin/${spec.program}` : null) }
}

const manifest = (extra: Record<string, unknown>) => JSON.stringify({ name: 'p', ...extra })
const names = async (files: Record<string, string>, installed?: string[], packageDir = '') => {
  const plan = await detectTidyTools(repo(files, installed), packageDir)
  return { formatter: plan.formatter && `${plan.formatter.spec.name} (${plan.formatter.evidence}) ${plan.formatter.options.join(' ')}`.trim(), linter: plan.linter && `${plan.linter.spec.name} (${plan.linter.evidence}) ${plan.linter.options.join(' ')}`.trim() }
}

test('configuration files and package.json keys name the tools', async () => {
  expect(await names({ 'package.json': manifest({}), '.prettierrc.yaml': 'semi: false\n', 'eslint.config.mjs': 'export default []\n' })).toEqual({ formatter: 'prettier (.prettierrc.yaml)', linter: 'eslint (eslint.config.mjs)' })
  expect(await names({ 'package.json': manifest({ prettier: { semi: false }, eslintConfig: { rules: {} } }) })).toEqual({
    formatter: 'prettier (the "prettier" key of package.json)',
    linter: 'eslint (the "eslintConfig" key of package.json)'
  })
  expect(await names({ 'package.json': manifest({}), 'biome.json': '{}' })).toEqual({ formatter: 'biome (biome.json)', linter: 'biome (biome.json)' })
})

test('biome: the formatter and the linter from biome.json or its scripts; its linter leaves formatting to another formatter', async () => {
  // A `check` script runs both; its options carried, its globs not.
  expect(await names({ 'package.json': manifest({ scripts: { check: 'biome check --write --config-path tools ./src' } }) })).toEqual({
    formatter: 'biome (the "check" script) --config-path tools',
    linter: 'biome (the "check" script) --config-path tools'
  })
  expect(await names({ 'package.json': manifest({ scripts: { lint: 'biome lint .' } }) })).toEqual({ formatter: null, linter: 'biome (the "lint" script) --formatter-enabled=false' })
  expect(await names({ 'package.json': manifest({ scripts: { ci: 'biome ci .' } }), '.prettierrc': '{}' })).toEqual({ formatter: 'prettier (.prettierrc)', linter: 'biome (the "ci" script) --formatter-enabled=false' })
  expect(await names({ 'package.json': manifest({}), 'biome.jsonc': '{}' }, ['prettier'])).toEqual({ formatter: null, linter: null })
})

test('xo: a script running it, its `xo` key in package.json, or its xo.config.* / .xo-config*', async () => {
  expect(await names({ 'package.json': manifest({ scripts: { test: 'xo --space --semicolon=false && ava' } }) })).toEqual({ formatter: null, linter: 'xo (the "test" script) --space --semicolon=false' })
  expect(await names({ 'package.json': manifest({ xo: { space: true } }) })).toEqual({ formatter: null, linter: 'xo (the "xo" key of package.json)' })
  expect(await names({ 'package.json': manifest({}), 'xo.config.js': 'export default []\n', '.prettierrc': '{}' })).toEqual({ formatter: 'prettier (.prettierrc)', linter: 'xo (xo.config.js)' })
  expect(await names({ 'package.json': manifest({}), '.xo-config.json': '{}' })).toEqual({ formatter: null, linter: 'xo (.xo-config.json)' })
  // xo's own eslint is installed with it, but eslint is not what the repository runs.
  expect(await names({ 'package.json': manifest({ xo: {} }) }, ['eslint'])).toEqual({ formatter: null, linter: null })
})

test("a script's options are carried, its globs and its own mode are not", async () => {
  const scripts = { lint: 'eslint . --ext .ts,.js -c config/eslint.cjs --max-warnings 0 --format stylish && prettier --check --config .config/prettier.json "src/**/*.ts"', test: 'jest' }
  expect(await names({ 'package.json': manifest({ scripts }) })).toEqual({
    formatter: 'prettier (the "lint" script) --config .config/prettier.json',
    linter: 'eslint (the "lint" script) --ext .ts,.js -c config/eslint.cjs'
  })
  // `npx`, a path to the bin, `--opt=value`.
  expect(scriptUse({ fmt: 'npx ./node_modules/.bin/prettier --print-width=100 --write .' }, TOOLS.prettier)).toEqual({ script: 'fmt', options: ['--print-width=100'] })
  expect(scriptUse({ check: 'biome check --write . ; biome format --write --config-path tools .' }, TOOLS.biome, 'format')).toEqual({ script: 'check', options: ['--config-path', 'tools'] })
})

test('a configured tool that is not installed is passed over for the next, or none', async () => {
  const files = { 'package.json': manifest({}), '.prettierrc': '{}', 'biome.jsonc': '{}', '.eslintrc.json': '{}' }
  expect(await names(files, ['biome', 'eslint'])).toEqual({ formatter: 'biome (biome.jsonc)', linter: 'eslint (.eslintrc.json)' })
  expect(await names(files, [])).toEqual({ formatter: null, linter: null })
})

test('a package of a monorepo: its own configuration and scripts, and the root\'s', async () => {
  const files = { 'package.json': manifest({ scripts: { lint: 'eslint --rulesdir tools/rules .' } }), 'packages/a/package.json': manifest({ scripts: { test: 'vitest' } }), 'packages/a/.prettierrc.json': '{}' }
  expect(await names(files, undefined, 'packages/a')).toEqual({ formatter: 'prettier (.prettierrc.json)', linter: 'eslint (the "lint" script) --rulesdir tools/rules' })
})

test('Python: ruff and black from pyproject.toml, ruff.toml and the pre-commit hooks', async () => {
  expect(await names({ 'pyproject.toml': '[tool.black]\nline-length = 100\n\n[tool.ruff]\nselect = ["E"]\n' })).toEqual({ formatter: 'black ([tool.black] in pyproject.toml)', linter: 'ruff ([tool.ruff] in pyproject.toml)' })
  expect(await names({ 'pyproject.toml': '[tool.ruff.lint]\nselect = ["E"]\n\n[tool.ruff.format]\nquote-style = "single"\n' })).toEqual({ formatter: "ruff (ruff's format settings)", linter: 'ruff ([tool.ruff] in pyproject.toml)' })
  expect(await names({ 'ruff.toml': 'line-length = 90\n' })).toEqual({ formatter: null, linter: 'ruff (ruff.toml)' })
  expect(await names({ '.pre-commit-config.yaml': 'repos:\n  - repo: https://github.com/astral-sh/ruff-pre-commit\n    hooks:\n      - id: ruff\n      - id: ruff-format\n' })).toEqual({
    formatter: "ruff (ruff's format settings)",
    linter: 'ruff (.pre-commit-config.yaml)'
  })
  expect(await names({ 'pyproject.toml': '[tool.black]\n' }, [])).toEqual({ formatter: null, linter: null })
})

test("a script's commands, split as a shell splits them, quotes taken off", () => {
  expect(scriptCommands(`prettier --write "src/**/*.{js,ts}" && eslint 'a b' || tsc; x | y`)).toEqual([['prettier', '--write', 'src/**/*.{js,ts}'], ['eslint', 'a b'], ['tsc'], ['x'], ['y']])
})
