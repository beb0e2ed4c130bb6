module.exports = { spec: 'dist/**/*.test.js' }
