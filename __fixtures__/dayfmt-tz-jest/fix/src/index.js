'use strict'

const pad = (n) => String(n).padStart(2, '0')

/** The calendar day of `date` in local time, as YYYY-MM-DD (the tests run in UTC: the test script sets TZ). */
function formatDay(date) {
  return `${date.getFullYear()}-${pad(date.getMonth() + 1)}-${pad(date.getDate())}`
}

module.exports = { formatDay }
