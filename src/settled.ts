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
