export { chunk } from './chunk.js'
