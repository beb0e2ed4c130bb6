/**
 * node-tap for the tap adapter's tests. Too big for a devDependency of this repository (tap 21 installs 260
 * packages, 142 MB; tap 16 185 packages, 72 MB), so each version the tests need is
 * installed once per machine from the npm registry into a cache folder outside the repository, and reused
 * by every later run. On a fresh machine (`npm ci && npm test`) the first run installs it (about 15 s a
 * version); where it cannot (no registry), the tap tests are skipped and the run says why.
 */
import { spawnSync } from 'node:child_process'
import { existsSync, mkdirSync, renameSync, rmSync } from 'node:fs'
import { homedir } from 'node:os'
import { join } from 'node:path'

/** The versions tested: the last of tap 16 (nyc, `--no-coverage`) and a current one (@tapjs, 18+). */
export const TAP_VERSIONS = ['16.3.10', '21.8.0'] as const

/** Where the installs stay between runs: RTG_TEST_CACHE, else the user's cache folder. */
export function testToolCache(): string {
  return process.env.RTG_TEST_CACHE || join(process.env.XDG_CACHE_HOME || join(homedir(), '.cache'), 'regression-testgen-tests')
}

/** The node_modules folder holding tap at `version`, installed now if missing; or why it cannot be. */
export function installedTap(version: string): { nodeModules: string } | { missing: string } {
  const target = join(testToolCache(), `tap-${version}`)
  const nodeModules = join(target, 'node_modules')
  if (existsSync(join(nodeModules, 'tap', 'package.json'))) return { nodeModules }
  // Into a folder of its own, then renamed: two test workers installing at once never share a half-made one.
  const staging = `${target}.installing-${process.pid}`
  mkdirSync(staging, { recursive: true })
  const install = spawnSync('npm', ['install', '--prefix', staging, '--no-save', '--no-package-lock', '--no-audit', '--no-fund', '--loglevel=error', `tap@${version}`], { encoding: 'utf8' })
  if (install.status !== 0 || !existsSync(join(staging, 'node_modules', 'tap', 'package.json'))) {
    rmSync(staging, { recursive: true, force: true })
    const said = (install.stderr || install.stdout || String(install.error ?? '')).trim().split('\n').slice(-3).join(' ')
    return { missing: `npm install tap@${version} into ${testToolCache()} failed (${said})` }
  }
  try {
    renameSync(staging, target)
  } catch {
    // Another worker finished first: its install is as good.
    rmSync(staging, { recursive: true, force: true })
  }
  return { nodeModules }
}
