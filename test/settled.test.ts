/**
 * Two steps at once: both results, or the first error only once the other step has settled too. And work on
 * many items, a few at a time.
 */
import { eachAtMost, together } from '../src/settled.js'

test('both results, in order', async () => {
  expect(await together(Promise.resolve('head'), 'pre-fix')).toEqual(['head', 'pre-fix'])
})

test("a step's error is thrown only once the other has ended: no step outlives the run", async () => {
  let otherEnded = false
  let endOther = () => {}
  const other = new Promise<void>((resolve) => (endOther = resolve)).then(() => (otherEnded = true))
  const both = together(Promise.reject(new Error('the preflight ends the run')), other)
  let settled = false
  both.catch(() => undefined).finally(() => (settled = true))
  await new Promise((resolve) => setImmediate(resolve))
  expect(settled).toBe(false)
  endOther()
  await expect(both).rejects.toThrow('the preflight ends the run')
  expect(otherEnded).toBe(true)
})

test("the second step's error, when the first succeeded", async () => {
  await expect(together('head', Promise.reject(new Error('pre-fix')))).rejects.toThrow('pre-fix')
})

test('every item, never more than the limit at once', async () => {
  const done: number[] = []
  let running = 0
  let most = 0
  await eachAtMost([1, 2, 3, 4, 5, 6, 7], 2, async (item) => {
    most = Math.max(most, ++running)
    await new Promise((resolve) => setTimeout(resolve, 8 - item))
    running--
    done.push(item)
  })
  expect(done.sort()).toEqual([1, 2, 3, 4, 5, 6, 7])
  expect(most).toBe(2)
})

test('after an error no item starts, and the error comes once the running ones have ended', async () => {
  const started: number[] = []
  let slowEnded = false
  const each = eachAtMost([1, 2, 3, 4], 2, async (item) => {
    started.push(item)
    if (item === 1) throw new Error('item 1')
    await new Promise((resolve) => setTimeout(resolve, 20))
    slowEnded = true
  })
  await expect(each).rejects.toThrow('item 1')
  expect(slowEnded).toBe(true)
  expect(started).toEqual([1, 2])
})
