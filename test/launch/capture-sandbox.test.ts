/**
 * The capture inside the sandbox, as production runs it: the preloads copied into a shared scratch folder
 * are readable there, `via` is walked in the sandbox's own PID namespace, and no test runs.
 */
import { existsSync, realpathSync } from 'node:fs'
import { chmod, mkdir, mkdtemp, readFile, rm, symlink, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { dirname, join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { captureLaunch } from '../../src/launch/capture.js'
import { createSandboxProvider } from '../../src/ports/sandbox.js'
import { describeWhereSandboxed } from '../support/sandbox-probe.js'

const projectRoot = join(dirname(fileURLToPath(import.meta.url)), '..', '..')
let work = ''
afterEach(() => rm(work, { recursive: true, force: true }))

describeWhereSandboxed('where this machine can isolate', () => {
  test('`npm test` running jest with its own --config, captured in the sandbox; the test never runs', async () => {
    work = await mkdtemp(join(tmpdir(), 'capture-sandbox-'))
    const tree = join(work, 'tree')
    const scratch = join(work, 'scratch')
    await mkdir(join(tree, 'config'), { recursive: true })
    await mkdir(scratch)
    await writeFile(join(tree, 'package.json'), JSON.stringify({ name: 'fixture', private: true, scripts: { test: 'NODE_ENV=test jest --config config/jest.config.js' } }))
    await writeFile(join(tree, 'config/jest.config.js'), "module.exports = { rootDir: '..' }\n")
    await writeFile(join(tree, 'a.test.js'), "require('node:fs').writeFileSync(__dirname + '/TESTS-RAN', 'x')\ntest('a', () => {})\n")
    await symlink(join(projectRoot, 'node_modules'), join(tree, 'node_modules'), 'dir')
    const sandbox = await createSandboxProvider().open(work, [realpathSync(join(projectRoot, 'node_modules'))])
    try {
      await sandbox.share(tree)
      await sandbox.share(scratch)
      const result = await captureLaunch(tree, undefined, sandbox.processes, { scratchDir: scratch, timeoutMs: 60_000 })
      if (!result.launch) throw new Error(`nothing captured:\n${result.outputTail}`)
      expect(sandbox.isolation).toBe('sandbox')
      expect(result.launch).toMatchObject({ runner: 'jest', argv: ['--config', 'config/jest.config.js'], cwd: tree, env: { NODE_ENV: 'test' } })
      expect(result.launch.via).toEqual(['npm test', 'NODE_ENV=test jest --config config/jest.config.js', 'jest --config config/jest.config.js'])
      // The walk up /proc meets the root shell, the PID namespace's pid 1: npm is on the way, not before the runner.
      expect(result.launch.beforeRunner).toEqual([])
      expect(existsSync(join(tree, 'TESTS-RAN'))).toBe(false)
      process.stdout.write(`sandboxed capture: ${result.durationMs} ms\n`)
    } finally {
      sandbox.close()
    }
  })

  // The records come back through a folder the command can write: a test script that plants something
  // there in their place is refused, never followed, read through or waited on.
  const planted: Array<[what: string, script: string, refusal: RegExp]> = [
    ['a link to a file only the tool can read', 'ln -sf "$CANARY" "$RTG_CAPTURE_FILE"', /symbolic link/],
    ['a FIFO (a read would wait forever)', 'mkfifo "$RTG_CAPTURE_FILE"', /not a plain file|FIFO|fifo/i],
    ['a link in place of the start environment', 'ln -sf "$CANARY" "$RTG_CAPTURE_START_ENV"', /symbolic link/]
  ]
  test.each(planted)('a test command that plants %s as the capture\'s records: refused, the canary never read', async (_what, script, refusal) => {
    work = await mkdtemp(join(tmpdir(), 'capture-planted-'))
    const tree = join(work, 'tree')
    const scratch = join(work, 'scratch')
    await mkdir(tree)
    await mkdir(scratch)
    const canary = join(work, 'canary')
    await writeFile(canary, 'CANARY-7f3a')
    await chmod(canary, 0o600)
    // After the shell's own start environment is written: the command replaces what the tool will read.
    const command = `CANARY=${canary}; rm -f "$RTG_CAPTURE_FILE" "$RTG_CAPTURE_START_ENV"; ${script}`
    const sandbox = await createSandboxProvider().open(work, [])
    try {
      await sandbox.share(tree)
      await sandbox.share(scratch)
      const capture = captureLaunch(tree, command, sandbox.processes, { scratchDir: scratch, timeoutMs: 60_000 })
      const refused = await capture.then(() => null, (error: Error) => error)
      expect(refused?.message).toMatch(refusal)
      expect(refused?.message).not.toContain('CANARY-7f3a')
      expect(await readFile(canary, 'utf8')).toBe('CANARY-7f3a')
    } finally {
      sandbox.close()
    }
  })
})
