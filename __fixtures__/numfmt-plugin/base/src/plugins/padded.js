'use strict'

/** `{00}`: at least two digits. */
module.exports = { token: '00', render: (n) => String(n).padStart(2, '0') }
