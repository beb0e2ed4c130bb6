export { pageCount, pageOf } from './pages.js'
