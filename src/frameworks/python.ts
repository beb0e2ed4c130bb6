/**
 * The Python that runs a tree's tests: the repository's virtualenv, else the interpreters on offer, each
 * probed for a pytest that imports *and* loads the repository's configuration and conftest.py files (a
 * conftest written for an older pytest may fail under a newer one). Probed once per tree; the probe also
 * tells whether coverage.py is there, and the versions, for the log.
 */
import { existsSync, readdirSync, statSync } from 'node:fs'
import { readFile } from 'node:fs/promises'
import { basename, delimiter, dirname, join, relative, resolve } from 'node:path'
import type { ProcessRunner } from '../ports/process.js'

export interface PythonInterpreter {
  /** How it is started (a path, or a name looked up on PATH). */
  command: string
  /** coverage.py is importable: coverage runs are possible. */
  hasCoverage: boolean
  /** What the probe reported: the interpreter's own path and versions. */
  executable: string
  pythonVersion: string
  pytestVersion: string
  coverageVersion: string | null
}

export interface PythonSearch {
  interpreter: PythonInterpreter | null
  /** Every candidate probed, with what came of it: why it was passed over, or what it offers. */
  tried: string[]
}

export interface PythonSearchOptions {
  /** Test files the tree will run: the probe loads the conftest.py files on their way. */
  files?: string[]
  /** Interpreters to try after the repository's virtualenv. */
  systemPythons?: string[]
}

/** Interpreters outside any virtualenv: PATH's, then Debian's (where python3-pytest installs). */
export const SYSTEM_PYTHONS = ['python3', 'python', '/usr/bin/python3']
const VENV_DIRS = ['.venv', 'venv']
// Loading a conftest may import a whole application (Django, say): more than an import of pytest.
const PROBE_TIMEOUT_MS = 60_000

/**
 * Runs pytest on the files up to the point where its configuration (ini options, addopts, plugins) and the
 * conftest.py files along the files' paths are loaded, then skips collecting and running: the test modules
 * themselves are not imported (a broken test is the run's business, not the interpreter's). `--collect-only`
 * and empty `session.items` keep pytest's own run loop idle. coverage.py is imported for its version.
 */
const PROBE = `
import json, sys
import pytest
try:
    import coverage
    coverage_version = coverage.__version__
except Exception:
    coverage_version = None

class Probe:
    loaded = False

    @pytest.hookimpl(tryfirst=True)
    def pytest_collection(self, session):
        Probe.loaded = True
        session.items = []
        return True

code = pytest.main(["-p", "no:cacheprovider", "-q", "--collect-only", *sys.argv[1:]], plugins=[Probe()])
print()
print(json.dumps({"python": sys.version.split()[0], "executable": sys.executable, "pytest": pytest.__version__, "coverage": coverage_version, "loaded": Probe.loaded, "exit": int(code)}))
`

interface ProbeAnswer {
  python: string
  executable: string
  pytest: string
  coverage: string | null
  loaded: boolean
  exit: number
}

type ProbeOutcome = { interpreter: PythonInterpreter } | { failure: string }

const probes = new Map<string, Promise<PythonSearch>>()

/** The interpreter for `treeDir`, probed once per tree (the bench runs each tree several times). */
export function findPython(treeDir: string, processes: ProcessRunner, options: PythonSearchOptions = {}): Promise<PythonSearch> {
  const systemPythons = options.systemPythons ?? SYSTEM_PYTHONS
  const key = `${treeDir}\0${systemPythons.join('\0')}`
  let search = probes.get(key)
  if (!search) {
    search = searchPython(treeDir, processes, options.files ?? [], systemPythons)
    probes.set(key, search)
  }
  return search
}

async function searchPython(treeDir: string, processes: ProcessRunner, files: string[], systemPythons: string[]): Promise<PythonSearch> {
  const tried: string[] = []
  const probe = async (command: string): Promise<PythonInterpreter | null> => {
    const outcome = await probePython(command, treeDir, files, processes)
    tried.push('failure' in outcome ? `${command}: ${outcome.failure}` : `${command} → ${describePython(outcome.interpreter)}`)
    return 'interpreter' in outcome ? outcome.interpreter : null
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

/** Runs the probe with the environment the tests will have (their PYTHONPATH is what conftests import by). */
async function probePython(command: string, treeDir: string, files: string[], processes: ProcessRunner): Promise<ProbeOutcome> {
  const result = await processes.run({ command, args: ['-c', PROBE, ...files], env: pythonEnvironment(treeDir), cwd: treeDir, timeoutMs: PROBE_TIMEOUT_MS })
  const answer = lastJsonLine(result.output)
  if (!answer) return { failure: result.timedOut ? `the probe timed out after ${PROBE_TIMEOUT_MS} ms` : lastLine(result.output) || `exit ${result.exitCode}` }
  if (!answer.loaded) return { failure: `pytest ${answer.pytest} (Python ${answer.python}) could not load the repository's pytest configuration or conftest.py (exit ${answer.exit}): ${pytestError(result.output)}` }
  const interpreter = { command, hasCoverage: answer.coverage !== null, executable: answer.executable, pythonVersion: answer.python, pytestVersion: answer.pytest, coverageVersion: answer.coverage }
  return { interpreter }
}

/** One line for the log: which Python, which pytest, and whether coverage.py is there. */
export function describePython(python: PythonInterpreter): string {
  const coverage = python.coverageVersion === null ? 'no coverage.py' : `coverage.py ${python.coverageVersion}`
  return `${python.executable} (Python ${python.pythonVersion}, pytest ${python.pytestVersion}, ${coverage})`
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

function lastJsonLine(output: string): ProbeAnswer | null {
  const line = output.trim().split('\n').reverse().find((text) => text.trim().startsWith('{'))
  try {
    return line ? (JSON.parse(line) as ProbeAnswer) : null
  } catch {
    return null
  }
}

function lastLine(output: string): string {
  return output.trim().split('\n').pop()?.trim() ?? ''
}

/** pytest's own words for what failed: its `E   …` lines, else the first line of its complaint. */
function pytestError(output: string): string {
  const lines = output.split('\n').filter((line) => !line.trim().startsWith('{') && line.trim() !== '')
  const errors = lines.filter((line) => /^E\s/.test(line)).map((line) => line.slice(1).trim())
  return (errors.length ? errors.slice(-2) : lines.slice(0, 2).map((line) => line.trim())).join(' / ') || 'no message'
}

/**
 * Source roots first on PYTHONPATH, so the tree's own code is what the tests import (not an editable install
 * of the user's checkout); no bytecode written, so a repaired test file of the same size and second is
 * never served from a stale cache.
 */
export function pythonEnvironment(treeDir: string): Record<string, string> {
  const roots = pythonSourceRoots(treeDir).map((root) => join(treeDir, root))
  return { PYTHONDONTWRITEBYTECODE: '1', ...(roots.length > 0 && { PYTHONPATH: roots.join(delimiter) }) }
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
