/**
 * Whether the pre-fix tree's test command would start its runner as the head's did, so that the head's
 * launch, moved there, stands for it and the command is not run there again (one start of the test command
 * fewer). The pre-fix tree differs from head only in the files the fix reverts (its sources and manifests),
 * so the launch can differ only where one of them decides it.
 */
import { isManifest } from '../diff/classify.js'
import { escapeRegExp } from '../regexp.js'
import type { Launch } from './launch.js'

/** Shell syntax that runs more than one command (`tsc && jest`, `a; b`, a pipe, a substitution): a step the preloads may not see (a native build tool). */
const MORE_THAN_ONE_COMMAND = /&&|\|\||[;|&`\n]|\$\(/
/** A word that names a file to run or read (`scripts/test.js`, `./test.sh`), not a package's bin or a program on PATH. */
const NAMES_A_FILE = /^(?!.*node_modules\/).*\/|\.(?:[cm]?[jt]sx?|sh|py)$/

/**
 * Null when the head's launch fits the pre-fix tree; else why the test command runs there again: something
 * ran before the runner (a build: that run is the tree's own build), a reverted file is a manifest (the
 * scripts, the installed runner), the way to the runner is more than one command or names a file (a script
 * of the repository's, which may read a reverted file), or a reverted file is named by the launch itself (a
 * setup file or a configuration a wrapper found there).
 */
export function whyCaptureAgain(launch: Launch, reverted: string[]): string | null {
  if (launch.beforeRunner.length) return `its test command ran ${launch.beforeRunner.map((step) => step.command).join(', ')} before the runner`
  const manifest = reverted.find(isManifest)
  if (manifest) return `the fix changes ${manifest}`
  const way = launch.via.slice(0, -1)
  const compound = way.find((step) => MORE_THAN_ONE_COMMAND.test(step))
  if (compound) return `\`${compound}\` runs more than one command on the way to the runner`
  const script = way.find((step) => step.split(/\s+/).some((word) => NAMES_A_FILE.test(word)))
  if (script) return `\`${script}\` names a file on the way to the runner (a script of the repository's may read what the fix changes)`
  const words = [...way, launch.main ?? '', ...launch.argv, ...launch.execArgv, ...Object.values(launch.env)]
  const named = reverted.find((path) => words.some((word) => namesPath(word, path)))
  return named ? `the runner's launch names ${named}, which the fix changes` : null
}

/** `path` as a whole path in a word: `src/setup.ts`, `--config=/tree/src/setup.ts`, not `src/setup.tsx`. */
function namesPath(word: string, path: string): boolean {
  return new RegExp(`(?:^|[/"'=\\s])(?:\\./)?${escapeRegExp(path)}(?![\\w.-])`).test(word)
}
