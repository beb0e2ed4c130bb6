/** The middle value of `numbers` (the mean of the middle two for an even count). */
function median(numbers) {
  if (numbers.length === 0) throw new RangeError('median of no numbers')
  const sorted = [...numbers].sort((a, b) => a - b)
  const middle = Math.floor(sorted.length / 2)
  return sorted.length % 2 === 1 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2
}

module.exports = { median }
