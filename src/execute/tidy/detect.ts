/**
 * Which formatter and linter the repository uses on its own code, asked of the repository itself: its
 * configuration files, the `prettier`/`eslintConfig` keys of package.json, its scripts (and the options they
 * pass), pyproject.toml's `[tool.*]` tables. A tool counts only when it is installed — a bin in the
 * package's or the root's node_modules at head, a Python tool on the PATH: nothing is ever installed for it.
 */
import { posix } from 'node:path'
import { scriptUse } from './scripts.js'
import { TOOLS, type ToolSpec } from './tools.js'

export interface PlannedTool {
  spec: ToolSpec
  /** The program's absolute path. */
  program: string
  /** Options from the repository's script. */
  options: string[]
  /** What showed the repository uses it: `.prettierrc.json`, `the "lint" script`. */
  evidence: string
}

export interface TidyPlan {
  formatter: PlannedTool | null
  linter: PlannedTool | null
}

export const NO_TIDY: TidyPlan = { formatter: null, linter: null }

export interface RepositoryAtHead {
  /** Every tracked file at head. */
  files: string[]
  /** A tracked file's text at head, or null. */
  read(path: string): Promise<string | null>
  /** Where the program is installed for the package, or null when it is not (node_modules/.bin at the package or the root; PATH for Python tools). */
  installed(spec: ToolSpec, packageDir: string): string | null
}

const PRETTIER_CONFIGS = ['.prettierrc', ...['json', 'json5', 'yaml', 'yml', 'toml', 'js', 'cjs', 'mjs', 'ts', 'cts', 'mts'].map((ext) => `.prettierrc.${ext}`), ...['js', 'cjs', 'mjs', 'ts', 'cts', 'mts'].map((ext) => `prettier.config.${ext}`)]
const ESLINT_CONFIGS = [...['js', 'mjs', 'cjs', 'ts', 'mts', 'cts'].map((ext) => `eslint.config.${ext}`), '.eslintrc', ...['js', 'cjs', 'json', 'yaml', 'yml'].map((ext) => `.eslintrc.${ext}`)]
const BIOME_CONFIGS = ['biome.json', 'biome.jsonc']
// xo.config.* and the `xo` key (xo 1+); .xo-config* (older xo).
const XO_CONFIGS = [...['js', 'cjs', 'mjs', 'ts', 'mts'].map((ext) => `xo.config.${ext}`), '.xo-config', '.xo-config.json', '.xo-config.js', '.xo-config.cjs']

/** The repository's formatter and linter for the package's generated tests; each null when it has none installed. */
export async function detectTidyTools(repo: RepositoryAtHead, packageDir: string): Promise<TidyPlan> {
  const facts = await readFacts(repo, packageDir)
  const formatters = [prettierUse(facts), biomeUse(facts), blackUse(facts), ruffFormatUse(facts)]
  const linters = [eslintUse(facts), xoUse(facts), biomeLintUse(facts), ruffCheckUse(facts)]
  const installedOf = (uses: Array<Use | null>) => uses.flatMap((use) => (use ? [plan(use, repo.installed(use.spec, packageDir))] : [])).find((tool) => tool !== null) ?? null
  const formatter = installedOf(formatters)
  return { formatter, linter: withoutOtherFormatting(installedOf(linters), formatter) }
}

/** `biome check` formats too: where another tool is the repository's formatter, biome's linter leaves formatting to it. */
function withoutOtherFormatting(linter: PlannedTool | null, formatter: PlannedTool | null): PlannedTool | null {
  if (linter?.spec !== TOOLS.biomeLint || formatter?.spec === TOOLS.biome) return linter
  return { ...linter, options: [...linter.options, '--formatter-enabled=false'] }
}

interface Use {
  spec: ToolSpec
  options: string[]
  evidence: string
}

const plan = (use: Use, program: string | null): PlannedTool | null => (program ? { ...use, program } : null)

interface Facts {
  /** The configuration files present at the package or the root (their names). */
  configs: Set<string>
  scripts: Record<string, unknown>
  manifestKeys: Set<string>
  /** pyproject.toml (package, else root), and ruff.toml / .ruff.toml. */
  pyproject: string
  ruffToml: string | null
  preCommit: string
}

