/**
 * The sandbox's own view of the machine's shared folders, made as root in its new mount namespace (one
 * link of the sandbox's chain, see sandbox.ts): a fresh, size-capped tmpfs on /tmp, /var/tmp and /dev/shm,
 * so nothing a command leaves there outlives it and nothing another process left there is seen; a tmpfs
 * over RUNNER_TEMP, where actions/checkout v6 keeps the job token's git-credentials file; the run's own
 * folders that live under any of them bound back in; and each masked file (the checkout's git config)
 * replaced, read-only, by the tool's copy without credentials.
 *
 * The mounts are made by `sh -c` with every path an argument, never in the script. A folder hidden by a
 * new tmpfs is bound back from the shell's working folder, which still is the hidden one (`cd` to it
 * before mounting over it); `--no-canonicalize` keeps mount from resolving the relative path by name,
 * which would find the new tmpfs instead.
 */
import { realpathSync, statSync } from 'node:fs'
import { relative, sep } from 'node:path'
import { systemProgram } from './programs.js'

export interface MountTools {
  sh: string
  mount: string
  mkdir: string
}

/** A file the sandbox's commands see in place of another: `replacement` bound read-only over `target`. */
export interface FileMask {
  target: string
  replacement: string
}

/** A folder that gets a fresh tmpfs: how large it may grow and its mode. */
interface Hidden {
  dir: string
  options: string
}

/** Big enough for a test suite's temporary files, small enough not to fill the machine's memory. */
const SHARED_TMP = 'size=1g,mode=1777,nosuid,nodev'
const SHARED_MEMORY = 'size=256m,mode=1777,nosuid,nodev'
/** Nothing of the runner's for the sandbox there, only the run's own folder bound back in. */
const RUNNER_TEMP = 'size=16m,mode=755,nosuid,nodev'

/**
 * `$1` mount, `$2` mkdir, then directives up to `--`: `tmpfs DIR OPTIONS` (cd DIR, then a tmpfs over it),
 * `keep REL` (REL, under the last DIR, bound back in from the hidden folder), `mask FILE TARGET`; then
 * back to the command's folder (through the new mounts) and the rest of the chain. A command whose folder
 * the mounts hid starts in `/`, never in the hidden tree.
 */
const PRIVATE_MOUNTS_SCRIPT = `mount=$1 mkdir=$2 here=$PWD root=/
shift 2
"$mount" --make-rprivate / || exit
while [ "$1" != -- ]; do
  case $1 in
    tmpfs) cd "$2" && "$mount" -t tmpfs -o "$3" tmpfs "$2" || exit; root=$2; shift 3 ;;
    keep) "$mkdir" -p "$root/$2" && "$mount" --no-canonicalize --bind "./$2" "$root/$2" || exit; shift 2 ;;
    mask) "$mount" --bind -o ro "$2" "$3" || exit; shift 3 ;;
    *) echo "private mounts: unknown directive $1" >&2; exit 2 ;;
  esac
done
shift
cd "$here" || cd / || exit
exec "$@"`

export function findMountTools(path: string): MountTools | null {
  const [sh, mount, mkdir] = [systemProgram('sh', path), systemProgram('mount', path), systemProgram('mkdir', path)]
  return sh && mount && mkdir ? { sh, mount, mkdir } : null
}

/**
 * The chain's link that makes the private mounts, keeping the `kept` folders (the run's folder, the
 * checkout, its dependencies) where they are, and of the `programs` folders (PATH's, node's own) those a
 * tmpfs would hide; `runnerTemp` is hidden too where it is set.
 */
export function privateMountsLink(tools: MountTools, kept: string[], masks: FileMask[], runnerTemp: string | undefined, programs: string[] = []): string[] {
  const hidden: Hidden[] = [
    { dir: '/tmp', options: SHARED_TMP },
    { dir: '/var/tmp', options: SHARED_TMP },
    { dir: '/dev/shm', options: SHARED_MEMORY },
    ...(runnerTemp ? [{ dir: runnerTemp, options: RUNNER_TEMP }] : [])
  ]
  // A program the tool runs there (a tool cache, a stand-in on PATH) stays where the sandbox can run it.
  const hiddenPrograms = programs.filter((dir) => dir && isFolder(dir)).map(realFolder).filter((dir) => hidden.some((root) => isWithin(dir, realFolder(root.dir))))
  return [tools.sh, '-c', PRIVATE_MOUNTS_SCRIPT, 'sh', tools.mount, tools.mkdir, ...mountDirectives(hidden, [...new Set([...kept, ...hiddenPrograms].map(realFolder))], masks), '--']
}

function mountDirectives(hidden: Hidden[], kept: string[], masks: FileMask[]): string[] {
  const directives: string[] = []
  const mounted: string[] = []
  const holds = (folder: string, path: string) => path === folder || isWithin(path, folder)
  // Under the innermost tmpfs that covers it, a path is seen only through a kept folder bound back in there.
  const visible = (path: string) => {
    const cover = mounted.filter((dir) => holds(dir, path)).sort((a, b) => b.length - a.length)[0]
    return cover === undefined || kept.some((folder) => holds(folder, path) && isWithin(folder, cover))
  }
  for (const { dir, options } of hidden) {
    const real = realFolder(dir)
    // Missing, out of sight already (under an earlier tmpfs, or that tmpfs itself), or a folder the sandbox needs.
    if (!isFolder(real) || !visible(real) || mounted.includes(real) || kept.includes(real)) continue
    mounted.push(real)
    directives.push('tmpfs', real, options)
    for (const folder of outermost(kept.filter((candidate) => isWithin(candidate, real)))) directives.push('keep', relative(real, folder))
  }
  // A masked file a tmpfs hides needs no mask (nor could it have one: its place is gone).
  for (const mask of masks) if (visible(mask.target)) directives.push('mask', mask.replacement, mask.target)
  return directives
}

/** The folders not inside another of them: binding one binds what it holds. */
function outermost(folders: string[]): string[] {
  const unique = [...new Set(folders)]
  return unique.filter((folder) => !unique.some((other) => isWithin(folder, other)))
}

/** Whether `path` is strictly inside `folder`. */
function isWithin(path: string, folder: string): boolean {
  return path.startsWith(folder.endsWith(sep) ? folder : `${folder}${sep}`)
}

function realFolder(dir: string): string {
  try {
    return realpathSync(dir)
  } catch {
    return dir
  }
}

function isFolder(dir: string): boolean {
  try {
    return statSync(dir).isDirectory()
  } catch {
    return false
  }
}

