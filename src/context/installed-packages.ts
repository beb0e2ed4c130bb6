/**
 * The installed packages the tests run with, read-only for the model: the code of a dependency the changed
 * code delegates to (`node_modules/encodeurl/index.js`). Only package folders of the `node_modules` at the
 * repository root and in the tested package — never their dot-folders (`.cache`, `.bin`) but pnpm's store —
 * and only files whose real path stays inside that `node_modules`: a link out of it is refused, as are
 * secret-looking, binary and huge files. Installed packages are the same in both trees unless the fix
 * changed the manifests, so they read as installed, whatever `at` says.
 */
import { lstat, readdir, readFile, realpath, stat } from 'node:fs/promises'
import { join, posix, sep } from 'node:path'
import { isSecretLooking, LIMITS, pageOf, printable, refused, wrap, type ReadRequest, type ToolOutput } from './repository-view.js'

export interface InstalledPackages {
  /** Whether a repository-relative path is one of the `node_modules` folders or inside one. */
  owns(path: string): boolean
  readFile(path: string, request: ReadRequest): Promise<ToolOutput>
  listFiles(path: string): Promise<ToolOutput>
}

const AS_INSTALLED = 'as installed'
/** pnpm keeps the packages here and links them in: the links' targets must be readable. */
const PNPM_STORE = '.pnpm'

export function createInstalledPackages(repoDir: string, packageDir: string): InstalledPackages {
  const roots = [...new Set(['', packageDir])].map((folder) => posix.join(folder, 'node_modules'))
  const rootOf = (path: string) => roots.find((root) => path === root || path.startsWith(`${root}/`))
  return {
    owns: (path) => rootOf(path) !== undefined,
    readFile: (path, request) => readInstalled(repoDir, rootOf(path)!, path, request),
    listFiles: (path) => listInstalled(repoDir, rootOf(path)!, path)
  }
}

async function readInstalled(repoDir: string, root: string, path: string, request: ReadRequest): Promise<ToolOutput> {
  const action = `read ${path} ${AS_INSTALLED}`
  const located = await locate(repoDir, root, path)
  if ('problem' in located) return refused(action, located.problem)
  if (isSecretLooking(path) || isSecretLooking(located.real)) return refused(action, `${path} looks like it holds secrets: not readable`)
  const info = await stat(located.real)
  if (info.isDirectory()) return refused(action, `${path} is a folder: list it with list_files`)
  if (!info.isFile()) return refused(action, `${path} is not a regular file`)
  if (info.size > LIMITS.fileBytes) return refused(action, `${path} is ${info.size} bytes, over the ${LIMITS.fileBytes}-byte limit`)
  const text = await readFile(located.real, 'utf8')
  if (text.slice(0, LIMITS.binaryProbe).includes('\0')) return refused(action, `${path} is a binary file: only text files are readable`)
  return pageOf(path, AS_INSTALLED, text, request)
}

async function listInstalled(repoDir: string, root: string, path: string): Promise<ToolOutput> {
  const action = `list ${path}`
  const located = await locate(repoDir, root, path)
  if ('problem' in located) return refused(action, located.problem)
  if (!(await stat(located.real)).isDirectory()) return refused(action, `${path} is a file: read it with read_file`)
  const names = (await readdir(located.real)).sort((a, b) => a.localeCompare(b))
  const shown = path === root ? names.filter((name) => !name.startsWith('.')) : names
  const lines: string[] = []
  for (const name of shown.slice(0, LIMITS.entriesPerList)) lines.push(await describeEntry(located.real, located.rootReal, name))
  const note = shown.length > LIMITS.entriesPerList ? [`(${shown.length - LIMITS.entriesPerList} more entries not shown: list a package folder)`] : []
  return { text: wrap([`${printable(path)} (installed packages):`, ...lines, ...note].join('\n')), isError: false, summary: `${action}: ${shown.length} entries` }
}

/** The real path of an installed file or folder, or why the model may not have it. */
async function locate(repoDir: string, root: string, path: string): Promise<{ real: string; rootReal: string } | { problem: string }> {
  const inside = path === root ? [] : path.slice(root.length + 1).split('/')
  if (inside.length > 0 && inside[0].startsWith('.') && inside[0] !== PNPM_STORE) return { problem: `${path}: only package folders of ${root} are readable, not ${root}/${inside[0]}` }
  let rootReal: string
  let real: string
  try {
    rootReal = await realpath(join(repoDir, root))
    real = await realpath(join(repoDir, path))
  } catch {
    return { problem: `${path} is not installed: list_files ${root} shows the installed packages` }
  }
  if (real !== rootReal && !real.startsWith(rootReal + sep)) {
    const link = await lstat(join(repoDir, path)).catch(() => null)
    return { problem: `${path}${link?.isSymbolicLink() ? ' is a link' : ' leads'} out of the installed packages: not followed` }
  }
  return { real, rootReal }
}

async function describeEntry(folder: string, rootReal: string, name: string): Promise<string> {
  const shown = printable(name)
  try {
    const real = await realpath(join(folder, name))
    if (real !== rootReal && !real.startsWith(rootReal + sep)) return `${shown} (a link out of the installed packages, not followed)`
    const info = await stat(real)
    if (info.isDirectory()) return `${shown}/`
    if (isSecretLooking(name)) return `${shown} (${info.size} bytes, not readable: may hold secrets)`
    return `${shown} (${info.size} bytes)`
  } catch {
    return `${shown} (a broken link)`
  }
}
