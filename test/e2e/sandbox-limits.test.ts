/**
 * The sandbox's limits, met through the bundled CLI: a pull request whose bug makes its own tests fork
 * without bound, write a file without bound and allocate without bound before the fix. Each meets its
 * limit at once (not after a time-out minutes later), fails as `resource` with the limit named in the
 * report and the log, and the hunk tree where that bug is back is reported as not checked, never a guard.
 */
import { execFile } from 'node:child_process'
import { mkdtemp, readFile, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { promisify } from 'node:util'
import { linesLogger } from '../support/cli-run.js'
import { buildFixtureRepo } from '../support/fixture-repo.js'
import { describeWhereSandboxed } from '../support/sandbox-probe.js'
import type { Report } from '../../src/report/report.js'
import { runWithRealPorts } from '../../src/run.js'
import { buildSettings } from '../../src/settings.js'

const root = join(import.meta.dirname ?? new URL('.', import.meta.url).pathname, '..', '..')

// One bug three times, far enough apart to be three hunks: `!==` misses an odd count, so the loop never ends.
const LOOPING = `const { spawn } = require('child_process')
const { closeSync, openSync, rmSync, writeSync } = require('fs')
const { join } = require('path')
const { tmpdir } = require('os')

/** Starts sleepers \`step\` at a time until \`count\` are up; returns how many started. */
async function startSleepers(count, step) {
  const children = []
  try {
    for (let started = 0; started !== count; started += step) {
      for (let i = 0; i < step; i++) {
        const child = spawn('sleep', ['60'], { stdio: 'ignore' })
        children.push(child)
        await new Promise((ok, fail) => { child.once('spawn', ok); child.once('error', fail) })
      }
    }
    return children.length
  } finally {
    for (const child of children) child.kill('SIGKILL')
  }
}

/** Writes 4 MB blocks, \`step\` at a time, until \`count\` are written; returns how many. */
function writeBlocks(count, step) {
  const path = join(tmpdir(), 'blocks')
  const block = Buffer.alloc(4 << 20, 1)
  const fd = openSync(path, 'w')
  let blocks = 0
  try {
    for (let written = 0; written !== count; written += step) {
      for (let i = 0; i < step; i++, blocks++) writeSync(fd, block)
    }
    return blocks
  } finally {
    closeSync(fd)
    rmSync(path, { force: true })
  }
}

/** Keeps 64 MB buffers, \`step\` at a time, until \`count\` are kept; returns how many. */
function keepBuffers(count, step) {
  const kept = []
  for (let made = 0; made !== count; made += step) {
    for (let i = 0; i < step; i++) kept.push(Buffer.allocUnsafe(64 << 20))
  }
  return kept.length
}

module.exports = { startSleepers, writeBlocks, keepBuffers }
`
const FIXED = LOOPING.replaceAll(/ !== count; /g, ' < count; ')

const TESTS = `const { startSleepers, writeBlocks, keepBuffers } = require('../src/looping')

test('starts sleepers two at a time', async () => {
  expect(await startSleepers(3, 2)).toBe(4)
}, 120000)

test('writes blocks two at a time', () => {
  expect(writeBlocks(3, 2)).toBe(4)
})

test('keeps buffers two at a time', () => {
  expect(keepBuffers(3, 2)).toBe(4)
})
`

async function runBundledCli(args: string[]) {
  return promisify(execFile)(process.execPath, [join(root, 'dist/cli/index.js'), ...args], { env: { PATH: process.env.PATH, HOME: process.env.HOME } }).then(
    (result) => ({ code: 0, ...result }),
    (error: { code: number; stdout: string; stderr: string }) => ({ code: error.code, stdout: error.stdout, stderr: error.stderr })
  )
}

describeWhereSandboxed('through the bundled CLI', () => {
  test('verify mode: a test that forks, writes or allocates without bound meets its limit, named, and guards no hunk', async () => {
    const repo = await buildFixtureRepo('retry-budget', { baseChanges: { 'src/looping.js': LOOPING }, headChanges: { 'src/looping.js': FIXED, 'test/looping.test.js': TESTS } })
    const out = await mkdtemp(join(tmpdir(), 'rtg-limits-out-'))
    try {
      const started = Date.now()
      const result = await runBundledCli(['verify', '--repo', repo.dir, '--base', repo.base, '--head', repo.head, '--out', out])
      const seconds = (Date.now() - started) / 1000
      const report = JSON.parse(await readFile(join(out, 'report.json'), 'utf8')) as Report
      expect(report.isolation).toBe('sandbox')
      const looping = report.tests.filter((test) => test.file === 'test/looping.test.js').map(({ name, head, kind, preFixFailure, preFixFailureLine }) => ({ name, head, kind, preFixFailure, preFixFailureLine }))
      expect(looping).toEqual([
        { name: 'starts sleepers two at a time', head: 'passed', kind: 'fail-to-pass', preFixFailure: 'resource', preFixFailureLine: expect.stringMatching(/^hit the sandbox's process limit \(2048 processes and threads\): .*EAGAIN/) },
        { name: 'writes blocks two at a time', head: 'passed', kind: 'fail-to-pass', preFixFailure: 'resource', preFixFailureLine: expect.stringMatching(/^hit the sandbox's file size limit \(1024 MB per file\): .*EFBIG/) },
        { name: 'keeps buffers two at a time', head: 'passed', kind: 'fail-to-pass', preFixFailure: 'resource', preFixFailureLine: expect.stringMatching(/^hit the sandbox's memory limit \(4096 MB per process\): .*allocation failed/) }
      ])
      // Each loop's own hunk, taken out alone, brings its loop back: that run says nothing of guards.
      const loopingHunks = report.hunks?.filter((hunk) => hunk.file === 'src/looping.js')
      expect(loopingHunks?.map((hunk) => hunk.guardedBy)).toEqual([null, null, null])
      const log = result.stdout + result.stderr
      for (const limit of ['process limit (2048 processes and threads)', 'file size limit (1024 MB per file)', 'memory limit (4096 MB per process)']) {
        expect(log).toMatch(new RegExp(`Hunk \\d of \\d \\(src/looping\\.js:\\d+-\\d+\\) not checked: its run met the sandbox's ${limit.replace(/[()]/g, '\\$&')}`))
      }
      expect(log).toContain('limited to 4096 MB of memory per process, 2048 processes and 1024 MB per file (prlimit)')
      expect(await readFile(join(out, 'report.md'), 'utf8')).toContain("**resource**: `hit the sandbox's memory limit")
      // Minutes with a time-out; seconds with the limits (three tests, the pre-fix tree and three hunk trees).
      expect(seconds).toBeLessThan(180)
      expect(result.code).toBe(0)
    } finally {
      await rm(out, { recursive: true, force: true })
      await repo.cleanup()
    }
    // Over jest's default (2 minutes): starting 2,048 processes three times takes one on 2 busy cores; the bound above decides.
  }, 300_000)
})

// The same bug in a loop that waits: no limit stops it, only the test run's timeout.
const WAITING = `/** Waits \`step\` ticks at a time until \`count\` have passed; returns how many it waited. */
async function waitTicks(count, step) {
  let ticks = 0
  for (let waited = 0; waited !== count; waited += step) {
    for (let i = 0; i < step; i++, ticks++) await new Promise((resolve) => setTimeout(resolve, 50))
  }
  return ticks
}

module.exports = { waitTicks }
`
const WAITING_TEST = `const { waitTicks } = require('../src/waiting')

// Longer than the tool's own timeout: the run, not jest, ends it.
test('waits two ticks at a time', async () => {
  expect(await waitTicks(3, 2)).toBe(4)
}, 600000)
`

// The CLI's least timeout is a minute, met three times here (two pre-fix runs, one hunk tree): the settings
// take any. Five times the slowest run at head (3 s with coverage, on 2 busy cores).
const TEST_TIMEOUT_MS = 15_000

test('verify: a hunk tree whose run timed out is not checked, never counted as a guard', async () => {
  const repo = await buildFixtureRepo('retry-budget', { baseChanges: { 'src/waiting.js': WAITING }, headChanges: { 'src/waiting.js': WAITING.replace(' !== count; ', ' < count; '), 'test/waiting.test.js': WAITING_TEST } })
  const out = await mkdtemp(join(tmpdir(), 'rtg-timeout-out-'))
  const log: string[] = []
  try {
    const settings = { ...buildSettings({ mode: 'verify', repo: repo.dir, base: repo.base, head: repo.head, out }), testTimeoutMs: TEST_TIMEOUT_MS }
    const { report } = await runWithRealPorts(settings, linesLogger(log))
    expect(report.tests.find((test) => test.name === 'waits two ticks at a time')).toMatchObject({ head: 'passed', kind: 'fail-to-pass', preFixFailure: 'timeout' })
    expect(report.hunks?.find((hunk) => hunk.file === 'src/waiting.js')).toMatchObject({ guardedBy: null })
    expect(log).toContainEqual(expect.stringMatching(/^warning: Hunk \d of \d \(src\/waiting\.js:\d+-\d+\) not checked: its run timed out after \d+ ms$/))
    // The fixture's own hunks are still checked: its fix's test guards them.
    expect(report.hunks?.filter((hunk) => hunk.file !== 'src/waiting.js').some((hunk) => hunk.guardedBy?.length)).toBe(true)
  } finally {
    await rm(out, { recursive: true, force: true })
    await repo.cleanup()
  }
}, 600_000)
