/** `i` wrapped into `0..n-1`. */
export function wrap(i: number, n: number): number {
  if (i > n) return i % n
  return i
}
