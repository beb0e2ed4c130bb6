/**
 * The Python that runs a tree's tests: the repository's virtualenv, else the first interpreter on offer that
 * can import pytest. Probed once per tree; the probe also tells whether coverage.py is there.
 */
import { existsSync, readdirSync, statSync } from 'node:fs'
import { readFile } from 'node:fs/promises'
import { basename, dirname, join, relative, resolve } from 'node:path'
import type { ProcessRunner } from '../ports/process.js'

export interface PythonInterpreter {
  command: string
  /** coverage.py is importable: coverage runs are possible. */
  hasCoverage: boolean
}

export interface PythonSearch {
  interpreter: PythonInterpreter | null
  /** Every candidate tried, with why it was not taken, for the "not installed" message. */
  tried: string[]
}

/** Interpreters outside any virtualenv: PATH's first, then Debian's (where python3-pytest installs). */
export const SYSTEM_PYTHONS = ['python3', '/usr/bin/python3']
const VENV_DIRS = ['.venv', 'venv']
const PROBE_TIMEOUT_MS = 30_000
// Imports pytest for real (a broken install fails here, not mid-run); coverage is only looked up.
const PROBE = 'import json, importlib.util, pytest; print(json.dumps({"coverage": importlib.util.find_spec("coverage") is not None}))'

const probes = new Map<string, Promise<PythonSearch>>()

/** The interpreter for `treeDir`, probed once per tree (the bench runs each tree several times). */
export function findPython(treeDir: string, processes: ProcessRunner, systemPythons = SYSTEM_PYTHONS): Promise<PythonSearch> {
  const key = `${treeDir}\0${systemPythons.join('\0')}`
  let search = probes.get(key)
  if (!search) {
    search = searchPython(treeDir, processes, systemPythons)
    probes.set(key, search)
  }
  return search
}

async function searchPython(treeDir: string, processes: ProcessRunner, systemPythons: string[]): Promise<PythonSearch> {
  const tried: string[] = []
  const probe = async (command: string): Promise<PythonInterpreter | null> => {
    const result = await processes.run({ command, args: ['-c', PROBE], cwd: treeDir, timeoutMs: PROBE_TIMEOUT_MS })
    const answer = result.exitCode === 0 ? lastJsonLine(result.output) : null
    if (!answer) tried.push(`${command}: ${describeFailure(result.output, result.exitCode)}`)
    return answer && { command, hasCoverage: answer.coverage === true }
  }
  // The project's own virtualenv wins outright: it has the project's dependencies.
  for (const command of await virtualenvPythons(treeDir)) {
    const interpreter = await probe(command)
    if (interpreter) return { interpreter, tried }
  }
  // Among system interpreters, one that can also measure coverage beats the first that merely runs pytest.
  let fallback: PythonInterpreter | null = null
  for (const command of systemPythons) {
    const interpreter = await probe(command)
    if (interpreter?.hasCoverage) return { interpreter, tried }
    fallback ??= interpreter
  }
  return { interpreter: fallback, tried }
}

/**
 * The virtualenv interpreters that exist for a tree. The trees are git worktrees outside the checkout, and
 * a virtualenv is never committed: it lives in the user's checkout, which the worktree's `.git` file names.
 */
export async function virtualenvPythons(treeDir: string): Promise<string[]> {
  const homes = [treeDir]
  const worktree = findUp(treeDir, '.git')
  if (worktree) {
    const inside = relative(worktree, treeDir)
    const checkout = await mainCheckoutOf(worktree)
    homes.push(worktree, ...(checkout ? [join(checkout, inside), checkout] : []))
  }
  const pythons = [...new Set(homes)].flatMap((home) => VENV_DIRS.flatMap((venv) => [join(home, venv, 'bin', 'python'), join(home, venv, 'Scripts', 'python.exe')]))
  return pythons.filter((path) => existsSync(path))
}

/** The closest folder at or above `dir` that holds `name`. */
function findUp(dir: string, name: string): string | null {
  for (let current = resolve(dir); ; current = dirname(current)) {
    if (existsSync(join(current, name))) return current
    if (dirname(current) === current) return null
  }
}

/** For a linked worktree (`.git` is a file, `gitdir: …/.git/worktrees/x`), the main checkout's folder. */
async function mainCheckoutOf(worktree: string): Promise<string | null> {
  const dotGit = join(worktree, '.git')
  if (statSync(dotGit).isDirectory()) return null
  try {
    const gitDir = resolve(worktree, /^gitdir:\s*(.+)$/m.exec(await readFile(dotGit, 'utf8'))?.[1].trim() ?? '')
    const commonDir = resolve(gitDir, (await readFile(join(gitDir, 'commondir'), 'utf8')).trim())
    return basename(commonDir) === '.git' ? dirname(commonDir) : null
  } catch {
    return null
  }
}

function lastJsonLine(output: string): { coverage?: unknown } | null {
  const line = output.trim().split('\n').reverse().find((text) => text.trim().startsWith('{'))
  try {
    return line ? (JSON.parse(line) as { coverage?: unknown }) : null
  } catch {
    return null
  }
}

function describeFailure(output: string, exitCode: number | null): string {
  const lastLine = output.trim().split('\n').pop()?.trim()
  return lastLine || `exit ${exitCode}`
}

/** Files that mark a Python project's root (a repository may hold several, e.g. `packages/*`). */
export const PROJECT_FILES = ['pyproject.toml', 'setup.py', 'setup.cfg']
const SKIPPED_DIRS = /^(?:\.|node_modules$|venv$|__pycache__$|site-packages$|build$|dist$|docs?$|tests?$)/

/**
 * The folders a tree's own modules are imported from, beyond the tree's root (which `python -m` puts on
 * sys.path): `src/` of a src layout, and the roots of project folders one or two levels down. Put first on
 * PYTHONPATH, they beat an editable install, which points at the user's checkout rather than at this tree.
 */
export function pythonSourceRoots(treeDir: string): string[] {
  const roots: string[] = []
  if (isSourceFolder(join(treeDir, 'src'))) roots.push('src')
  for (const project of projectFolders(treeDir)) {
    if (isSourceFolder(join(treeDir, project, 'src'))) roots.push(`${project}/src`)
    else if (hasPackage(join(treeDir, project))) roots.push(project)
  }
  return roots
}

function projectFolders(treeDir: string): string[] {
  const level = (relativeDir: string) => subfolders(join(treeDir, relativeDir)).map((name) => (relativeDir ? `${relativeDir}/${name}` : name))
  const folders = level('').flatMap((first) => [first, ...level(first)])
  return folders.filter((folder) => PROJECT_FILES.some((file) => existsSync(join(treeDir, folder, file))))
}

/** A `src/` that holds modules and is not itself a package (`import src.x` is never the way). */
function isSourceFolder(dir: string): boolean {
  return isDirectory(dir) && !existsSync(join(dir, '__init__.py'))
}

function hasPackage(dir: string): boolean {
  return subfolders(dir).some((name) => existsSync(join(dir, name, '__init__.py')))
}

function subfolders(dir: string): string[] {
  try {
    return readdirSync(dir, { withFileTypes: true })
      .filter((entry) => entry.isDirectory() && !SKIPPED_DIRS.test(entry.name))
      .map((entry) => entry.name)
      .sort()
  } catch {
    return []
  }
}

function isDirectory(path: string): boolean {
  try {
    return statSync(path).isDirectory()
  } catch {
    return false
  }
}
