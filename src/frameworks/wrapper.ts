/**
 * A test runner behind a wrapper CLI. Scripts such as `tsdx test`, `react-scripts test` or `kcd-scripts test`
 * run jest (or vitest) with a configuration the wrapper builds itself — transforms, module mappers, roots —
 * that a direct run of the runner would miss. Such a script is run through the wrapper, which passes the
 * runner's own arguments on.
 *
 * Found in the package's `test` script (following `npm run x`): a command whose program is the bin of a
 * package the repository declares, whose first word is a test subcommand, and whose package depends on the
 * runner. The runner must be installed where the wrapper resolves it.
 */
import { realpathSync } from 'node:fs'
import { createRequire } from 'node:module'
import { basename, dirname, join } from 'node:path'
import { assignments, scriptCommands, scriptTarget } from './package-scripts.js'
import { packageDir, readPackageJsonSync, type PackageJson } from './packages.js'

export interface RunnerWrapper {
  /** The installed package whose bin the script calls, e.g. `tsdx`. */
  packageName: string
  /** The bin's name as the script calls it. */
  binName: string
  /** The script's words after the bin (its subcommand and options), without watch flags. */
  args: string[]
  /** The script's `NAME=value` words. */
  env: Record<string, string>
}

// The subcommand that runs the tests; `kcd-scripts lint` or `tsdx build` in the same script is not the run.
const TEST_SUBCOMMAND = /^(?:test|tests|spec|specs|unit|jest|vitest)$/
// Programs that only start the next word.
const LAUNCHERS = new Set(['cross-env', 'env', 'npx', 'bunx', 'dotenv'])
// A watching runner never exits; the run is one pass.
const WATCH_FLAG = /^--(?:watch|watchAll)(?:=.*)?$/
const MAX_SCRIPT_DEPTH = 4
const RUNNERS = ['jest', 'vitest', 'mocha', 'ava']

/** The wrapper the package's test script runs `runner` through, or null (no wrapper, or the runner itself). */
export function findRunnerWrapper(dir: string, runner: string): RunnerWrapper | null {
  const manifest = readPackageJsonSync(dir)
  if (!manifest) return null
  return wrapperInScript(dir, manifest, runner, 'test', 0)
}

function wrapperInScript(dir: string, manifest: PackageJson, runner: string, name: string, depth: number): RunnerWrapper | null {
  const script = manifest.scripts?.[name]
  if (!script || depth > MAX_SCRIPT_DEPTH) return null
  for (const words of scriptCommands(script)) {
    const target = scriptTarget(words)
    const found = target ? (target !== name ? wrapperInScript(dir, manifest, runner, target, depth + 1) : null) : wrapperCommand(dir, manifest, runner, words)
    if (found) return found
  }
  return null
}

function wrapperCommand(dir: string, manifest: PackageJson, runner: string, words: string[]): RunnerWrapper | null {
  const program = words.findIndex((word) => !/^[A-Za-z_][A-Za-z0-9_]*=/.test(word) && !LAUNCHERS.has(word) && !word.startsWith('-'))
  const [binName, subcommand, ...rest] = program >= 0 ? words.slice(program) : []
  if (!binName || !subcommand || !TEST_SUBCOMMAND.test(subcommand) || binName === runner) return null
  const packageName = packageWithBin(dir, manifest, binName)
  if (!packageName || !wrapsRunner(dir, packageName, runner)) return null
  return { packageName, binName, args: [subcommand, ...rest.filter((word) => !WATCH_FLAG.test(word))], env: assignments(words.slice(0, program)) }
}

/**
 * The package that provides the bin: a dependency the package declares, else (a monorepo package using
 * its workspace root's tools) the package an installed `node_modules/.bin` link leads to.
 */
function packageWithBin(dir: string, manifest: PackageJson, binName: string): string | null {
  const declared = Object.keys({ ...manifest.dependencies, ...manifest.devDependencies })
  return declared.find((name) => providesBin(packageDir(dir, name), binName)) ?? linkedBinPackage(dir, binName)
}

function providesBin(installed: string | null, binName: string): boolean {
  const bin = installed ? readPackageJsonSync(installed)?.bin : undefined
  return typeof bin === 'string' ? readPackageJsonSync(installed!)?.name?.toString().replace(/^@[^/]+\//, '') === binName : bin !== undefined && binName in bin
}

/** `node_modules/.bin/<bin>` in the folders node would look in, followed to the package that holds it. */
function linkedBinPackage(dir: string, binName: string): string | null {
  for (const folder of createRequire(join(dir, 'package.json')).resolve.paths(binName) ?? []) {
    let target: string
    try {
      target = realpathSync(join(folder, '.bin', binName))
    } catch {
      continue
    }
    for (let up = dirname(target); basename(up) !== 'node_modules' && up !== dirname(up); up = dirname(up)) {
      const name = readPackageJsonSync(up)?.name
      if (typeof name === 'string' && providesBin(up, binName)) return packageDir(dir, name) ? name : null
    }
  }
  return null
}

/**
 * The wrapper depends on the runner, which resolves from where the wrapper is installed; or (a wrapper that
 * leaves the runner to the project, as ts-scripts does with vitest) it depends on no runner and the
 * repository has this one installed.
 */
function wrapsRunner(dir: string, packageName: string, runner: string): boolean {
  const installed = packageDir(dir, packageName)
  const manifest = installed ? readPackageJsonSync(installed) : null
  if (!installed || !manifest) return false
  const dependencies = { ...manifest.dependencies, ...(manifest.peerDependencies as Record<string, string> | undefined) }
  if (!RUNNERS.some((name) => name in dependencies)) return packageDir(dir, runner) !== null
  // From the wrapper's real folder: a pnpm install keeps its dependencies beside it, not at the top.
  return runner in dependencies && packageDir(realpathSync(installed), runner) !== null
}

/** The wrapper's bin as installed in a tree. */
export function wrapperBin(treeDir: string, wrapper: RunnerWrapper): string | null {
  const dir = packageDir(treeDir, wrapper.packageName)
  const bin = dir ? readPackageJsonSync(dir)?.bin : undefined
  const path = typeof bin === 'string' ? bin : bin?.[wrapper.binName]
  return dir && path ? join(dir, path) : null
}

/** How the log names it: `tsdx test`. */
export const describeWrapper = (wrapper: RunnerWrapper) => [wrapper.binName, ...wrapper.args].join(' ')
