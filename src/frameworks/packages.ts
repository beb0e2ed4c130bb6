/** The repository's package.json and the packages installed in a tree, as the JavaScript adapters read them. */
import { existsSync } from 'node:fs'
import { createRequire } from 'node:module'
import { join } from 'node:path'
import { readPlainFileSync, readSandboxFile } from '../ports/sandbox-files.js'

export interface PackageJson {
  version?: string
  type?: string
  dependencies?: Record<string, string>
  devDependencies?: Record<string, string>
  scripts?: Record<string, string>
  bin?: string | Record<string, string>
  [key: string]: unknown
}

/** Read without following a link: the tests may have replaced a tree's package.json with one to a file only the tool may read. */
export async function readPackageJson(dir: string): Promise<PackageJson | null> {
  try {
    return JSON.parse((await readSandboxFile(dir, join(dir, 'package.json'), 'config')) ?? '') as PackageJson
  } catch {
    return null
  }
}

/** An installed package's manifest (or the checkout's): never a FIFO or a huge file the tests left there. */
export function readPackageJsonSync(dir: string): PackageJson | null {
  try {
    return JSON.parse(readPlainFileSync(join(dir, 'package.json')) ?? '') as PackageJson
  } catch {
    return null
  }
}

/** The package is in dependencies or devDependencies. */
export function declares(manifest: PackageJson | null, name: string): boolean {
  return manifest !== null && name in { ...manifest.dependencies, ...manifest.devDependencies }
}

/** Where node would find a package from the tree, without resolving through its `exports`. */
export function packageDir(treeDir: string, name: string): string | null {
  const lookup = createRequire(join(treeDir, 'package.json')).resolve.paths(name) ?? []
  const found = lookup.find((dir) => existsSync(join(dir, name, 'package.json')))
  return found ? join(found, name) : null
}

/** The installed package's version as [major, minor], or null when it is not installed or says none. */
export function installedVersion(treeDir: string, name: string): [number, number] | null {
  const dir = packageDir(treeDir, name)
  const match = /^(\d+)\.(\d+)/.exec(String((dir && readPackageJsonSync(dir)?.version) ?? ''))
  return match ? [Number(match[1]), Number(match[2])] : null
}

/** At least version major.minor. */
export const atLeastVersion = (version: [number, number] | null, major: number, minor = 0) => version !== null && (version[0] > major || (version[0] === major && version[1] >= minor))

/** A package's bin as installed in the tree, through its package.json `bin` (the first of `names` it has). */
export function installedBin(treeDir: string, name: string, names: string[] = [name]): string | null {
  const dir = packageDir(treeDir, name)
  const bin = dir ? readPackageJsonSync(dir)?.bin : undefined
  const binPath = typeof bin === 'string' ? bin : names.map((entry) => bin?.[entry]).find(Boolean)
  return dir && binPath ? join(dir, binPath) : null
}
