/**
 * Issue 22, item 7: a repository whose lockfile names pnpm, on a machine without pnpm. The detected build
 * is `pnpm run build`; through corepack it runs in each tree (it used to end `exit 127`), and the fix is proven.
 * Corepack downloads pnpm from a fake registry on 127.0.0.1 (test/support/fake-npm-registry.ts).
 */
import { runCliOnFixture } from '../support/cli-run.js'
import { describeWhereSandboxed } from '../support/sandbox-probe.js'
import { onPath } from '../../src/ports/programs.js'
import { corepackFromFakeRegistry } from '../support/fake-npm-registry.js'

const PNPM_LOCK = "lockfileVersion: '9.0'\n\nsettings:\n  autoInstallPeers: true\n  excludeLinksFromLockfile: false\n\nimporters:\n\n  .: {}\n"

describeWhereSandboxed('a repository that names a package manager this machine lacks', () => {
  const { registry } = corepackFromFakeRegistry(['pnpm', 'yarn'])

  test('verify, zero-config: the detected `pnpm run build` runs through corepack in each tree, and proves the fix', async () => {
    expect(onPath('pnpm', process.env.PATH ?? '')).toBeNull()
    // The fixture goes without this project's own pnpm and yarn (devDependencies, for the registry above).
    const run = await runCliOnFixture({ fixture: 'clamp-build', fixtureOptions: { baseChanges: { 'pnpm-lock.yaml': PNPM_LOCK }, withoutPackages: ['pnpm', 'yarn'] } })
    const pnpm = registry().versions.pnpm
    expect(run.log).toContain('Package manager: pnpm (pnpm-lock.yaml lockfileVersion 9.0) is not on PATH; it runs through corepack as pnpm@9')
    expect(run.log).toContainEqual(expect.stringMatching(new RegExp(`^Package manager: pnpm ${pnpm.replace(/\./g, '\\.')} ready \\(\\d+\\.\\d s\\)$`)))
    expect(registry().requests).toContain(`/pnpm/-/pnpm-${pnpm}.tgz`)
    expect(run.report.build).toMatchObject({ command: 'pnpm run build', detected: true })
    expect(run.report).toMatchObject({ isolation: 'sandbox', verdict: 'fail-to-pass' })
    expect(run.exitCode).toBe(0)
  })
})
