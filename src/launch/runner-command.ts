// PLACEHOLDER (integrator): replaced by i22-template's launchTemplate at merge.
import { FILES_PLACEHOLDER } from '../frameworks/command.js'
import type { Launch } from './launch.js'

export function launchTemplate(launch: Launch): string[] {
  const env = Object.entries(launch.env).map(([name, value]) => `${name}=${value}`)
  const valueOptions = new Set(['--config', '-c', '--require', '-r', '--import', '--loader', '--project'])
  const argv: string[] = []
  for (let i = 0; i < launch.argv.length; i++) {
    const word = launch.argv[i]
    if (valueOptions.has(word)) argv.push(word, launch.argv[++i])
    else if (word.startsWith('-')) argv.push(word)
  }
  return [...env, launch.executable, ...launch.execArgv, ...(launch.main ? [launch.main] : []), ...argv, FILES_PLACEHOLDER]
}
