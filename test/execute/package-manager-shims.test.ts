/**
 * A repository that names pnpm (its lockfile) or yarn (its packageManager field) on a machine without either: the tool's own build command and
 * the test script's `pnpm run build`, both in the real sandbox, run pnpm through corepack instead of ending
 * `exit 127`. Corepack downloads them from a fake registry on 127.0.0.1 (test/support/fake-npm-registry.ts).
 */
import { existsSync, readFileSync } from 'node:fs'
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { repositoryManager, usePackageManagers, writePackageManagerShims } from '../../src/execute/package-manager-shims.js'
import { runTreeCommand } from '../../src/execute/tree-command.js'
import { captureLaunch } from '../../src/launch/capture.js'
import type { Logger } from '../../src/ports/logger.js'
import { onPath } from '../../src/ports/programs.js'
import { createSandboxProvider } from '../../src/ports/sandbox.js'
import { describeWhereSandboxed } from '../support/sandbox-probe.js'
import { corepackFromFakeRegistry } from '../support/fake-npm-registry.js'

const PNPM_LOCK = "lockfileVersion: '9.0'\n\nsettings:\n  autoInstallPeers: true\n  excludeLinksFromLockfile: false\n\nimporters:\n\n  .: {}\n"

async function writeFixture(tree: string, manifest: Record<string, unknown>, lockfile: string | null): Promise<void> {
  await mkdir(join(tree, 'test'), { recursive: true })
  await writeFile(join(tree, 'package.json'), JSON.stringify({ name: 'fixture', private: true, scripts: { build: 'node build.js', test: 'pnpm run build && node --test test/' }, ...manifest }))
  if (lockfile !== null) await writeFile(join(tree, 'pnpm-lock.yaml'), lockfile)
  await writeFile(join(tree, 'build.js'), "require('node:fs').mkdirSync('lib', { recursive: true })\nrequire('node:fs').writeFileSync('lib/out.js', 'module.exports = 42\\n')\n")
  await writeFile(join(tree, 'test/out.test.js'), "require('node:fs').writeFileSync(__dirname + '/../TESTS-RAN', 'x')\nrequire('node:test')('built', () => require('assert').equal(require('../lib/out.js'), 42))\n")
}

function recordingLog(): Logger & { lines: string[] } {
  const lines: string[] = []
  const add = (message: string) => void lines.push(message)
  return { lines, info: add, warn: add, error: add, debug: () => undefined }
}

let work = ''
afterEach(() => rm(work, { recursive: true, force: true }))

