/** The numbers from start up to (not including) end, step apart, like Python's range. */
function range(start, end, step = 1) {
  if (step === 0) throw new RangeError('step must not be 0')
  const numbers = []
  const before = step > 0 ? (value) => value < end : (value) => value > end
  for (let value = start; before(value); value += step) numbers.push(value)
  return numbers
}

module.exports = { range }