async function readFacts(repo: RepositoryAtHead, packageDir: string): Promise<Facts> {
  const folders = [...new Set([packageDir, ''])]
  const tracked = new Set(repo.files)
  const configs = new Set(folders.flatMap((dir) => [...PRETTIER_CONFIGS, ...ESLINT_CONFIGS, ...BIOME_CONFIGS, ...XO_CONFIGS, 'ruff.toml', '.ruff.toml'].filter((name) => tracked.has(posix.join(dir, name)))))
  const manifests = await Promise.all(folders.map((dir) => repo.read(posix.join(dir, 'package.json'))))
  const parsed = manifests.map(parseManifest)
  const scripts = Object.assign({}, ...parsed.map((manifest) => manifest.scripts).reverse()) as Record<string, unknown>
  const firstText = async (names: string[]) => (await Promise.all(folders.flatMap((dir) => names.map((name) => repo.read(posix.join(dir, name)))))).find((text) => text !== null) ?? null
  return {
    configs,
    scripts,
    manifestKeys: new Set(parsed.flatMap((manifest) => manifest.keys)),
    pyproject: (await firstText(['pyproject.toml'])) ?? '',
    ruffToml: await firstText(['ruff.toml', '.ruff.toml']),
    preCommit: (await firstText(['.pre-commit-config.yaml'])) ?? ''
  }
}

function parseManifest(text: string | null): { scripts: Record<string, unknown>; keys: string[] } {
  try {
    const manifest = JSON.parse(text ?? '{}') as Record<string, unknown>
    const scripts = manifest.scripts && typeof manifest.scripts === 'object' ? (manifest.scripts as Record<string, unknown>) : {}
    return { scripts, keys: Object.keys(manifest) }
  } catch {
    return { scripts: {}, keys: [] }
  }
}

/** The script's options when a script runs it; else the configuration that names it; else none. */
function use(spec: ToolSpec, facts: Facts, configured: string | null, subcommand: string | null = null): Use | null {
  const script = scriptUse(facts.scripts, spec, subcommand)
  if (script) return { spec, options: script.options, evidence: `the "${script.script}" script` }
  return configured ? { spec, options: [], evidence: configured } : null
}

const configIn = (facts: Facts, names: string[]) => names.find((name) => facts.configs.has(name)) ?? null
const keyIn = (facts: Facts, key: string) => (facts.manifestKeys.has(key) ? `the "${key}" key of package.json` : null)

const prettierUse = (facts: Facts) => use(TOOLS.prettier, facts, configIn(facts, PRETTIER_CONFIGS) ?? keyIn(facts, 'prettier'))
const biomeUse = (facts: Facts) => use(TOOLS.biome, facts, configIn(facts, BIOME_CONFIGS), 'format') ?? use(TOOLS.biome, facts, null, 'check')
const eslintUse = (facts: Facts) => use(TOOLS.eslint, facts, configIn(facts, ESLINT_CONFIGS) ?? keyIn(facts, 'eslintConfig'))
/** A script running `biome check`, `biome lint` or `biome ci`; else biome.json (biome's linter is on by default). */
const biomeLintUse = (facts: Facts) => ['check', 'lint', 'ci'].map((subcommand) => use(TOOLS.biomeLint, facts, null, subcommand)).find((found) => found !== null) ?? use(TOOLS.biomeLint, facts, configIn(facts, BIOME_CONFIGS))
const xoUse = (facts: Facts) => use(TOOLS.xo, facts, configIn(facts, XO_CONFIGS) ?? keyIn(facts, 'xo'))
const blackUse = (facts: Facts) => use(TOOLS.black, facts, /^\[tool\.black\]/m.test(facts.pyproject) ? '[tool.black] in pyproject.toml' : null)

/** ruff formats only where the repository says so: its `[format]` table, or a pre-commit `ruff-format` hook. */
function ruffFormatUse(facts: Facts): Use | null {
  const configured = /^\[tool\.ruff\.format\]/m.test(facts.pyproject) || /^\[format\]/m.test(facts.ruffToml ?? '') || /\bid:\s*ruff-format\b/.test(facts.preCommit)
  return use(TOOLS.ruffFormat, facts, configured ? 'ruff\'s format settings' : null, 'format')
}

function ruffCheckUse(facts: Facts): Use | null {
  const configured = /^\[tool\.ruff[\].]/m.test(facts.pyproject) ? '[tool.ruff] in pyproject.toml' : facts.ruffToml !== null ? 'ruff.toml' : /\bid:\s*ruff\b/.test(facts.preCommit) ? '.pre-commit-config.yaml' : null
  return use(TOOLS.ruffCheck, facts, configured, 'check')
}
