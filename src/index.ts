import { run } from './main.js'
import { exitWithChildrenOnSignals } from './ports/process.js'

exitWithChildrenOnSignals()
await run()
