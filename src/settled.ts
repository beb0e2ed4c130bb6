/**
 * Two steps at once (the two trees' runs: their runner starts overlap). An error of either is thrown only
 * once both have settled, so no step outlives the one that failed (a run still going while the trees go).
 */
export async function together<A, B>(first: A | Promise<A>, second: B | Promise<B>): Promise<[A, B]> {
  const [a, b] = await Promise.allSettled([first, second])
  if (a.status === 'rejected') throw a.reason
  if (b.status === 'rejected') throw b.reason
  return [a.value, b.value]
}

/**
 * `work` on every item, at most `limit` at a time. Hundreds of file-system calls at once fill libuv's few
 * threads, and every other file access of the process (the sandbox opening beside them) waits behind them.
 * The first error (or the signal's abort) is thrown once the calls under way have settled; no new one starts after it.
 */
export async function eachAtMost<T>(items: readonly T[], limit: number, work: (item: T) => Promise<unknown>, signal?: AbortSignal): Promise<void> {
  let next = 0
  let failed = false
  const worker = async () => {
    while (!failed && next < items.length) {
      try {
        signal?.throwIfAborted()
        await work(items[next++])
      } catch (error) {
        failed = true
        throw error
      }
    }
  }
  const workers = await Promise.allSettled(Array.from({ length: Math.min(limit, items.length) }, worker))
  const failure = workers.find((settled) => settled.status === 'rejected')
  if (failure) throw failure.reason
}
