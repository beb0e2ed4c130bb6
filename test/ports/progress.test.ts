/** The progress helper: a line when a long step starts, a "still running" line while it lasts, none after. */
import { jest } from '@jest/globals'
import { elapsed, withProgress } from '../../src/ports/progress.js'
import { linesLogger } from '../support/cli-run.js'

afterEach(() => jest.useRealTimers())

test('a long step says it started, then that it is still running every interval, and stops saying so when it ends', async () => {
  jest.useFakeTimers()
  const lines: string[] = []
  let finish!: (value: string) => void
  const step = withProgress(linesLogger(lines), 'Run 1 at head: 2 test file(s)', () => new Promise<string>((resolve) => (finish = resolve)), 30_000)
  expect(lines).toEqual(['Run 1 at head: 2 test file(s)…'])

  jest.advanceTimersByTime(29_999)
  expect(lines).toHaveLength(1)
  jest.advanceTimersByTime(150_001 - 29_999)
  expect(lines.slice(1)).toEqual([
    'Run 1 at head: 2 test file(s): still running (30s)…',
    'Run 1 at head: 2 test file(s): still running (1m 0s)…',
    'Run 1 at head: 2 test file(s): still running (1m 30s)…',
    'Run 1 at head: 2 test file(s): still running (2m 0s)…',
    'Run 1 at head: 2 test file(s): still running (2m 30s)…'
  ])

  finish('done')
  expect(await step).toBe('done')
  jest.advanceTimersByTime(120_000)
  expect(lines).toHaveLength(6)
})

test('a step that fails stops the reminder too, and its error goes on', async () => {
  jest.useFakeTimers()
  const lines: string[] = []
  await expect(withProgress(linesLogger(lines), 'The build at head', () => Promise.reject(new Error('tsc: 3 errors')), 1000)).rejects.toThrow('tsc: 3 errors')
  jest.advanceTimersByTime(10_000)
  expect(lines).toEqual(['The build at head…'])
})

test('elapsed time reads as seconds, minutes and seconds, or hours and minutes', () => {
  expect([elapsed(4_400), elapsed(150_000), elapsed(3_900_000)]).toEqual(['4s', '2m 30s', '1h 5m'])
})
