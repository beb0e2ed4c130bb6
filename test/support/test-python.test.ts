/** The test setup's decision about the Python the Python tests need: use it, install it, or skip them and say why. */
import { chmod, mkdtemp, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { describeWhereTestPython, missingFromTestPython, planTestPython, TEST_PYTHON } from './test-python.js'

describe('planTestPython', () => {
  it('uses the test Python when it has pytest and coverage.py, whatever else the machine allows', () => {
    expect(planTestPython({ missing: [], privilege: 'none', aptGet: false })).toEqual({ action: 'use' })
    expect(planTestPython({ missing: [], privilege: 'root', aptGet: true })).toEqual({ action: 'use' })
  })

  it('as root with apt-get: updates the package lists, then installs both packages, without questions', () => {
    expect(planTestPython({ missing: ['pytest', 'coverage'], privilege: 'root', aptGet: true })).toEqual({
      action: 'install',
      commands: [
        ['env', 'DEBIAN_FRONTEND=noninteractive', 'apt-get', 'update', '-qq'],
        ['env', 'DEBIAN_FRONTEND=noninteractive', 'apt-get', 'install', '-y', '-qq', '--no-install-recommends', 'python3-pytest', 'python3-coverage']
      ]
    })
  })

  it('with passwordless sudo: the same commands through sudo -n (it never waits for a password)', () => {
    const plan = planTestPython({ missing: ['coverage'], privilege: 'sudo', aptGet: true })
    expect(plan.action).toBe('install')
    if (plan.action !== 'install') return
    for (const command of plan.commands) expect(command.slice(0, 4)).toEqual(['sudo', '-n', 'env', 'DEBIAN_FRONTEND=noninteractive'])
  })

  it('without the right to install: skips, saying what is missing, why it was not installed, and what to install', () => {
    const plan = planTestPython({ missing: ['pytest', 'coverage'], privilege: 'none', aptGet: true })
    expect(plan).toEqual({ action: 'skip', reason: expect.stringContaining(`${TEST_PYTHON} has no pytest and no coverage.py (not root and no passwordless sudo to install them)`) })
    if (plan.action === 'skip') expect(plan.reason).toContain('sudo apt-get install python3-pytest python3-coverage')
  })

  it('without apt-get (not Debian or Ubuntu): skips, and names pip as the way', () => {
    const plan = planTestPython({ missing: ['python'], privilege: 'root', aptGet: false })
    expect(plan).toEqual({ action: 'skip', reason: expect.stringContaining(`${TEST_PYTHON} is not there (no apt-get to install them with)`) })
    if (plan.action === 'skip') expect(plan.reason).toContain(`${TEST_PYTHON} -m pip install pytest coverage`)
  })
})

describe('missingFromTestPython', () => {
  let dir: string
  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'test-python-'))
  })
  afterAll(async () => {
    await rm(dir, { recursive: true, force: true })
  })

  it('is `python` for an interpreter that is not there', () => {
    expect(missingFromTestPython(join(dir, 'no-such-python3'))).toEqual(['python'])
  })

  it('lists the modules the interpreter cannot import, asking the interpreter itself', async () => {
    // A stand-in interpreter that imports pytest and nothing else.
    const python = join(dir, 'python3')
    await writeFile(python, '#!/bin/sh\n[ "$2" = "import pytest" ]\n')
    await chmod(python, 0o755)
    expect(missingFromTestPython(python)).toEqual(['coverage'])
  })
})

describe('describeWhereTestPython', () => {
  const saved = process.env.RTG_TEST_PYTHON_MISSING
  afterEach(() => {
    if (saved === undefined) delete process.env.RTG_TEST_PYTHON_MISSING
    else process.env.RTG_TEST_PYTHON_MISSING = saved
  })

  it('is describe.skip once the setup marked the Python tests skipped, else describe', () => {
    process.env.RTG_TEST_PYTHON_MISSING = `${TEST_PYTHON} has no pytest`
    expect(describeWhereTestPython()).toBe(describe.skip)
    delete process.env.RTG_TEST_PYTHON_MISSING
    expect(describeWhereTestPython()).toBe(describe)
  })
})
