/** One run, one uid: two sandboxes on one machine are two users, and neither reaches the other's folder. */
import { chmodSync, mkdirSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { createSandboxProvider, type Sandbox } from '../../src/ports/sandbox.js'
import { pickId, SANDBOX_ID_RANGES } from '../../src/ports/sandbox-ids.js'
import { describeWhereSandboxed } from '../support/sandbox-probe.js'

const dirs: string[] = []
afterAll(() => dirs.forEach((dir) => rmSync(dir, { recursive: true, force: true })))
const tempDir = (name: string) => {
  const dir = mkdtempSync(join(tmpdir(), `rtg-uid-${name}-`))
  dirs.push(dir)
  return dir
}

const sandboxUid = (sandbox: Sandbox) => Number(/^uid (\d+) /.exec(sandbox.detail)?.[1])

/**
 * A run's folder with a tree in it shared with its sandbox, as the pipeline makes them. `alsoSeen`: folders
 * its sandbox sees besides the checkout (with its own /tmp, it would not otherwise see another run's folder
 * there; another runner's temp folder elsewhere on the machine it would).
 */
async function openRun(checkout: string, work: string, alsoSeen: string[] = []): Promise<{ sandbox: Sandbox; work: string; tree: string }> {
  mkdirSync(work)
  const sandbox = await createSandboxProvider().open(work, [checkout, ...alsoSeen])
  const tree = join(work, 'trees', 'pre-fix')
  mkdirSync(join(tree, 'src'), { recursive: true })
  writeFileSync(join(tree, 'src', 'fix.js'), 'module.exports = "pre-fix"\n')
  await sandbox.share(join(work, 'trees'))
  return { sandbox, work, tree }
}

const attempt = (sandbox: Sandbox, cwd: string, script: string) =>
  sandbox.processes.run({ command: process.execPath, args: ['-e', script], cwd, timeoutMs: 30_000 }).then((result) => result.output.trim())

describeWhereSandboxed('where this machine can isolate', () => {
  test('two sandboxes are two uids, neither in the passwd file, and one cannot reach the other\'s folder', async () => {
    const checkout = tempDir('checkout')
    const machine = tempDir('machine')
    chmodSync(machine, 0o755)
    // A sees the folder where B's run folder lives: only the permissions keep it out.
    const [a, b] = await Promise.all([openRun(checkout, join(machine, 'a'), [machine]), openRun(checkout, join(machine, 'b'))])
    const [uidA, uidB] = [sandboxUid(a.sandbox), sandboxUid(b.sandbox)]
    expect(uidA).not.toBe(uidB)
    const passwd = readFileSync('/etc/passwd', 'utf8').split('\n').map((line) => Number(line.split(':')[2]))
    for (const uid of [uidA, uidB]) {
      expect(uid).toBeGreaterThanOrEqual(SANDBOX_ID_RANGES[0].first)
      expect(uid).toBeLessThanOrEqual(SANDBOX_ID_RANGES[0].last)
      expect(passwd).not.toContain(uid)
    }
    // Only the tool and the run's group: 0710 on the folder, group-only below it.
    expect(statSync(b.work)).toMatchObject({ uid: process.getuid?.(), gid: uidB })
    expect(statSync(b.work).mode & 0o777).toBe(0o710)
    expect(statSync(b.tree).mode & 0o007).toBe(0)

    const fixedSource = join(b.tree, 'src', 'fix.js')
    const fromA = await attempt(a.sandbox, a.work, `
      const fs = require('fs')
      const tryIt = (what, action) => { try { action(); return what + ': ok' } catch (error) { return what + ': ' + error.code } }
      console.log([
        tryIt('list B', () => fs.readdirSync(${JSON.stringify(b.work)})),
        tryIt('traverse B', () => fs.statSync(${JSON.stringify(b.tree)})),
        tryIt('write B', () => fs.writeFileSync(${JSON.stringify(fixedSource)}, 'module.exports = "fixed"')),
        tryIt('write own', () => fs.writeFileSync(${JSON.stringify(join(a.tree, 'src', 'fix.js'))}, 'module.exports = "mine"')),
      ].join('\\n'))`)
    expect(fromA.split('\n')).toEqual(['list B: EACCES', 'traverse B: EACCES', 'write B: EACCES', 'write own: ok'])
    expect(readFileSync(fixedSource, 'utf8')).toBe('module.exports = "pre-fix"\n')
    // B's own uid still writes its tree and its home; the tool removes it all, B's files too.
    const fromB = await attempt(b.sandbox, b.tree, `require('fs').writeFileSync('src/fix.js', 'b'); require('fs').mkdirSync(require('os').homedir() + '/.cache/x', { recursive: true }); console.log('ok')`)
    expect(fromB).toBe('ok')
    for (const run of [a, b]) {
      run.sandbox.remove(run.work)
      run.sandbox.close()
    }
  })

  test('its uid has a name inside the sandbox only: os.userInfo() and the passwd file find it, the machine\'s passwd file stays as it was', async () => {
    const passwdBefore = readFileSync('/etc/passwd', 'utf8')
    const { sandbox, work } = await openRun(tempDir('checkout'), join(tempDir('machine'), 'run'))
    const uid = sandboxUid(sandbox)
    expect(sandbox.detail).toContain(`gid ${uid}, this run's own, named regression-testgen in its own mount namespace`)
    const seen = await attempt(sandbox, work, `const { username, uid, homedir } = require('os').userInfo(); console.log(JSON.stringify({ username, uid, homedir }))`)
    expect(JSON.parse(seen)).toEqual({ username: 'regression-testgen', uid, homedir: join(work, 'sandbox-home') })
    // Neither file can the sandbox change.
    const writes = await attempt(sandbox, work, `for (const f of ['/etc/passwd', ${JSON.stringify(join(work, 'passwd'))}]) { try { require('fs').appendFileSync(f, 'evil::0:0::/:/bin/sh') ; console.log('wrote ' + f) } catch (e) { console.log(e.code) } }`)
    expect(writes.split('\n')).toEqual([expect.stringMatching(/^E(ACCES|ROFS|PERM)$/), 'EACCES'])
    expect(readFileSync('/etc/passwd', 'utf8')).toBe(passwdBefore)
    sandbox.remove(work)
    sandbox.close()
  })

  test('a folder closed to others above the checkout is closed again when the run ends, and not before the last run needing it ends', async () => {
    const closed = tempDir('closed')
    const checkout = join(closed, 'repo')
    mkdirSync(checkout)
    chmodSync(closed, 0o700)
    const first = await createSandboxProvider().open(tempDir('work'), [checkout])
    expect(first.isolation).toBe('sandbox')
    expect(statSync(closed).mode & 0o777).toBe(0o701)
    expect(first.notes.join('\n')).toContain(`made ${closed} traversable`)
    const second = await createSandboxProvider().open(tempDir('work'), [checkout])
    expect(second.isolation).toBe('sandbox')
    first.close()
    // The second run still reads its checkout.
    expect(statSync(closed).mode & 0o777).toBe(0o701)
    expect(await attempt(second, checkout, 'console.log(process.cwd())')).toBe(checkout)
    expect(second.close()).toEqual([`gave ${closed} its mode back`])
    expect(statSync(closed).mode & 0o777).toBe(0o700)
    // Closing twice changes nothing.
    expect(second.close()).toEqual([])
  })
})

describe('picking the ids', () => {
  const everything = [{ first: 0, last: 0xfffffffe }]

  test('from the unused range under 2^31 where the machine maps it, never a taken id', () => {
    const [preferred] = SANDBOX_ID_RANGES
    expect(pickId(SANDBOX_ID_RANGES, everything, new Set(), () => 5)).toBe(preferred.first + 5)
    // The draw hits a taken id: the next draw is used.
    const draws = [5, 6]
    expect(pickId(SANDBOX_ID_RANGES, everything, new Set([preferred.first + 5]), () => draws.shift()!)).toBe(preferred.first + 6)
    expect(preferred.last).toBeLessThan(2 ** 31)
  })

  test('in a container that maps only 0-65535, from the small range systemd leaves unused, skipping taken ids', () => {
    const id = pickId(SANDBOX_ID_RANGES, [{ first: 0, last: 65535 }], new Set([65520, 65521]), () => 0)
    expect(id).toBe(65522)
    const allTaken = new Set(Array.from({ length: 14 }, (_, offset) => 65520 + offset))
    expect(pickId(SANDBOX_ID_RANGES, [{ first: 0, last: 65535 }], allTaken, () => 0)).toBeNull()
  })
})
