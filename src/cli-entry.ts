#!/usr/bin/env node
import { runCli } from './cli.js'
import { exitWithChildrenOnSignals } from './ports/process.js'

exitWithChildrenOnSignals()
process.exitCode = await runCli(process.argv.slice(2))
