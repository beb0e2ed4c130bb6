/**
 * prettier, eslint, biome and xo for the tests of the tidy step. The versions tested are devDependencies of this
 * repository, installed by `npm ci` with the rest, so no test reaches the registry. A test project gets a
 * node_modules of its own holding links to them and their `.bin` entries, as `npm install` would have made
 * it (as test-tap.ts does for tap); node finds their own dependencies from their real folders.
 */
import { mkdir, readFile, symlink } from 'node:fs/promises'
import { dirname, join } from 'node:path'
import { fileURLToPath } from 'node:url'

/** The versions tested (package.json devDependencies). */
export const LINT_TOOL_VERSIONS = { prettier: '3.10.1', eslint: '9.39.5', '@biomejs/biome': '2.6.8', xo: '2.0.2' } as const
export type LintTool = keyof typeof LINT_TOOL_VERSIONS

const projectNodeModules = join(dirname(fileURLToPath(import.meta.url)), '..', '..', 'node_modules')

/** Gives the project at `projectDir` a node_modules holding `tools` (links) and their bins; throws, saying to run `npm ci`, when a version differs. */
export async function installLintToolsInto(projectDir: string, tools: LintTool[]): Promise<void> {
  const nodeModules = join(projectDir, 'node_modules')
  await mkdir(join(nodeModules, '.bin'), { recursive: true })
  for (const tool of tools) {
    const folder = join(projectNodeModules, tool)
    const manifest = JSON.parse(await readFile(join(folder, 'package.json'), 'utf8')) as { version: string; bin: string | Record<string, string> }
    if (manifest.version !== LINT_TOOL_VERSIONS[tool]) throw new Error(`${tool} ${LINT_TOOL_VERSIONS[tool]} is a devDependency of this repository, but ${folder} holds ${manifest.version}: run npm ci`)
    await mkdir(dirname(join(nodeModules, tool)), { recursive: true })
    await symlink(folder, join(nodeModules, tool), 'dir')
    // A scoped package's bin is named by its last part (`@biomejs/biome` → `biome`).
    const binName = tool.split('/').at(-1)!
    const bin = typeof manifest.bin === 'string' ? manifest.bin : manifest.bin[binName]
    // Relative, through the package's link, as npm links a bin.
    await symlink(join('..', tool, bin), join(nodeModules, '.bin', binName))
  }
}
