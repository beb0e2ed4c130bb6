/**
 * The tree's own mocha (and c8): where its bin is, and what it supports, read from its files as text (the
 * tree's code never runs in this process).
 */
import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { DROPPED_OPTIONS } from './mocha-args.js'
import { installedBin, packageDir, readPackageJsonSync } from './packages.js'
import { writeInside } from '../ports/sandbox-writes.js'

export interface MochaInstall {
  dir: string
  bin: string
  version: string
  /** mocha ≥ 6 (yargs): `--config`, `--no-package`, and `lib/cli/config.js` to load a config. */
  modern: boolean
  /** `--exit` (mocha ≥ 4, which stopped exiting by itself while a handle is open). */
  exitFlag: boolean
  /** The JSON reporter writes to `--reporter-options output=FILE` (mocha ≥ 9.2); else it prints to stdout. */
  jsonToFile: boolean
  /** `--fail-hook-affected-tests` (mocha ≥ 11.8): tests a failed hook kept from running are reported failed. */
  failHookAffectedTests: boolean
  /** It reads `test/mocha.opts` (mocha ≤ 7; 6 and 7 unless told `--no-opts`). */
  readsOpts: boolean
}

const readText = (path: string) => {
  try {
    return readFileSync(path, 'utf8')
  } catch {
    return ''
  }
}

/** The tree's mocha: its `mocha` bin (which passes node flags from the config on), else `_mocha`. */
export function findMocha(treeDir: string): MochaInstall | null {
  const dir = packageDir(treeDir, 'mocha')
  const manifest = dir ? readPackageJsonSync(dir) : null
  if (!dir || !manifest) return null
  const binPath = typeof manifest.bin === 'string' ? manifest.bin : (manifest.bin?.mocha ?? manifest.bin?._mocha)
  if (!binPath) return null
  const metadata = readText(join(dir, 'lib', 'cli', 'run-option-metadata.js'))
  const config = readText(join(dir, 'lib', 'cli', 'config.js'))
  return {
    dir,
    bin: join(dir, binPath),
    version: manifest.version ?? 'unknown',
    modern: metadata !== '' && /exports\.loadConfig/.test(config) && /exports\.findConfig/.test(config),
    exitFlag: Number(/^(\d+)\./.exec(manifest.version ?? '')?.[1] ?? 0) >= 4,
    jsonToFile: /reporterOptions?\s*&&\s*options\.reporterOptions?\.output/.test(readText(join(dir, 'lib', 'reporters', 'json.js'))),
    failHookAffectedTests: metadata.includes('fail-hook-affected-tests'),
    readsOpts: metadata === '' || /['"]opts['"]/.test(metadata)
  }
}

/** c8's bin in the tree, for coverage; null when c8 is not installed. */
export function findC8(treeDir: string): string | null {
  return installedBin(treeDir, 'c8')
}

export interface ConfigSources {
  /** The repository's config file; undefined: the one mocha would find; false: none. */
  config?: string | false
  /** The package.json with a `mocha` key; false: none. */
  package: string | false
}

/**
 * A config file for `--config` that is the repository's own (found and parsed by the tree's mocha, merged
 * with package.json's `mocha` key as mocha merges them) without its `spec`: mocha adds a config's spec to
 * the files on the command line, so the run would load the whole suite. Reporter, watch, filters and bail
 * go too. Written as `.js` beside a CommonJS package.json, which every mocha since 6 loads by `require`.
 */
export async function writeConfigWrapper(mocha: MochaInstall, sources: ConfigSources, folder: string): Promise<string> {
  await writeInside(folder, 'package.json', '{ "type": "commonjs" }\n')
  const camel = (name: string) => name.replace(/-([a-z])/g, (_match, letter: string) => letter.toUpperCase())
  const dropped = [...DROPPED_OPTIONS, 'reporter-options', '_'].flatMap((name) => [name, camel(name)])
  const source = `'use strict'
// Written by regression-testgen: the repository's mocha configuration, minus what the run sets itself.
const { findConfig, loadConfig } = require(${JSON.stringify(join(mocha.dir, 'lib', 'cli', 'config.js'))})
const { readFileSync } = require('fs')
const configured = ${JSON.stringify(sources.config ?? null)}
const rcPath = configured === false ? null : configured || findConfig()
const rc = rcPath ? loadConfig(rcPath) : {}
let pkg = {}
try {
  pkg = ${sources.package ? `JSON.parse(readFileSync(${JSON.stringify(sources.package)}, 'utf8')).mocha || {}` : '{}'}
} catch (error) {}
const merged = Object.assign({}, pkg)
for (const key of Object.keys(rc)) {
  const both = key in merged && (Array.isArray(rc[key]) || Array.isArray(merged[key]))
  merged[key] = both ? [].concat(merged[key], rc[key]) : rc[key]
}
for (const key of ${JSON.stringify(dropped)}) delete merged[key]
module.exports = merged
`
  return writeInside(folder, '.mocharc.js', source)
}
