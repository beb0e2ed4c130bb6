/** Two steps at once: both results, or the first error only once the other step has settled too. */
import { together } from '../src/settled.js'

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
