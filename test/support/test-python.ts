/**
 * The Python this repository's Python tests need, found or provisioned once before the run (jest's
 * globalSetup), so that `npm test` passes on a fresh machine with nothing run before.
 *
 * The tests need the system's `/usr/bin/python3` with pytest and coverage.py: the sandbox's user (any other
 * user) can run it, the tool falls back to it, and the tests make stand-in virtualenvs from it. A version
 * manager's `python3` in a home folder (pyenv's in root's) is of no use: the sandbox cannot reach it.
 * Where it lacks them, the setup installs Debian's packages when it may (root or passwordless sudo, and
 * apt-get); else the Python tests are skipped, and the run says why and what to install.
 *
 * It imports nothing of the project's own TypeScript: jest loads a globalSetup without the module mapping.
 */
import { spawnSync } from 'node:child_process'
import { existsSync } from 'node:fs'
// @ts-expect-error -- plain JavaScript without types (jest's teardown imports it as is).
import setupTempRoot from './temp-root.js'

export const TEST_PYTHON = '/usr/bin/python3'
export const TEST_PYTHON_PACKAGES = ['python3-pytest', 'python3-coverage']
/** Set by the setup (workers inherit it) when the Python tests cannot run: why, and what to do. */
const MISSING_ENV = 'RTG_TEST_PYTHON_MISSING'

export interface PythonFacts {
  /** What the test Python lacks (`pytest`, `coverage`), or that it is not there at all. */
  missing: string[]
  /** How this process may install system packages. */
  privilege: 'root' | 'sudo' | 'none'
  aptGet: boolean
}

export type PythonPlan =
  | { action: 'use' }
  | { action: 'install'; commands: string[][] }
  | { action: 'skip'; reason: string }

/** What to do about the test Python, from what this machine has: a pure decision, unit-tested. */
export function planTestPython(facts: PythonFacts): PythonPlan {
  if (facts.missing.length === 0) return { action: 'use' }
  if (facts.aptGet && facts.privilege !== 'none') {
    const asRoot = facts.privilege === 'sudo' ? ['sudo', '-n', 'env', 'DEBIAN_FRONTEND=noninteractive'] : ['env', 'DEBIAN_FRONTEND=noninteractive']
    return {
      action: 'install',
      commands: [
        [...asRoot, 'apt-get', 'update', '-qq'],
        [...asRoot, 'apt-get', 'install', '-y', '-qq', '--no-install-recommends', ...TEST_PYTHON_PACKAGES]
      ]
    }
  }
  const cannot = facts.aptGet ? 'not root and no passwordless sudo to install them' : 'no apt-get to install them with'
  return { action: 'skip', reason: `${TEST_PYTHON} ${describeMissing(facts.missing)} (${cannot}); ${HOW_TO_INSTALL}` }
}

const HOW_TO_INSTALL = `install them for ${TEST_PYTHON} (Debian/Ubuntu: sudo apt-get install ${TEST_PYTHON_PACKAGES.join(' ')}; elsewhere: ${TEST_PYTHON} -m pip install pytest coverage) and run npm test again`

function describeMissing(missing: string[]): string {
  if (missing.includes('python')) return 'is not there'
  return `has no ${missing.map((module) => (module === 'coverage' ? 'coverage.py' : module)).join(' and no ')}`
}

/** What the test Python lacks: `python` (not there), else the modules it cannot import. */
export function missingFromTestPython(python = TEST_PYTHON): string[] {
  if (!existsSync(python)) return ['python']
  return ['pytest', 'coverage'].filter((module) => spawnSync(python, ['-c', `import ${module}`], { stdio: 'ignore' }).status !== 0)
}

function succeeds(command: string, args: string[]): boolean {
  return spawnSync(command, args, { stdio: 'ignore' }).status === 0
}

function machineFacts(): PythonFacts {
  const root = process.getuid?.() === 0
  const privilege = root ? 'root' : succeeds('sudo', ['-n', 'true']) ? 'sudo' : 'none'
  return { missing: missingFromTestPython(), privilege, aptGet: succeeds('sh', ['-c', 'command -v apt-get']) }
}

/** The globalSetup step: finds the test Python, installs what it lacks when it may, else marks the Python tests skipped. */
export function provisionTestPython(): void {
  const facts = machineFacts()
  const plan = planTestPython(facts)
  if (plan.action === 'use') return
  if (plan.action === 'install') {
    console.log(`\nTest setup: ${TEST_PYTHON} ${describeMissing(facts.missing)}; installing ${TEST_PYTHON_PACKAGES.join(' ')} with apt-get…`)
    for (const [command, ...args] of plan.commands) {
      const run = spawnSync(command, args, { encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] })
      if (run.status !== 0) {
        markSkipped(`installing ${TEST_PYTHON_PACKAGES.join(' ')} failed (${[command, ...args].join(' ')}: ${(run.stderr || run.stdout || String(run.error ?? '')).trim().split('\n').slice(-3).join(' ')}); ${HOW_TO_INSTALL}`)
        return
      }
    }
    const stillMissing = missingFromTestPython()
    if (stillMissing.length > 0) markSkipped(`after installing ${TEST_PYTHON_PACKAGES.join(' ')}, ${TEST_PYTHON} ${describeMissing(stillMissing)}; ${HOW_TO_INSTALL}`)
    else console.log(`Test setup: ${TEST_PYTHON} now has pytest and coverage.py.`)
    return
  }
  markSkipped(plan.reason)
}

/** jest's globalSetup: the test Python first (it may install packages), then the run's temporary folder. */
export default function globalSetup(): void {
  provisionTestPython()
  setupTempRoot()
}

function markSkipped(reason: string): void {
  process.env[MISSING_ENV] = reason
  console.warn(`\nTest setup: the Python tests are SKIPPED: ${reason}\n`)
}

/** Why the Python tests cannot run here, or null when they can. */
export function testPythonMissing(): string | null {
  return process.env[MISSING_ENV] || null
}

/** `describe` for tests that run the test Python, or `describe.skip` where it cannot (the setup printed why). */
export function describeWhereTestPython(): jest.Describe {
  return testPythonMissing() ? describe.skip : describe
}
