/** Finding the machine's programs the sandbox's chain is made of, by absolute path. */
import { existsSync } from 'node:fs'
import { delimiter, join } from 'node:path'

/** Where system programs (`ip`, `mount`, `chgrp`) live when the PATH (a non-root user's) leaves those folders out. */
const SYSTEM_BINARIES = ['/usr/sbin', '/sbin', '/usr/bin', '/bin']

/** The program's path in the first folder of `path` that has it, or null. */
export function onPath(program: string, path: string): string | null {
  for (const folder of path.split(delimiter)) {
    const candidate = join(folder, program)
    if (folder && existsSync(candidate)) return candidate
  }
  return null
}

/** On `path`, else in the system folders. */
export function systemProgram(program: string, path: string): string | null {
  return onPath(program, path) ?? onPath(program, SYSTEM_BINARIES.join(delimiter))
}
