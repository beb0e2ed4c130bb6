import { spawnSync } from 'node:child_process'
import { SettingsError } from '../src/errors.js'
import type { ModelPort, ModelReply } from '../src/model/model-port.js'
import { createProcessRunner, type ProcessRequest, type ProcessResult, type ProcessRunner } from '../src/ports/process.js'
import { commandTimeoutMs, DeadlineReached, RunDeadline } from '../src/run-deadline.js'
import { buildSettings, DEFAULT_RUN_TIMEOUT_MINUTES } from '../src/settings.js'

const MINUTE = 60_000
const DONE: ProcessResult = { exitCode: 0, signal: null, timedOut: false, output: '', stdout: '', durationMs: 1 }
const REPLY: ModelReply = { content: [], stopReason: 'end_turn', usage: { inputTokens: 1, cacheWriteTokens: 0, cacheReadTokens: 0, outputTokens: 1 } }
const request = (timeoutMs: number): ProcessRequest => ({ command: 'true', args: [], cwd: '/', timeoutMs })

/** The processes whose command line holds `marker` (pgrep exits 1 when there is none). */
function processesNamed(marker: string): string[] {
  const found = spawnSync('pgrep', ['-af', marker], { encoding: 'utf8' })
  return found.stdout.split('\n').filter((line) => line.trim() && !line.includes('pgrep'))
}

/** A clock the test moves by hand. */
function manualClock(start = 1_000_000) {
  let now = start
  return { now: () => now, advance: (ms: number) => void (now += ms) }
}

/** A process runner that records what it was asked to run, and runs nothing. */
function recordingRunner(): ProcessRunner & { requests: ProcessRequest[] } {
  const requests: ProcessRequest[] = []
  return { requests, run: async (asked) => (requests.push(asked), DONE) }
}

describe('commandTimeoutMs: a command gets its own timeout or the time left, whichever is less', () => {
  test.each([
    ['plenty of time left: its own timeout', 5 * MINUTE, 60 * MINUTE, 5 * MINUTE],
    ['less time left than its timeout: the time left', 5 * MINUTE, 90_000, 90_000],
    ['exactly its timeout left', 5 * MINUTE, 5 * MINUTE, 5 * MINUTE],
    ['the deadline passed: nothing', 5 * MINUTE, -1000, 0]
  ])('%s', (_, own, left, expected) => {
    expect(commandTimeoutMs(own, 1_000_000 + left, 1_000_000)).toBe(expected)
  })
})

describe('RunDeadline', () => {
  let deadline: RunDeadline | undefined
  afterEach(() => deadline?.dispose())

  test('each command it runs gets min(its timeout, the time left), the time left shrinking as the run goes', async () => {
    const clock = manualClock()
    deadline = new RunDeadline(10, clock.now)
    const inner = recordingRunner()
    const bound = deadline.bound(inner)
    await bound.run(request(5 * MINUTE))
    clock.advance(7 * MINUTE)
    await bound.run(request(5 * MINUTE))
    clock.advance(2 * MINUTE + 59_000)
    await bound.run(request(5 * MINUTE))
    expect(inner.requests.map((asked) => asked.timeoutMs)).toEqual([5 * MINUTE, 3 * MINUTE, 1000])
  })

  test('after the deadline no command starts: the run is refused with DeadlineReached naming the setting', async () => {
    const clock = manualClock()
    deadline = new RunDeadline(2, clock.now)
    const inner = recordingRunner()
    clock.advance(2 * MINUTE)
    await expect(deadline.bound(inner).run(request(MINUTE))).rejects.toThrow(DeadlineReached)
    await expect(deadline.bound(inner).run(request(MINUTE))).rejects.toThrow('The run reached its deadline (run-timeout-minutes: 2)')
    expect(inner.requests).toEqual([])
    expect(() => deadline!.check()).toThrow(DeadlineReached)
  })

  test('after the deadline no model call is sent', async () => {
    const clock = manualClock()
    deadline = new RunDeadline(1, clock.now)
    const sent: string[] = []
    const model: ModelPort = { send: async (asked) => (sent.push(asked.stage), REPLY) }
    const bound = deadline.boundModel(model)
    const ask = (stage: string) => bound.send({ stage, system: '', messages: [], tools: [{ name: 'answer', input_schema: { type: 'object' } }] })
    await expect(ask('analyse')).resolves.toBe(REPLY)
    clock.advance(MINUTE)
    await expect(ask('scenarios')).rejects.toThrow(DeadlineReached)
    expect(sent).toEqual(['analyse'])
  })

  test('a model call still waiting at the deadline is given up then, its request aborted', async () => {
    // 30 ms: the deadline passes while the call waits for an answer that never comes.
    deadline = new RunDeadline(0.0005)
    const signals: (AbortSignal | undefined)[] = []
    const model: ModelPort = { send: (asked) => (signals.push(asked.signal), new Promise<ModelReply>(() => undefined)) }
    await expect(deadline.boundModel(model).send({ stage: 'analyse', system: '', messages: [], tools: [{ name: 'answer', input_schema: { type: 'object' } }] })).rejects.toThrow(DeadlineReached)
    // Its request is aborted too: nothing of it outlives the run.
    expect(signals.map((signal) => signal?.aborted)).toEqual([true])
  })

  test('a real command running at the deadline is killed then, with its child, and settled() waits for it', async () => {
    // 300 ms: the command would sleep ten minutes.
    deadline = new RunDeadline(0.005)
    const marker = `rtg-deadline-unit-${process.pid}-${Date.now()}`
    // A child shell named by the marker, sleeping in the background of its parent.
    const run = deadline.bound(createProcessRunner()).run({ command: 'sh', args: ['-c', 'sh -c "sleep 600; true" "$0" & wait', marker], cwd: '/', timeoutMs: 10 * MINUTE })
    await deadline.settled()
    const result = await run
    expect(result.timedOut).toBe(true)
    expect(deadline.passed()).toBe(true)
    expect(processesNamed(marker)).toEqual([])
  })
})

describe('run-timeout-minutes', () => {
  const base = { base: 'a1', head: 'b2', repo: '/repo', mode: 'verify' }

  test('defaults to an hour, well inside a GitHub job', () => {
    expect(DEFAULT_RUN_TIMEOUT_MINUTES).toBe(60)
    expect(buildSettings(base).runTimeoutMinutes).toBe(60)
  })

  test('takes whole and fractional minutes', () => {
    expect(buildSettings({ ...base, runTimeoutMinutes: '45' }).runTimeoutMinutes).toBe(45)
    expect(buildSettings({ ...base, runTimeoutMinutes: '0.25' }).runTimeoutMinutes).toBe(0.25)
  })

  test.each([
    ['0', '"0" is not a number of minutes above 0'],
    ['-5', '"-5" is not a number of minutes above 0'],
    ['soon', '"soon" is not a number of minutes above 0'],
    ['Infinity', '"Infinity" is not a number of minutes above 0'],
    ['20000', '"20000" is above 10080 (a week)']
  ])('refuses %s, naming the input', (value, problem) => {
    const attempt = () => buildSettings({ ...base, runTimeoutMinutes: value })
    expect(attempt).toThrow(SettingsError)
    expect(attempt).toThrow(`Invalid run-timeout-minutes: ${problem}`)
  })
})
