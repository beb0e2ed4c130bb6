'use strict'

/** `n`, kept within `min`..`max`. */
function clamp(n, min, max) {
  if (n > max) return max
  if (n < min) return max
  return n
}

module.exports = { clamp }
