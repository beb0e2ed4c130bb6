/**
 * The sandbox for everything the repository runs — its tests, builds and installs, which are the pull
 * request's code: an unprivileged user of its own — a uid picked for the run (sandbox-ids.ts) — in its own
 * PID, mount and IPC namespaces, made with util-linux's `unshare` and `setpriv`, as root or through
 * passwordless `sudo` (GitHub-hosted runners).
 *
 * Being another user, it cannot read the tool's environment or memory, nor write what the tool's user
 * owns: the checkout and its `.git`, the action's folder, the runner's command files. With its own /proc
 * it does not even see the tool's processes. Being the first process of its own PID namespace, the test
 * command takes every descendant with it when it ends, detached ones included; and each link of the chain
 * dies with its parent, so the sandbox dies with the run. It writes only folders the tool shares with it:
 * the trees, the run's scratch folders, its own home and temp folder — by group: the run's folder belongs
 * to the run's gid (0710), so no other uid, another run's sandbox included, even passes through it. Its
 * tests (any command not marked `network: true`, as installs and builds are) run in their own network
 * namespace with only loopback up: a test's own local servers work, nothing leaves the machine. Its /tmp, /var/tmp
 * and /dev/shm are its own, RUNNER_TEMP and the checkout's credentials out of sight (private-mounts.ts).
 *
 * Where none of that is possible (not Linux, no root and no passwordless sudo, no namespaces in a
 * container), the repository's commands run as the tool's user, with the allow-listed environment only,
 * and the run says so.
 */
