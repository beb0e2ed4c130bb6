/** `items` in consecutive groups of `size`. */
export function chunk<T>(items: T[], size: number): T[][] {
  const groups: T[][] = []
  const count = Math.ceil(items.length / size)
  for (let index = 0; index < count; index++) groups.push(items.slice(index * size, (index + 1) * size))
  return groups
}
