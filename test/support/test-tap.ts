/**
 * node-tap for the tap adapter's tests. The versions tested are devDependencies of this repository, installed
 * by `npm ci` with the rest (the current one as `tap`, tap 16 as the npm alias `tap16`), so no test reaches
 * the registry. A test project gets a node_modules of its own whose `tap` links to one of them, as `npm
 * install tap` would have made it; node finds tap's own dependencies from its real folder, in this
 * repository's node_modules.
 */
import { mkdir, readFile, rm, symlink } from 'node:fs/promises'
import { dirname, join } from 'node:path'
import { fileURLToPath } from 'node:url'

/** The versions tested: the last of tap 16 (nyc, `--no-coverage`) and a current one (@tapjs, 18+). */
export const TAP_VERSIONS = ['16.3.10', '21.8.0'] as const
export type TapVersion = (typeof TAP_VERSIONS)[number]

/** Each version's name in this repository's devDependencies (package.json). */
const DEV_DEPENDENCY: Record<TapVersion, string> = { '16.3.10': 'tap16', '21.8.0': 'tap' }

const projectNodeModules = join(dirname(fileURLToPath(import.meta.url)), '..', '..', 'node_modules')

/** The installed folder of tap at `version`; throws (saying to run `npm ci`) when it is not that version. */
async function installedTap(version: TapVersion): Promise<string> {
  const folder = join(projectNodeModules, DEV_DEPENDENCY[version])
  const found = await readFile(join(folder, 'package.json'), 'utf8').then((text) => (JSON.parse(text) as { version?: string }).version, () => undefined)
  if (found !== version) throw new Error(`tap ${version} is a devDependency (${DEV_DEPENDENCY[version]}) of this repository, but ${folder} holds ${found ?? 'nothing'}: run npm ci`)
  return folder
}

/** Gives the project at `projectDir` its own node_modules holding tap at `version` and its `.bin/tap`, in place of the link to this repository's it may have. */
export async function installTapInto(projectDir: string, version: TapVersion): Promise<void> {
  const folder = await installedTap(version)
  const nodeModules = join(projectDir, 'node_modules')
  await rm(nodeModules, { force: true })
  await mkdir(join(nodeModules, '.bin'), { recursive: true })
  await symlink(folder, join(nodeModules, 'tap'), 'dir')
  const { bin } = JSON.parse(await readFile(join(folder, 'package.json'), 'utf8')) as { bin: Record<string, string> }
  // Relative, through the package's link, as npm links a bin.
  await symlink(join('..', 'tap', bin.tap), join(nodeModules, '.bin', 'tap'))
}