import { execFile, spawnSync } from 'node:child_process'
import { chmodSync, lstatSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs'
import { mkdir } from 'node:fs/promises'
import { delimiter, dirname, join } from 'node:path'
import { promisify } from 'node:util'
import { createProcessRunner, testEnvironment, type ProcessRequest, type ProcessRunner } from './process.js'
import { acceptSandboxOwner } from './sandbox-files.js'
import { onPath, systemProgram } from './programs.js'
import { makeTraversable } from './folder-modes.js'
import { pickSandboxIds } from './sandbox-ids.js'
import { DEFAULT_LIMITS, limitsText, prlimitOptions, type ResourceLimits } from '../sandbox-limits.js'
import { findMountTools, privateMountsLink, type FileMask, type MountTools } from './private-mounts.js'

export type IsolationMode = 'sandbox' | 'none'

export interface Sandbox {
  readonly isolation: IsolationMode
  /** How the repository's commands run, or why they are not isolated. */
  readonly detail: string
  /** Whether a command not marked `network: true` reaches only loopback (false: every command has the network). */
  readonly isolatesNetwork: boolean
  /** What the sandbox changed on the machine to work (e.g. a folder made traversable), for the log. */
  readonly notes: string[]
  /** Runs the repository's commands: inside the sandbox, or as the tool's user when there is none. */
  readonly processes: ProcessRunner
  /** Lets the sandboxed commands write a folder the tool made (a tree, a scratch folder), recursively. */
  share(dir: string): Promise<void>
  /** Removes a folder the sandboxed commands wrote into (their files are not the tool's to delete). Synchronous, for interrupts too; throws what it could not remove. */
  remove(dir: string): void
  /** At the run's end (interrupts too, so synchronous): gives back what the sandbox changed (folder modes); what it did, for the log. */
  close(): string[]
}

export interface SandboxProvider {
  /**
   * A sandbox whose home and temp folder live in `workDir`, able to read the `readable` folders (the
   * checkout); each mask's file is what its commands see in place of the target (a git config without credentials).
   */
  open(workDir: string, readable: string[], masks?: FileMask[]): Promise<Sandbox>
}

/** The run's uid's name inside the sandbox (USER, LOGNAME, its passwd line there): the machine has no entry for it. */
const SANDBOX_USER_NAME = 'regression-testgen'
const PROBE_TIMEOUT_MS = 30_000
const SETUP_TIMEOUT_MS = 120_000

/**
 * A test that runs git in its tree would meet a repository owned by another user, which git refuses
 * ("dubious ownership"); for the sandbox's own git only, every repository is trusted — it can write none.
 */
const TRUST_THE_TREES = { GIT_CONFIG_COUNT: '1', GIT_CONFIG_KEY_0: 'safe.directory', GIT_CONFIG_VALUE_0: '*' }

interface Launcher {
  /** `sudo -n --` when not root, else nothing. */
  privilege: string[]
  /** Absolute paths of the util-linux and coreutils programs the chain is made of. */
  env: string
  setpriv: string
  unshare: string
  /** Brings loopback up in the new network namespace, as root, then runs the rest of the chain; null: no network namespace. */
  loopbackUp: string[] | null
  prlimit: string
  /** What each command may use (memory, processes, file size). */
  limits: ResourceLimits
  /** `mount` and `mkdir`, for the private mounts (private-mounts.ts); null: none on this machine. */
  mountTools: MountTools | null
  /** Mounts the sandbox's own /tmp, /var/tmp, /dev/shm (and hides RUNNER_TEMP, the credentials in git config), as root, then runs the rest of the chain; absent: shared ones. */
  privateMounts?: string[]
  /** The run's own user (see sandbox-ids.ts). */
  user: { name: string; uid: number; gid: number }
  how: string
  /** Absolute paths of the coreutils that share a folder with the run's group. */
  chgrp: string
  chmod: string
}

/**
 * `sh -c` with the program and the rest of the chain as arguments, never in the script: `ip` (iproute2)
 * brings `lo` up, then the shell becomes the chain. Without it a new network namespace has no loopback.
 */
const LOOPBACK_UP_SCRIPT = '"$1" link set lo up && shift && exec "$@"'

export function createSandboxProvider(parentEnv: NodeJS.ProcessEnv = process.env): SandboxProvider {
  let launcher: Promise<Omit<Launcher, 'user'> | string> | undefined
  return {
    async open(workDir, readable, masks = []) {
      launcher ??= findLauncher(parentEnv)
      const found = await launcher
      if (typeof found === 'string') return unisolated(found, parentEnv)
      return openSandbox(found, workDir, readable, masks, parentEnv)
    }
  }
}

/** No isolation: the repository's commands run as the tool's user, with the allow-listed environment. */
export function unisolated(why: string, parentEnv: NodeJS.ProcessEnv = process.env): Sandbox {
  return {
    isolation: 'none',
    detail: why,
    isolatesNetwork: false,
    notes: [],
    processes: createProcessRunner(parentEnv),
    share: async () => undefined,
    remove: (dir) => rmSync(dir, { recursive: true, force: true }),
    close: () => []
  }
}

/** Whether this machine can isolate at all, and with what: the programs, the privilege (each run gets its own user). */
async function findLauncher(parentEnv: NodeJS.ProcessEnv): Promise<Omit<Launcher, 'user'> | string> {
  if (process.platform !== 'linux') return `isolation needs Linux namespaces; this is ${process.platform}`
  const path = parentEnv.PATH ?? ''
  const programs = { env: onPath('env', path), setpriv: onPath('setpriv', path), unshare: onPath('unshare', path), prlimit: onPath('prlimit', path) }
  const missing = Object.entries(programs).filter(([, found]) => !found).map(([name]) => name)
  if (missing.length) return `${missing.join(' and ')} not found (util-linux and coreutils provide them)`
  const coreutils = { chgrp: systemProgram('chgrp', path), chmod: systemProgram('chmod', path) }
  if (!coreutils.chgrp || !coreutils.chmod) return 'chgrp or chmod not found (coreutils provides them)'
  const uid = process.getuid?.() ?? -1
  let privilege: string[] = []
  if (uid !== 0) {
    const sudo = onPath('sudo', path)
    if (!sudo || !(await succeeds(sudo, ['-n', 'true']))) return 'not root, and no passwordless sudo to start the sandbox with'
    privilege = [sudo, '-n', '--']
  }
  const how = `in its own PID, mount and IPC namespaces (unshare and setpriv${privilege.length ? ', through sudo' : ', as root'})`
  return { privilege, env: programs.env!, setpriv: programs.setpriv!, unshare: programs.unshare!, prlimit: programs.prlimit!, chgrp: coreutils.chgrp, chmod: coreutils.chmod, limits: DEFAULT_LIMITS, loopbackUp: loopbackUpChain(path), mountTools: findMountTools(path), how: `${how}, ${limitsText(DEFAULT_LIMITS)}` }
}

/** The chain's link that brings up loopback, or null where `sh` or `ip` is missing (the tests then keep the network). */
function loopbackUpChain(path: string): string[] | null {
  const sh = systemProgram('sh', path)
  const ip = systemProgram('ip', path)
  return sh && ip ? [sh, '-c', LOOPBACK_UP_SCRIPT, 'sh', ip] : null
}

async function openSandbox(machine: Omit<Launcher, 'user'>, workDir: string, readable: string[], masks: FileMask[], parentEnv: NodeJS.ProcessEnv): Promise<Sandbox> {
  const ids = pickSandboxIds()
  if (typeof ids === 'string') return unisolated(`the sandbox could not start: ${ids}`, parentEnv)
  const found: Launcher = { ...machine, user: { name: SANDBOX_USER_NAME, ...ids }, how: `uid ${ids.uid} (gid ${ids.gid}, this run's own, no passwd entry) ${machine.how}` }
  const home = join(workDir, 'sandbox-home')
  const tmp = join(workDir, 'sandbox-tmp')
  await mkdir(home, { recursive: true })
  await mkdir(tmp, { recursive: true })
  // Only the tool and this run's uid reach the run's folder: it belongs to the tool and the run's group,
  // which may pass through (0710) but not list it; others, another run's sandbox among them, not even pass.
  // Only its home and temp folder are the sandbox's to write; what the tool keeps there (the git config
  // copy, passwd and group) stays the tool's alone.
  const runFolder = async () => {
    await privileged(found, found.chgrp, [String(found.user.gid), '--', workDir])
    await privileged(found, found.chmod, ['0710', '--', workDir])
  }
  await Promise.all([shareWithGroup(found, home), shareWithGroup(found, tmp), runFolder()])
  const folders = makeTraversable(readable)
  const notes = folders.notes
  // What the sandbox's commands write is owned by its user: the tool reads those files (sandbox-files.ts).
  acceptSandboxOwner(found.user.uid)
  const env = { ...testEnvironment(parentEnv), HOME: home, TMPDIR: tmp, TMP: tmp, TEMP: tmp, USER: found.user.name, LOGNAME: found.user.name, ...TRUST_THE_TREES }
  // The chain itself starts with nothing of the tool's environment; the command gets `env` (see wrap).
  const inner = createProcessRunner({})
  const identity = identityMasks(found.user, workDir, home)
  const mounts = { workDir, readable, masks: { credentials: masks, identity }, parentEnv }
  // Starts the whole chain once, and checks that the sandbox's user can reach the folders it needs: first as
  // it is where everything works (a runner); only where that fails is each part tried, to find what this
  // machine lacks, and the chain without it tried again.
  const reach = (chain: Launcher) => inner.run(wrap(chain, env, { command: 'test', args: ['-x', workDir, ...readable.flatMap((dir) => ['-a', '-x', dir])], cwd: workDir, timeoutMs: PROBE_TIMEOUT_MS }))
  let launcher = withPrivateMountsAssumed(withLoopbackAssumed(found), mounts)
  let probe = await reach(launcher)
  if (probe.exitCode !== 0) {
    launcher = await withPrivateMounts(await withWorkingLoopback(found, inner, env, workDir), inner, env, mounts)
    probe = await reach(launcher)
  }
  const processes: ProcessRunner = { run: (request) => inner.run(wrap(launcher, env, request)) }
  const sandbox: Sandbox = {
    isolation: 'sandbox',
    detail: launcher.how,
    isolatesNetwork: launcher.loopbackUp !== null,
    notes,
    processes,
    share: (dir) => shareWithGroup(launcher, dir),
    remove: (dir) => removeFolder(dir, launcher, env),
    close: () => folders.restore()
  }
  if (probe.exitCode !== 0) {
    const why = probe.output.trim() || `uid ${launcher.user.uid} cannot read ${readable.join(', ')}`
    return { ...unisolated(`the sandbox could not start: ${why}`, parentEnv), notes: [...notes, ...folders.restore()] }
  }
  return sandbox
}

/**
 * Copies of the system's passwd and group files naming the run's uid and gid (`regression-testgen`), the
 * tool's (the sandbox reads them, cannot write them), to be bound over the system's with the private
 * mounts, so `whoami` and node's `os.userInfo()` work; none where the machine has no such files.
 */
function identityMasks(user: Launcher['user'], workDir: string, home: string): FileMask[] {
  if (!isFile('/etc/passwd') || !isFile('/etc/group')) return []
  const { name, uid, gid } = user
  const passwd = join(workDir, 'passwd')
  const group = join(workDir, 'group')
  writeFileSync(passwd, `${withFinalNewline(readFileSync('/etc/passwd', 'utf8'))}${name}:x:${uid}:${gid}:the run's sandbox:${home}:/bin/sh\n`, { mode: 0o644, flag: 'wx' })
  writeFileSync(group, `${withFinalNewline(readFileSync('/etc/group', 'utf8'))}${name}:x:${gid}:\n`, { mode: 0o644, flag: 'wx' })
  return [
    { target: '/etc/passwd', replacement: passwd },
    { target: '/etc/group', replacement: group }
  ]
}

function isFile(path: string): boolean {
  try {
    return statSync(path).isFile()
  } catch {
    return false
  }
}

function withFinalNewline(text: string): string {
  return text === '' || text.endsWith('\n') ? text : `${text}\n`
}

/**
 * A network namespace for the tests, where loopback comes up in it (tried once); else the tests keep the
 * network and the sandbox's description says why, rather than breaking every test that serves on loopback.
 */
async function withWorkingLoopback(launcher: Launcher, inner: ProcessRunner, env: Record<string, string>, workDir: string): Promise<Launcher> {
  if (!launcher.loopbackUp) return withLoopbackAssumed(launcher)
  const tried = await inner.run({ ...sandboxCommand(launcher, env, 'true', [], false), cwd: workDir, timeoutMs: PROBE_TIMEOUT_MS })
  if (tried.exitCode !== 0) return { ...launcher, loopbackUp: null, how: `${launcher.how}; the tests keep the network (no network namespace with loopback here: ${tried.output.trim() || `exit ${tried.exitCode}`})` }
  return withLoopbackAssumed(launcher)
}

/** The launcher as withWorkingLoopback makes it where the namespace with loopback works (or where there is no `ip`). */
function withLoopbackAssumed(launcher: Launcher): Launcher {
  if (!launcher.loopbackUp) return { ...launcher, how: `${launcher.how}; the tests keep the network (no \`ip\` from iproute2 to bring up loopback in a network namespace)` }
  return { ...launcher, how: launcher.how.replace(' and IPC namespaces', ', IPC and — for the tests — network namespaces, loopback only') }
}

/**
 * Private /tmp, /var/tmp and /dev/shm (the run's own folders re-bound into them), RUNNER_TEMP hidden and the
 * masked files (the git config without credentials; passwd and group naming the run's uid), where the
 * mounts work here (tried once); else the shared ones, a nameless uid, and the description says why.
 */
async function withPrivateMounts(launcher: Launcher, inner: ProcessRunner, env: Record<string, string>, mounts: PrivateMountsOf): Promise<Launcher> {
  const mounted = withPrivateMountsAssumed(launcher, mounts)
  if (!mounted.privateMounts) return mounted
  const tried = await inner.run({ ...sandboxCommand(mounted, env, 'true', [], true), cwd: mounts.workDir, timeoutMs: PROBE_TIMEOUT_MS })
  if (tried.exitCode !== 0) return sharedFolders(launcher, `no private mounts here: ${tried.output.trim() || `exit ${tried.exitCode}`}`)
  return mounted
}

/** What the private mounts are made of: the run's folders bound back in, the files masked. */
interface PrivateMountsOf {
  workDir: string
  readable: string[]
  masks: { credentials: FileMask[]; identity: FileMask[] }
  parentEnv: NodeJS.ProcessEnv
}

/** The launcher as withPrivateMounts makes it where the mounts work (or where there is no `mount`). */
function withPrivateMountsAssumed(launcher: Launcher, { workDir, readable, masks, parentEnv }: PrivateMountsOf): Launcher {
  if (!launcher.mountTools) return sharedFolders(launcher, 'no `mount` from util-linux')
  const programs = [dirname(process.execPath), ...(parentEnv.PATH ?? '').split(delimiter)]
  const link = privateMountsLink(launcher.mountTools, [workDir, ...readable], [...masks.credentials, ...masks.identity], parentEnv.RUNNER_TEMP, programs)
  const how = masks.identity.length ? launcher.how.replace(', no passwd entry)', `, named ${launcher.user.name} in its own mount namespace)`) : launcher.how
  return { ...launcher, privateMounts: link, how: `${how}; a private /tmp, /var/tmp and /dev/shm, RUNNER_TEMP hidden${masks.credentials.length ? ', the git config without credentials' : ''}` }
}

function sharedFolders(launcher: Launcher, why: string): Launcher {
  return { ...launcher, how: `${launcher.how}; the commands share this machine's /tmp and /dev/shm and can read RUNNER_TEMP and the checkout's git config (${why})` }
}

/**
 * The command line that runs `request` in the sandbox. Each link dies with its parent: setpriv's
 * parent-death signal ties unshare to the tool (or sudo); --kill-child ties the namespace's first process
 * to unshare, and `--pdeathsig keep` keeps that tie across the change of user, which would clear it.
 * Without `network`, where the launcher can, `--net` gives it a network namespace whose loopback the
 * shell brings up as root (then exec's the rest, so the PID namespace's first process stays the chain).
 */
export function sandboxCommand(launcher: Pick<Launcher, 'privilege' | 'env' | 'setpriv' | 'unshare' | 'prlimit' | 'limits' | 'loopbackUp' | 'privateMounts' | 'user'>, env: Record<string, string>, command: string, args: string[], network: boolean): { command: string; args: string[] } {
  const { uid, gid } = launcher.user
  const offline = !network && launcher.loopbackUp ? { unshare: ['--net'], loopbackUp: launcher.loopbackUp } : { unshare: [], loopbackUp: [] }
  const chain = [
    ...launcher.privilege,
    launcher.env, '-i', ...Object.entries(env).map(([name, value]) => `${name}=${value}`),
    launcher.setpriv, '--pdeathsig', 'SIGKILL', '--',
    launcher.unshare, '--pid', '--fork', '--kill-child', '--mount-proc', '--ipc', ...offline.unshare, '--',
    ...offline.loopbackUp,
    // Root's last links in the new mount namespace: its own tmp folders, RUNNER_TEMP and the credentials out
    // of sight, the run's uid named (getpwuid, os.userInfo(), whoami).
    ...(launcher.privateMounts ?? []),
    // Limits set while still root, so the sandbox's user can lower them but never raise them.
    launcher.prlimit, ...prlimitOptions(launcher.limits), '--',
    launcher.setpriv, `--reuid=${uid}`, `--regid=${gid}`, '--clear-groups', '--inh-caps=-all', '--bounding-set=-all', '--no-new-privs', '--pdeathsig', 'keep', '--',
    command, ...args
  ]
  return { command: chain[0], args: chain.slice(1) }
}

function wrap(launcher: Launcher, env: Record<string, string>, request: ProcessRequest): ProcessRequest {
  // The request's own variables win (a test-command's `TZ=UTC`); nothing else of the tool's gets in.
  return { ...sandboxCommand(launcher, { ...env, ...request.env }, request.command, request.args, request.network === true), cwd: request.cwd, timeoutMs: request.timeoutMs }
}

/**
 * The run's group may write the folder's files and folders, others nothing: the tool keeps owning them
 * (its user may go on writing them without sudo), the run's uid writes them through its group.
 * `chgrp -R` and `chmod -R` never follow the links they meet (such as node_modules pointing into the
 * checkout). Changing the group to one the tool's user is not in takes root: through the same privilege
 * as the sandbox itself.
 */
async function shareWithGroup(launcher: Launcher, dir: string): Promise<void> {
  await privileged(launcher, launcher.chgrp, ['-R', String(launcher.user.gid), '--', dir])
  await privileged(launcher, launcher.chmod, ['-R', 'g+rwX,o-rwx', '--', dir])
}

function privileged(launcher: Pick<Launcher, 'privilege'>, program: string, args: string[]): Promise<unknown> {
  const [command, ...rest] = [...launcher.privilege, program, ...args]
  return promisify(execFile)(command, rest, { env: { PATH: process.env.PATH ?? '' }, timeout: SETUP_TIMEOUT_MS })
}

/** What the tool cannot delete (the sandbox's files in the sandbox's folders), the sandbox deletes; then the tool the rest. */
function removeFolder(dir: string, launcher: Launcher, env: Record<string, string>): void {
  try {
    rmSync(dir, { recursive: true, force: true })
    return
  } catch {
    // Not the tool's to delete: hand it to the sandbox's user.
  }
  // The sandbox may pass through the run's folder but not list it: its group now may (the folder's group
  // is the run's wherever the tool shared it); its own read-only folders (as some installs leave) are
  // opened first, which rm -rf does not do.
  openToGroup(dir)
  for (const [command, args] of [['chmod', ['-R', 'u+rwX', '--', dir]], ['rm', ['-rf', '--', dir]]] as const) {
    const asSandbox = sandboxCommand(launcher, env, command, [...args], true)
    spawnSync(asSandbox.command, asSandbox.args, { cwd: dirname(dir), env: {}, stdio: 'ignore', timeout: SETUP_TIMEOUT_MS })
  }
  rmSync(dir, { recursive: true, force: true })
}

/** Lets the run's group list and empty a folder of the tool's (a folder the sandbox made is its own to open). */
function openToGroup(dir: string): void {
  try {
    if (lstatSync(dir).isDirectory()) chmodSync(dir, 0o770)
  } catch {
    // Not the tool's: the sandbox's own, which it may open itself.
  }
}

function succeeds(command: string, args: string[]): Promise<boolean> {
  return promisify(execFile)(command, args, { env: { PATH: process.env.PATH ?? '' }, timeout: PROBE_TIMEOUT_MS }).then(
    () => true,
    () => false
  )
}