describe('which package manager, and whether a shim stands in for it', () => {
  it('the packageManager field first (the package’s, then the root’s), else the lockfile; nothing for npm or a pnpm on PATH', async () => {
    work = await mkdtemp(join(tmpdir(), 'pm-choice-'))
    await writeFixture(join(work, 'repo'), { packageManager: 'pnpm@9.15.9' }, "lockfileVersion: '6.0'\n")
    await writeFixture(join(work, 'repo/packages/a'), {}, null)
    expect(repositoryManager(join(work, 'repo'), 'packages/a')).toEqual({ name: 'pnpm', version: '9.15.9', source: 'packageManager "pnpm@9.15.9"' })
    await writeFixture(join(work, 'lockfile-only'), {}, "lockfileVersion: '6.0'\n")
    expect(repositoryManager(join(work, 'lockfile-only'), '')).toMatchObject({ name: 'pnpm', version: '8' })
    await writeFixture(join(work, 'npm'), {}, null)
    expect(repositoryManager(join(work, 'npm'), '')).toBeNull()
    expect(await writePackageManagerShims(join(work, 'npm'), '', join(work, 'shims-npm'))).toBeNull()
    // A pnpm on PATH is the one that runs: no shim.
    await mkdir(join(work, 'bin'))
    await writeFile(join(work, 'bin/pnpm'), '#!/bin/sh\n', { mode: 0o755 })
    expect(await writePackageManagerShims(join(work, 'lockfile-only'), '', join(work, 'shims-found'), `${join(work, 'bin')}:${process.env.PATH}`)).toBeNull()
    const shims = await writePackageManagerShims(join(work, 'lockfile-only'), '', join(work, 'shims'), '/usr/bin:/bin')
    expect(shims).toMatchObject({ folder: join(work, 'shims'), via: 'corepack' })
    expect(readFileSync(join(work, 'shims/pnpm'), 'utf8')).toMatch(/corepack' 'pnpm@8' "\$@"\n$/)
    expect(existsSync(join(work, 'shims/pnpx'))).toBe(true)
  })
})

describeWhereSandboxed('in the real sandbox, on a machine without pnpm', () => {
  const { registry } = corepackFromFakeRegistry(['pnpm', 'yarn'])

  test('the build command `pnpm run build` and the test script calling it run through corepack at the lockfile’s major; without the shims, exit 127', async () => {
    expect(onPath('pnpm', process.env.PATH ?? '')).toBeNull()
    work = await mkdtemp(join(tmpdir(), 'pm-sandbox-'))
    const tree = join(work, 'tree')
    const scratch = join(work, 'scratch')
    await writeFixture(tree, {}, PNPM_LOCK)
    await mkdir(scratch)
    const sandbox = await createSandboxProvider().open(work, [])
    try {
      await sandbox.share(tree)
      await sandbox.share(scratch)
      expect(sandbox.isolation).toBe('sandbox')
      const bare = await sandbox.processes.run({ command: 'pnpm', args: ['run', 'build'], cwd: tree, timeoutMs: 60_000, network: true })
      expect(bare.exitCode).toBe(127)

      const log = recordingLog()
      const shimmed = await usePackageManagers(sandbox, tree, '', join(work, 'package-managers'), log)
      process.stdout.write(`corepack's first pnpm@9 in the sandbox: ${log.lines[1]}\n`)
      // The 9.x the registry serves, resolved, downloaded and checked (signature, integrity) by corepack.
      const pnpm = registry().versions.pnpm
      expect(pnpm).toMatch(/^9\./)
      expect(log.lines).toEqual([
        'Package manager: pnpm (pnpm-lock.yaml lockfileVersion 9.0) is not on PATH; it runs through corepack as pnpm@9',
        expect.stringMatching(new RegExp(`^Package manager: pnpm ${pnpm.replace(/\./g, '\\.')} ready \\(\\d+\\.\\d s\\)$`))
      ])
      expect(registry().requests).toEqual(expect.arrayContaining(['/pnpm', `/pnpm/${pnpm}`, `/pnpm/-/pnpm-${pnpm}.tgz`]))
      await runTreeCommand(shimmed.processes, { command: 'pnpm', args: ['run', 'build'], env: {} }, tree, 120_000, 'The build at head', log)
      expect(readFileSync(join(tree, 'lib/out.js'), 'utf8')).toBe('module.exports = 42\n')

      // The test script's own `pnpm run build`, offline as captures run: corepack's download is in the sandbox's home.
      await rm(join(tree, 'lib'), { recursive: true, force: true })
      const captured = await captureLaunch(tree, undefined, shimmed.processes, { scratchDir: scratch, timeoutMs: 120_000 })
      if (!captured.launch) throw new Error(`nothing captured (exit ${captured.exitCode}):\n${captured.outputTail}`)
      expect(captured.launch).toMatchObject({ runner: 'node-test', cwd: tree })
      // What ran before the runner, as the capture saw it: the shim's corepack (the build script it ran is inside that step).
      expect(captured.launch.beforeRunner.map((step) => step.command)).toEqual(['corepack pnpm@9 run build'])
      expect(existsSync(join(tree, 'lib/out.js'))).toBe(true)
      expect(existsSync(join(tree, 'TESTS-RAN'))).toBe(false)
    } finally {
      sandbox.close()
    }
  })

  test('yarn at the exact version the packageManager field pins: `yarn run build` (the tool’s build, a script’s `yarn test:build`)', async () => {
    expect(onPath('yarn', process.env.PATH ?? '')).toBeNull()
    work = await mkdtemp(join(tmpdir(), 'pm-sandbox-yarn-'))
    const tree = join(work, 'tree')
    await writeFixture(tree, { packageManager: 'yarn@1.22.22' }, null)
    const sandbox = await createSandboxProvider().open(work, [])
    try {
      await sandbox.share(tree)
      const log = recordingLog()
      const shimmed = await usePackageManagers(sandbox, tree, '', join(work, 'package-managers'), log)
      expect(log.lines).toEqual(['Package manager: yarn (packageManager "yarn@1.22.22") is not on PATH; it runs through corepack as yarn@1.22.22', expect.stringMatching(/^Package manager: yarn 1\.22\.22 ready \(\d+\.\d s\)$/)])
      expect(registry().requests).toEqual(expect.arrayContaining(['/yarn/1.22.22', '/yarn/-/yarn-1.22.22.tgz']))
      await runTreeCommand(shimmed.processes, { command: 'yarn', args: ['run', 'build'], env: {} }, tree, 120_000, 'The build at head', log)
      expect(readFileSync(join(tree, 'lib/out.js'), 'utf8')).toBe('module.exports = 42\n')
    } finally {
      sandbox.close()
    }
  })
})
